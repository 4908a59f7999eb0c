-- Finding: with the script's memory full, building or reading the next
-- event ran out of memory outside Lua's protection: carc aborted. The heap
-- is filled to the last bytes, then an award raises this script's own
-- score-before handler, whose event carc must build in the full heap.
local reason = carc.define_reason("hoard")
local chunk = ("x"):rep(65536 // 16, "abcdefghijklmno")
carc.on("score-before", function(ev) ev.value = ev.value end)
carc.on("turn-start", function(ev)
  local hoard = {}
  pcall(function() while true do hoard.big = { hoard.big, chunk .. "y" } end end)
  pcall(function() while true do hoard.small = { hoard.small } end end)
  pcall(function() while true do hoard.small = { hoard.small } end end)
  carc.step_begin()
  carc.award(ev.player, 1, reason)
  carc.step_end()
end)
