-- A phase that needs the turn's tile to bear the bag mark
-- (carc.phase_needs_tile_mark; tests/test_plugins.c): it fails the game if
-- it is ever called on another turn, and the game's end checks that it ran
-- on every turn whose tile has a bag, and that there were such turns.
local S = carc.state
local BAG = carc.define_tile_mark("bag")

local function bag_tile(t) return t >= 0 and carc.type_has_mark(carc.tile_type(t), BAG) end

carc.add_phase("bag-count", "after", "place", function(step)
  if not bag_tile(carc.placed_tile()) then carc.fail("bag-count called on a turn without a bag") end
  S.calls = (S.calls or 0) + 1
  return "done"
end)
carc.phase_needs_tile_mark("bag-count", BAG)

-- Before the draw no turn has a tile yet: never called.
carc.add_phase("bag-early", "before", "draw", function(step)
  carc.fail("bag-early called before the tile was drawn")
end)
carc.phase_needs_tile_mark("bag-early", BAG)

carc.on("tile-placed", function(ev)
  if bag_tile(ev.tile) then S.bags = (S.bags or 0) + 1 end
end)

carc.on("game-end", function(ev)
  if (S.bags or 0) == 0 then carc.fail("no bag tile was placed") end
  if S.calls ~= S.bags then carc.fail(string.format("bag-count ran %s times for %d bag tiles", S.calls, S.bags)) end
end)
