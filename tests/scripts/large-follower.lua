-- large-follower.lua: a test fixture (docs/lua-guide.md, "Figures and
-- strength"): the large follower of Inns & Cathedrals as data. One per
-- player; a follower of strength 2 that the kernel deploys like any
-- follower (on the placed tile, through the magic portal), on every kind a
-- follower may stand on.
carc.define_figure("large-follower", 1, { follower = true, deployable = true, strength = 2 })
