-- tower.lua: The Tower (1st edition, 2006), rules TOWER-1 to TOWER-8
-- (docs/tower.md). Its 18 tiles are the tile set `tower` (tiles/tower.ini),
-- each with a tower foundation: the tile mark `tower`.
--
-- Floors are figures of kind `floor` (no follower: they occupy nothing),
-- each player's supply by the number of players (TOWER-1). A tower is the
-- floors standing on a tower tile (CARC_AT_TILE); its height is how many.
-- A follower standing on a tower tile (CARC_AT_TILE) tops the tower: no
-- floor goes on it while it is there (TOWER-3).
--
-- Instead of deploying (the action decision, TOWER-2): `tower-floor X,Y`
-- puts a floor on a foundation or an open tower anywhere on the board;
-- `tower-top X,Y FIGURE` puts a follower on an open tower. After a floor the
-- phase `tower-capture` asks the player which follower within reach to take,
-- or `pass` (TOWER-4): the tower's tile, and as many tiles in each of the
-- four directions as the tower has floors, over empty spaces. Another
-- player's follower goes into the captor's hand (carc.figure_capture: the
-- kernel's held figures, API version 5); one's own goes back to the supply
-- (TOWER-5). Two players holding each other's followers exchange them at
-- once, one for one (TOWER-6). Before drawing, the phase `tower-ransom`
-- lets a player who has 3 points or more pay 3 to a player holding one of
-- his followers to get it back (`ransom HOLDER FIGURE`), once a turn
-- (TOWER-7).
--
-- Game state (carc.state):
--   cap   the tile of the floor just placed, while its capture is asked
--   ft    the follower kinds (bit k for kind k), read once a game
--   top   the kinds that may top a tower (bit k), read once a game

-- 10 a player where the rules give no number (a game of one player).
local FLOOR = carc.define_figure("floor", 10)
-- TOWER-1: floors per player by the number of players.
local FLOORS = { [2] = 10, [3] = 9, [4] = 7, [5] = 6, [6] = 5 }
for players = 2, 6 do carc.set_supply_by_players(FLOOR, players, FLOORS[players]) end
local TOWER = carc.define_tile_mark("tower")
local RANSOM = carc.define_reason("ransom")
local RANSOM_POINTS = 3

local OPT_FLOOR, OPT_TOP, OPT_CAPTURE, OPT_PASS, OPT_RANSOM = 1, 2, 3, 4, 5
local AT_SEGMENT, AT_TILE, AT_HELD = carc.AT_SEGMENT, carc.AT_TILE, carc.AT_HELD
local DX = { 0, 1, 0, -1 }
local DY = { -1, 0, 1, 0 }
local S = carc.state
local each_figure, each_figure_on, figure_fields = carc.each_figure, carc.each_figure_on, carc.figure_fields
local tile_type, type_has_mark, tile_pos, tile_at = carc.tile_type, carc.type_has_mark, carc.tile_pos, carc.tile_at

carc.game_init(function()
  local ft, top = 0, 0
  local road, city, field, cloister = carc.kind("road"), carc.kind("city"), carc.kind("field"), carc.kind("cloister")
  for k = 0, 62 do
    local flags = carc.figure_kind_flags(k)
    if flags < 0 then break end
    if flags & carc.FIGURE_FOLLOWER ~= 0 then
      ft = ft | (1 << k)
      -- A follower that may go anywhere a follower goes (the follower, the
      -- large follower) may top a tower; figures bound to some features
      -- (a mayor, a wagon) may not.
      local stands = carc.figure_kind_stands_on
      if flags & carc.FIGURE_DEPLOYABLE ~= 0 and stands(k, road) and stands(k, city) and stands(k, field)
          and stands(k, cloister) then
        top = top | (1 << k)
      end
    end
  end
  S.ft, S.top = ft, top
end)

local function is_follower(kind) return (S.ft >> kind) & 1 == 1 end

-- A tower tile's height (floors on it) and whether a follower tops it.
local function tower_of(tile)
  local height, topped = 0, false
  for _, kind, owner, where in each_figure_on(tile) do
    if where == AT_TILE then
      if kind == FLOOR then
        height = height + 1
      elseif owner >= 0 and is_follower(kind) then
        topped = true
      end
    end
  end
  return height, topped
end

-- TOWER-2, TOWER-3: the tower actions offered beside the deploys.
carc.on("action-offer", function(ev)
  local player = ev.player
  local floors = carc.supply(player, FLOOR) > 0
  local top = S.top
  for t = 0, carc.tiles() - 1 do
    if type_has_mark(tile_type(t), TOWER) then
      local height, topped = tower_of(t)
      if not topped then
        if floors then carc.offer(OPT_FLOOR, t, -1) end
        if height > 0 then
          for k = 0, 62 do
            if (top >> k) & 1 == 1 and carc.supply(player, k) > 0 then carc.offer(OPT_TOP, t, -1, k) end
            if (top >> k) == 0 then break end
          end
        end
      end
    end
  end
end)

-- TOWER-4: the followers within reach of the tower on `tile`: its own tile,
-- and `height` tiles in each direction, over empty spaces.
local function capture_options(tile)
  local height = tower_of(tile)
  local x, y = tile_pos(tile)
  local tiles = { tile }
  for d = 1, 4 do
    for i = 1, height do
      local t = tile_at(x + DX[d] * i, y + DY[d] * i)
      if t >= 0 then tiles[#tiles + 1] = t end
    end
  end
  local options = {}
  for _, t in ipairs(tiles) do
    for id, kind, owner, where, _, seg in each_figure_on(t) do
      if owner >= 0 and is_follower(kind) and (where == AT_SEGMENT or where == AT_TILE) then
        options[#options + 1] = { code = OPT_CAPTURE, tile = t, seg = where == AT_SEGMENT and seg or -1,
                                  a = id, b = owner, c = kind }
      end
    end
  end
  return options
end

carc.add_phase("tower-capture", "after", "action", function(call)
  if call > 0 then
    S.cap = nil
    return "done"
  end
  local options = capture_options(S.cap)
  if #options == 0 then
    S.cap = nil
    return "done"
  end
  options[#options + 1] = { code = OPT_PASS }
  carc.ask(carc.active_player(), "capture", options)
  return "again"
end, "cap")

-- TOWER-6: while a holds one of b's followers and b one of a's, one of each
-- goes home (the lowest figure ids: the rules leave the choice open).
local function exchange(a, b)
  while true do
    local fa, fb
    for id, _, _, _, _, _, holder in carc.each_figure(b, "held") do
      if holder == a then fa = id break end
    end
    for id, _, _, _, _, _, holder in carc.each_figure(a, "held") do
      if holder == b then fb = id break end
    end
    if not (fa and fb) then return end
    carc.figure_free(fa)                     -- back to b's supply: figure-freed
    carc.figure_free(fb)
  end
end

-- TOWER-7: once a turn, before drawing, a player with at least 3 points
-- may buy back one of his followers from the player holding it.
carc.add_phase("tower-ransom", "before", "draw", function(call)
  if call > 0 or carc.in_extra_turn() then return "done" end
  local player = carc.active_player()
  if carc.score(player) < RANSOM_POINTS then return "done" end
  local options, seen = {}, {}
  for _, kind, _, _, _, _, holder in each_figure(player, AT_HELD) do
    local key = holder * 64 + kind
    if not seen[key] then
      seen[key] = true
      options[#options + 1] = { code = OPT_RANSOM, a = holder, b = kind }
    end
  end
  if #options == 0 then return "done" end
  table.sort(options, function(p, q) return p.a * 64 + p.b < q.a * 64 + q.b end)
  options[#options + 1] = { code = OPT_PASS }
  carc.ask(player, "ransom", options)
  return "again"
end)

carc.format(function(opt)
  local code = opt.code
  if code == OPT_PASS then return "pass" end
  if code == OPT_RANSOM then
    return string.format("ransom %s %s", carc.player_name(opt.a), carc.figure_kind_name(opt.b))
  end
  local x, y = tile_pos(opt.tile)
  if code == OPT_FLOOR then return string.format("tower-floor %d,%d", x, y) end
  if code == OPT_TOP then return string.format("tower-top %d,%d %s", x, y, carc.figure_kind_name(opt.a)) end
  if code == OPT_CAPTURE then
    local place = opt.seg >= 0 and carc.segment_name(opt.tile, opt.seg) or "tower"
    return string.format("capture %d,%d %s %s %s", x, y, carc.player_name(opt.b), carc.figure_kind_name(opt.c), place)
  end
  return "tower?"
end)

carc.apply(function(opt, player)
  local code = opt.code
  if code == OPT_FLOOR then
    carc.figure_place(FLOOR, player, "tile", opt.tile, -1, 0, true)
    S.cap = opt.tile
  elseif code == OPT_TOP then
    carc.figure_place(opt.a, player, "tile", opt.tile, -1, 0, true)
  elseif code == OPT_CAPTURE then
    local kind, owner, where, tile = figure_fields(opt.a)
    if kind ~= opt.c or owner ~= opt.b or tile ~= opt.tile or (where ~= AT_SEGMENT and where ~= AT_TILE) then
      error("tower: the follower to capture is not there")
    end
    if owner == player then
      carc.figure_remove(opt.a, "supply")        -- one's own goes home (TOWER-5)
    else
      carc.figure_capture(opt.a, player)         -- a prisoner: figure-captured
      exchange(player, owner)                    -- TOWER-6
    end
  elseif code == OPT_RANSOM then
    local fig
    for id, kind, _, _, _, _, holder in each_figure(player, AT_HELD) do
      if holder == opt.a and kind == opt.b then fig = id break end
    end
    if not fig then error("tower: no such prisoner") end
    carc.figure_free(fig)
    carc.step_begin()
    carc.award(player, -RANSOM_POINTS, RANSOM, -1, carc.AWARD_UNROBBABLE)
    carc.award(opt.a, RANSOM_POINTS, RANSOM, -1, carc.AWARD_UNROBBABLE)
    carc.step_end()
  end
end)
