-- ark.lua: the Ark of The Ark of the Covenant (rules ARK-3, ARK-17 to ARK-20).
--
-- The Ark is a neutral figure of kind "ark" that stands on a tile. It enters
-- play when the first city is completed (occupied or not): after that turn's
-- scoring, the player who completed it puts it on any tile of that city (of
-- any of the cities, if the tile completed several):
--
--     ark-place <x>,<y>
--
-- Placing it scores nobody (option ark.place-bonus: the German edition's 2
-- points). From then on the action decision also offers every move of 1 to
-- ark.max-steps steps, each to an orthogonally adjacent placed tile, never
-- entering a tile already visited during the move (the start tile counts as
-- visited, so a move never ends where it began):
--
--     ark <dir> [<dir> ...]        (N E S W)
--
-- Every follower standing on a segment of a tile the Ark enters (any
-- follower kind: followers, Prophets) earns its owner 1 point, tile by tile in path
-- order, each point its own award (reason "ark"), the whole move one scoring
-- step. ark.temple-bonus (German: 3) pays the mover once per move when the
-- path enters a tile with a temple, right after that tile's points.
-- ark.needs-temple=yes (German): the Ark moves only once a tile with a
-- temple is on the board.
--
-- State (carc.state): fig = the Ark's figure id once placed; temple = a
-- temple tile is on the board; np, p1..p8 = cities completed this turn while
-- the Ark waits, pp = the player who completed them.

local ARK = carc.define_figure("ark", 0, {})
local REASON = carc.define_reason("ark")
carc.option_int("place-bonus", 0, 0, 20, "points for putting the Ark on the board (ARK-17; German edition: 2)")
carc.option_enum("needs-temple", "no yes", "the Ark moves only once a temple is on the board (ARK-20, German edition)")
carc.option_int("temple-bonus", 0, 0, 20, "points once per move whose path enters a temple tile (ARK-20; German edition: 3)")
carc.option_int("max-steps", 5, 1, 8, "most steps of one Ark move (ARK-18)")

local CITY = carc.kind("city")
local OPT_MOVE, OPT_PLACE = 1, 2
local AT_SEGMENT, AT_TILE = carc.AT_SEGMENT, carc.AT_TILE
local MAX_PENDING = 8
local DIRS = { [0] = "N", "E", "S", "W" }
local DX = { [0] = 0, 1, 0, -1 }
local DY = { [0] = -1, 0, 1, 0 }

local function has_temple(t)
  local temple = carc.kind("temple")
  if temple < 0 then return false end
  for s = 0, carc.segments(t) - 1 do
    if carc.segment_kind(t, s) == temple then return true end
  end
  return false
end

local function ark_tile()
  local id = carc.state.fig
  if id == nil then return nil end
  local kind, _, where, tile = carc.figure_fields(id)
  if kind ~= ARK or where ~= AT_TILE then carc.fail("the Ark's figure is missing") end
  return tile
end

carc.game_init(function()
  for t = 0, carc.tiles() - 1 do
    if has_temple(t) then carc.state.temple = true end
  end
end)

carc.on("tile-placed", function(ev)
  if not carc.state.temple and has_temple(ev.tile) then carc.state.temple = true end
end)

-- ARK-17: remember the cities completed while the Ark is not on the board.
carc.on("feature-completed", function(ev)
  local s = carc.state
  if s.fig ~= nil or carc.feature_kind(ev.feature) ~= CITY then return end
  local n = s.np or 0
  if n >= MAX_PENDING then return end
  n = n + 1
  s["p" .. n] = ev.feature
  s.np = n
  s.pp = ev.player
end)

-- After the turn's scoring: the completing player puts the Ark on a tile of
-- one of those cities.
carc.add_phase("ark-place", "after", "score", function(step)
  local s = carc.state
  local n = s.np or 0
  if step > 0 or n == 0 or s.fig ~= nil then
    for i = 1, n do s["p" .. i] = nil end
    s.np = nil
    return "done"
  end
  local seen, tiles = {}, {}
  for i = 1, n do
    for _, ts in ipairs(carc.feature_segments(s["p" .. i])) do
      local t = ts[1]
      if not seen[t] then
        seen[t] = true
        local x, y = carc.tile_pos(t)
        tiles[#tiles + 1] = { t = t, x = x, y = y }
      end
    end
  end
  table.sort(tiles, function(a, b)
    if a.y ~= b.y then return a.y < b.y end
    return a.x < b.x
  end)
  local opts = {}
  for i, e in ipairs(tiles) do opts[i] = { code = OPT_PLACE, tile = e.t, a = e.x, b = e.y } end
  carc.ask(s.pp, "ark-place", opts)
  return "again"
end)

-- ARK-18: every path of 1 to max-steps steps over placed tiles that never
-- enters a visited tile (the start included), in depth-first order N E S W.
-- Positions are keyed x * 4096 + y (coordinates stay far below 2048).
local offer, tile_at = carc.offer, carc.tile_at
local function walk(x, y, depth, code, max, visited, placed)
  for d = 0, 3 do
    local nx, ny = x + DX[d], y + DY[d]
    local k = nx * 4096 + ny
    if not visited[k] then
      local p = placed[k]
      if p == nil then
        p = tile_at(nx, ny) >= 0
        placed[k] = p
      end
      if p then
        local c = code | (d << (2 * depth))
        offer(OPT_MOVE, -1, -1, c, depth + 1) -- as arguments: no table to read back
        if depth + 1 < max then
          visited[k] = true
          walk(nx, ny, depth + 1, c, max, visited, placed)
          visited[k] = nil
        end
      end
    end
  end
end

carc.on("action-offer", function(ev)
  local start = ark_tile()
  if start == nil then return end
  if carc.option("needs-temple") == 1 and not carc.state.temple then return end
  local x0, y0 = carc.tile_pos(start)
  walk(x0, y0, 0, 0, carc.option("max-steps"), { [x0 * 4096 + y0] = true }, {})
end)

carc.format(function(o)
  if o.code == OPT_PLACE then return string.format("ark-place %d,%d", o.a, o.b) end
  if o.code == OPT_MOVE then
    local parts = { "ark" }
    for i = 0, o.b - 1 do parts[#parts + 1] = DIRS[(o.a >> (2 * i)) & 3] end
    return table.concat(parts, " ")
  end
  return "ark?"
end)

local each_figure_on, award = carc.each_figure_on, carc.award

-- Whether figure kind k is a follower (any follower kind: the Prophet, a
-- large follower, ...), by the kind's flags.
local kind_flags, FOLLOWER = carc.figure_kind_flags, carc.FIGURE_FOLLOWER
local function is_follower(k)
  return (kind_flags(k) & FOLLOWER) ~= 0
end
local function move(o, player)
  local start = ark_tile()
  if start == nil then carc.fail("the Ark is not on the board") end
  local bonus = carc.option("temple-bonus")
  local x, y = carc.tile_pos(start)
  local t = start
  carc.step_begin()
  for i = 0, o.b - 1 do
    local d = (o.a >> (2 * i)) & 3
    x, y = x + DX[d], y + DY[d]
    t = carc.tile_at(x, y)
    if t < 0 then carc.fail("the Ark cannot leave the placed tiles") end
    -- the followers on the tile's segments (any follower kind; each figure
    -- one point whatever its strength), in id order (greedy bots try every
    -- move: nothing is built here)
    for _, kind, owner, where in each_figure_on(t) do
      if where == AT_SEGMENT and is_follower(kind) then award(owner, 1, REASON) end
    end
    if bonus > 0 and has_temple(t) then
      carc.award(player, bonus, REASON)
      bonus = 0
    end
  end
  carc.figure_move(carc.state.fig, "tile", t)
  carc.step_end()
end

local function place(o, player)
  if carc.state.fig ~= nil then carc.fail("the Ark is on the board already") end
  carc.state.fig = carc.figure_place(ARK, -1, "tile", o.tile, -1, 0, false)
  local bonus = carc.option("place-bonus")
  if bonus > 0 then
    carc.step_begin()
    carc.award(player, bonus, REASON)
    carc.step_end()
  end
end

carc.apply(function(o, player)
  if o.code == OPT_MOVE then move(o, player)
  elseif o.code == OPT_PLACE then place(o, player)
  else carc.fail("unknown Ark option " .. tostring(o.code)) end
end)
