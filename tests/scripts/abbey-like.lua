-- abbey-like.lua: held tiles from a script (test_placement.c). Each player
-- holds a cloister (base:B) from the start and may place it instead of
-- drawing, but only in a hole: a space with a tile on each of its four
-- sides (the filter vetoes the rest, before anyone sees them).
-- Tile types are known once the tile sets are loaded, after the script:
-- found by name in the game.
carc.reserve_tiles(6)

carc.game_init(function()
  local cloister = carc.tile_type_find("base:B")
  assert(carc.tile_type_name(cloister) == "base:B")
  for p = 0, carc.players() - 1 do carc.give_tile(p, cloister) end
end)

carc.on("place-offer", function(ev)
  if ev.flags & carc.PLACE_BEFORE_DRAW ~= 0 and carc.held_tiles(ev.player) > 0 then
    carc.offer_placements(carc.held_tile(ev.player, 0))
  end
end)

local function in_hole(x, y)
  return carc.tile_at(x, y - 1) >= 0 and carc.tile_at(x + 1, y) >= 0 and carc.tile_at(x, y + 1) >= 0
     and carc.tile_at(x - 1, y) >= 0
end

-- Before the draw only held cloisters are offered (ev.tile is -1); with a
-- drawn tile (a cloister drawn from the pile too) every placement stays.
carc.on("place-filter", function(ev)
  if ev.tile >= 0 then return end
  for i = 0, carc.offered() - 1 do
    local type, x, y = carc.placement_of(i)
    if type and not in_hole(x, y) then carc.veto(i) end
  end
end)
