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
-- the Ark waits, pp = the player who completed them. Read once when the game
-- is set up (answers of the rules, the same all game long, so the handlers
-- read one state entry instead of asking): tk = the temple kind (nil: these
-- rules have none), fk = the follower figure kinds as a bit mask, ms =
-- ark.max-steps, nt = ark.needs-temple is yes, tb = ark.temple-bonus.


local ARK = carc.define_figure("ark", 0, {})
local REASON = carc.define_reason("ark")
carc.option_int("place-bonus", 0, 0, 20, "points for putting the Ark on the board (ARK-17; German edition: 2)")
carc.option_enum("needs-temple", "no yes", "the Ark moves only once a temple is on the board (ARK-20, German edition)")
carc.option_int("temple-bonus", 0, 0, 20, "points once per move whose path enters a temple tile (ARK-20; German edition: 3)")
carc.option_int("max-steps", 5, 1, 8, "most steps of one Ark move (ARK-18)")

local CITY = carc.kind("city")
local OPT_MOVE, OPT_PLACE = 1, 2
local AT_SEGMENT, AT_TILE, FOLLOWER = carc.AT_SEGMENT, carc.AT_TILE, carc.FIGURE_FOLLOWER
local MAX_PENDING = 8
local S = carc.state
local offer_walks, offer_figure_walks = carc.offer_walks, carc.offer_figure_walks
local tile_at, tile_pos, award = carc.tile_at, carc.tile_pos, carc.award
local award_figures_on = carc.award_figures_on
-- The calls of the hot paths (the greedy bot runs `apply` for every move),
-- in locals: a read of the carc table (frozen once the script has loaded)
-- costs more than a local's.
local segments, segment_kind, figure_fields, feature_kind = carc.segments, carc.segment_kind, carc.figure_fields,
  carc.feature_kind
local step_begin, step_end, figure_move = carc.step_begin, carc.step_end, carc.figure_move

-- Whether tile t has a segment of the temple kind tk.
local function has_temple(t, tk)
  for s = 0, segments(t) - 1 do
    if segment_kind(t, s) == tk then return true end
  end
  return false
end

-- The Ark's tile and figure id, or nil before it is placed.
local function ark_tile()
  local id = S.fig
  if id == nil then return nil end
  local kind, _, where, tile = figure_fields(id)
  if kind ~= ARK or where ~= AT_TILE then carc.fail("the Ark's figure is missing") end
  return tile, id
end

carc.game_init(function()
  local tk = carc.kind("temple")
  if tk >= 0 then
    S.tk = tk
    for t = 0, carc.tiles() - 1 do
      if has_temple(t, tk) then S.temple = true end
    end
  end
  local fk = 0
  for k = 0, 62 do
    local flags = carc.figure_kind_flags(k)
    if flags < 0 then break end
    if flags & FOLLOWER ~= 0 then fk = fk | (1 << k) end
  end
  S.fk = fk
  S.ms = carc.option("max-steps")
  S.nt = carc.option("needs-temple") == 1
  S.tb = carc.option("temple-bonus")
end)

carc.on("tile-placed", function(ev)
  local tk = S.tk
  if tk ~= nil and not S.temple and has_temple(ev.tile, tk) then S.temple = true end
end)

-- ARK-17: remember the cities completed while the Ark is not on the board.
carc.on("feature-completed", function(ev)
  if S.fig ~= nil or feature_kind(ev.feature) ~= CITY then return end
  local n = S.np or 0
  if n >= MAX_PENDING then return end
  n = n + 1
  S["p" .. n] = ev.feature
  S.np = n
  S.pp = ev.player
end)

-- After the turn's scoring: the completing player puts the Ark on a tile of
-- one of those cities. The phase runs only while a city waits (state key np):
-- on most turns carc moves past it without calling it.
carc.add_phase("ark-place", "after", "score", function(step)
  local n = S.np
  if step > 0 or S.fig ~= nil then
    for i = 1, n do S["p" .. i] = nil end
    S.np = nil
    return "done"
  end
  local seen, tiles = {}, {}
  for i = 1, n do
    for _, ts in ipairs(carc.feature_segments(S["p" .. i])) do
      local t = ts[1]
      if not seen[t] then
        seen[t] = true
        local x, y = tile_pos(t)
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
  carc.ask(S.pp, "ark-place", opts)
  return "again"
end, "np")

-- ARK-18: every path of 1 to max-steps steps over placed tiles that never
-- enters a visited tile (the start included), in depth-first order N E S W:
-- carc offers each as an option {code, a = the steps, 2 bits each with the
-- first lowest, b = their number}, walked by the kernel (a few hundred a
-- turn: written here in Lua, the walk was most of an Ark game). Without a
-- temple bonus a move is ARK-19's points and the Ark's step, which carc
-- applies itself (carc.offer_figure_walks: the greedy bot tries every move
-- after every placement, and moves that pay the same players and end on
-- the same tile are tried once); with the bonus, `move` below applies it.
carc.on("action-offer", function(ev) -- only once the Ark is on the board (state key fig)
  local start, id = ark_tile()
  if S.nt and not S.temple then return end
  if S.tb == 0 then
    local fk = S.fk
    offer_figure_walks(id, S.ms, OPT_MOVE, fk, fk ~= 0 and 1 or 0, REASON)
  else
    offer_walks(start, S.ms, OPT_MOVE)
  end
end, "fig")

-- A move's text is made each time a game first offers that path (its
-- decisions are checked for texts one line could choose: decision.c), a
-- thousand times a game: by concatenation of constants, without a table,
-- its frozen reads or table.concat, it costs a quarter of what it did.
carc.format(function(o)
  local code = o.code
  if code == OPT_MOVE then
    local s, path = "ark", o.a
    for _ = 1, o.b do
      local d = path & 3
      path = path >> 2
      if d == 0 then s = s .. " N" elseif d == 1 then s = s .. " E" elseif d == 2 then s = s .. " S" else s = s .. " W" end
    end
    return s
  end
  if code == OPT_PLACE then return string.format("ark-place %d,%d", o.a, o.b) end
  return "ark?"
end)

-- ARK-19 (with ark.temple-bonus; without it carc applies the same move):
-- one point per follower (any follower kind, each figure one point
-- whatever its strength) on the segments of each tile entered, tile by tile
-- in path order, figures in id order (carc.award_figures_on, one call a
-- tile); the whole move one scoring step. The greedy bot tries every move:
-- nothing is built here, and the rules' answers come from the state read
-- once a move.
local function move(o, player)
  local start, id = ark_tile()
  if start == nil then carc.fail("the Ark is not on the board") end
  local bonus, fk = S.tb, S.fk
  local tk = bonus > 0 and S.tk or nil -- the temple matters only with a bonus
  local x, y = tile_pos(start)
  local t = start
  local path = o.a
  step_begin()
  for _ = 1, o.b do
    local d = path & 3
    path = path >> 2
    -- N E S W (0 to 3) by arithmetic: a read of a table made at load time
    -- (frozen) goes through a metamethod, several hundred instructions
    if d & 1 == 0 then y = y + d - 1 else x = x + 2 - d end
    t = tile_at(x, y)
    if t < 0 then carc.fail("the Ark cannot leave the placed tiles") end
    if fk ~= 0 then award_figures_on(t, AT_SEGMENT, fk, 1, REASON) end -- (a mask of 0 is every kind)
    if bonus > 0 and tk ~= nil and has_temple(t, tk) then
      award(player, bonus, REASON)
      bonus = 0
    end
  end
  figure_move(id, AT_TILE, t)
  step_end()
end

local function place(o, player)
  if S.fig ~= nil then carc.fail("the Ark is on the board already") end
  S.fig = carc.figure_place(ARK, -1, AT_TILE, o.tile, -1, 0, false)
  local bonus = carc.option("place-bonus")
  if bonus > 0 then
    step_begin()
    award(player, bonus, REASON)
    step_end()
  end
end

carc.apply(function(o, player)
  if o.code == OPT_MOVE then move(o, player)
  elseif o.code == OPT_PLACE then place(o, player)
  else carc.fail("unknown Ark option " .. tostring(o.code)) end
end)
