-- road-closer.lua: a house rule. Whoever places the tile that closes a road
-- scores 1 point per tile of that road (option road-closer.points-per-tile),
-- on top of the road's normal scoring.
carc.option_int("points-per-tile", 1, 0, 10, "points per tile for closing a road")
local reason = carc.define_reason("road-closer")
local ROAD = carc.kind("road")

carc.on("feature-completed", function(ev)
  if carc.feature_kind(ev.feature) == ROAD then
    local points = carc.feature_tiles(ev.feature) * carc.option("points-per-tile")
    if points > 0 then carc.award(ev.player, points, reason, ev.feature) end
  end
end)
