-- strength.lua: the Lua twin of tests/plugins/strength (test_strength.c):
-- floors by number of players, a mayor of strength 0 given one a pennant,
-- the majority asked every turn without scoring (it must score nothing).
local FLOORS = {[2] = 10, [3] = 9, [4] = 7, [5] = 6, [6] = 5}
local floor = carc.define_figure("floor", 0)
for n, count in pairs(FLOORS) do carc.set_supply_by_players(floor, n, count) end
local MAYOR = carc.define_figure("mayor", 1, {follower = true, deployable = true, strength_zero = true,
                                              stands_on = "city"})
local CITY = carc.kind("city")
local PENNANT = carc.mark("pennant")

carc.on("feature-majority", function(ev)
  if carc.feature_kind(ev.feature) ~= CITY then return end
  local pennants = carc.feature_marks(ev.feature, PENNANT)
  for f = 0, carc.figures() - 1 do
    local fig = carc.figure(f)
    if fig and fig.where == carc.AT_SEGMENT and fig.kind == MAYOR
       and carc.feature(fig.tile, fig.seg) == ev.feature then
      carc.set_majority_strength(fig.owner, carc.majority_strength(fig.owner) + pennants)
    end
  end
end)

carc.add_phase("strength-probe", "after", "score", function()
  local t = carc.placed_tile()
  if t < 0 then return end
  for s = 0, carc.segments(t) - 1 do
    if carc.segment_kind(t, s) == CITY then
      local best, strengths = carc.feature_majority(carc.feature(t, s))
      assert(best >= 0 and #strengths == carc.players())
      return
    end
  end
end)
