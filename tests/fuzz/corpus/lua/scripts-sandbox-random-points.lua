-- Awards math.random(1, 6) points at every turn start: the game's seed
-- decides them.
local reason = carc.define_reason("dice")
carc.on("turn-start", function(ev)
  carc.step_begin()
  carc.award(ev.player, math.random(1, 6), reason)
  carc.step_end()
end)
