-- Finding 7: a score that depends on the order pairs visits string keys in
-- (each turn, a hash of the keys in visiting order, mod 5, as points).
local reason = carc.define_reason("order")
carc.on("turn-start", function(ev)
  local t = {}
  for i = 1, 40 do t["k" .. ((i * 7919 + ev.player * 31) % 1000)] = i end
  local h = 0
  for k, v in pairs(t) do h = (h * 31 + v) % 1000003 end
  carc.step_begin()
  carc.award(ev.player, h % 5, reason)
  carc.step_end()
end)
