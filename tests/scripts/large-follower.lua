-- large-follower.lua: a test fixture (docs/lua-guide.md, "Figures and
-- strength"): the large follower of Inns & Cathedrals as data. One per
-- player; a follower of strength 2 that the kernel deploys like any
-- follower (on the placed tile, through the magic portal), on every kind a
-- follower may stand on.
carc.define_figure("large-follower", 1, { follower = true, deployable = true, strength = 2 })

-- Every majority: the strengths given are the sums feature_strength reports
-- (docs/lua-guide.md, "Figures and strength").
carc.on("feature-majority", function(ev)
  for p = 0, carc.players() - 1 do
    if carc.majority_strength(p) ~= carc.feature_strength(ev.feature, p) then carc.fail("strengths differ") end
  end
end)
