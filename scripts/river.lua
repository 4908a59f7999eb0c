-- river.lua: The River (the first river, 2001), rules RIVER-1 to RIVER-5
-- (docs/river.md). Its 12 tiles are the tile set `river` (tiles/river.ini),
-- whose [set] puts the spring first (start = A), the river's tiles before
-- every other tile (pile = first) and the lake last of them (last = L).
--
-- The river is a kind of its own (edge letter V in the tile set): a line
-- through the middle of an edge that is never complete, never scored, and
-- not deployable, so no follower is ever offered a place on it (RIVER-4).
-- A river edge fits only a river edge (the kernel's edge check).
--
-- Placement is shaped by vetoes in place-filter, before anyone sees the
-- options: a river tile goes only into the space the river flows into, with
-- its upstream edge facing the river (RIVER-2), and never makes a second
-- turn in the same direction right after a turn (RIVER-3). No other tile
-- may take that space while the river is open, and none may be placed at
-- all while river tiles are still to be drawn (RIVER-1).
--
-- Game state (carc.state):
--   open    true while the river has an open end (from the spring to the lake)
--   ex, ey  the space the river flows into
--   dir     the direction it flows in there (0 N, 1 E, 2 S, 3 W)
--   turn    the last river tile's turn: 0 none, 1 right, 3 left
--   river_drawn  true once no river tile is left to draw

local RIVER = carc.define_kind("river", "never", { line = true })
local S = carc.state

-- The river's edges of each tile of the set, unrotated (0 N, 1 E, 2 S, 3 W),
-- checked against the placed tile's own segments every time one is placed.
local RIVER_EDGES = {
  A = { 2 }, B = { 1, 3 }, C = { 1, 3 }, D = { 0, 2 }, E = { 2, 3 },
  G = { 0, 1 }, H = { 1, 3 }, I = { 2, 3 }, K = { 1, 3 }, L = { 0 },
}
local MIDDLE_PORT = { [0] = 1, 4, 7, 10 }
local DX = { [0] = 0, 1, 0, -1 }
local DY = { [0] = -1, 0, 1, 0 }

-- The board edges of a river tile type at a rotation, or nil for another tile.
local function river_edges(type, rot)
  local name = carc.tile_type_name(type)
  local id = name and name:match("^river:(.+)$")
  local own = id and RIVER_EDGES[id]
  if not own then return nil end
  local edges = {}
  for i, d in ipairs(own) do edges[i] = (d + rot) % 4 end
  return edges
end

-- Where a tile entered at the open end leaves it: its exit edge (nil for the
-- lake) and its turn, or nil when no edge of it faces the river upstream.
local function flow_through(edges)
  local back = (S.dir + 2) % 4
  local entered, exit = false, nil
  for _, d in ipairs(edges) do
    if d == back then entered = true else exit = d end
  end
  if not entered then return nil end
  return true, exit, exit and (exit - S.dir) % 4 or 0
end

carc.game_init(function()
  S.open = false
  local t = 0
  local x, y, rot = carc.tile_pos(t)
  local edges = river_edges(carc.tile_type(t), rot)
  if edges and #edges == 1 then
    S.open, S.dir, S.turn = true, edges[1], 0
    S.ex, S.ey = x + DX[edges[1]], y + DY[edges[1]]
  end
end)

carc.on("tile-placed", function(ev)
  local x, y, rot = carc.tile_pos(ev.tile)
  local edges = river_edges(carc.tile_type(ev.tile), rot)
  if not edges then return end
  local is_river = {}
  for _, d in ipairs(edges) do is_river[d] = true end
  for d = 0, 3 do
    local seg = carc.segment_at_port(ev.tile, MIDDLE_PORT[d])
    if (carc.segment_kind(ev.tile, seg) == RIVER) ~= (is_river[d] == true) then
      carc.fail("river.lua: the river's edges of " .. carc.tile_type_name(carc.tile_type(ev.tile))
        .. " disagree with its tile set")
    end
  end
  if not (S.open and x == S.ex and y == S.ey) then return end
  local _, exit, turn = flow_through(edges)
  if exit then
    S.dir, S.turn, S.ex, S.ey = exit, turn, x + DX[exit], y + DY[exit]
  else
    S.open = false
  end
end)

-- True while river tiles are still to be drawn: then no other tile may be
-- placed (RIVER-1), not even one a player holds outside the pile (the
-- abbey of Abbey & Mayor, RIVER-5).
local function river_still_to_draw()
  for id in pairs(RIVER_EDGES) do
    local type = carc.tile_type_find("river:" .. id)
    if type and carc.pile_count(type) > 0 then return true end
  end
  return false
end

carc.on("place-filter", function(ev)
  local river_first = nil
  for i = 0, carc.offered() - 1 do
    local type, x, y, rot = carc.placement_of(i)
    if type then
      local edges = river_edges(type, rot)
      local at_end = S.open and x == S.ex and y == S.ey
      if edges then
        local entered, _, turn = false, nil, 0
        if at_end then entered, _, turn = flow_through(edges) end
        if not entered or (turn ~= 0 and turn == S.turn) then carc.veto(i) end
      elseif at_end then
        carc.veto(i)
      elseif not S.river_drawn then
        -- Once every river tile is drawn none comes back into the pile (only
        -- a drawn tile is put back), so the pile is read no more.
        if river_first == nil then
          river_first = river_still_to_draw()
          if not river_first then S.river_drawn = true end
        end
        if river_first then carc.veto(i) end
      end
    end
  end
end)
