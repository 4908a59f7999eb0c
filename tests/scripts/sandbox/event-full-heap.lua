-- Finding: with the script's memory full, building or reading the next
-- event ran out of memory outside Lua's protection: carc aborted. Every
-- event is kept, and the heap filled to the last bytes after each.
local hoard = { events = {} }
local function fill_big()
  while true do hoard.big = { hoard.big, string.rep("x", 65536) .. "" } end
end
local function fill_small()
  while true do hoard.small = { hoard.small } end
end
local function handler(ev)
  hoard.events[#hoard.events + 1] = ev
  pcall(fill_big)
  pcall(fill_small)
  pcall(fill_small)
end
carc.on("turn-start", handler)
carc.on("tile-drawn", handler)
carc.on("tile-placed", handler)
