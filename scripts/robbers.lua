-- robbers.lua: The Robbers (mini expansion #6, 2nd edition), rules ROB-1 to
-- ROB-15 (docs/robbers.md). Plays with any variant; its bag tiles are the
-- tile set `robbers` (tiles/robbers.ini).
--
-- Each player has one robber. Robbers stand on the score track (figures at
-- "track", space = score modulo 50). After a bag tile is placed, players may
-- put or move their robber on a space holding another player's marker
-- (`robber <space>` or `pass`). When a marker leaves a robber's space because
-- its owner scores, the robber steals half of those points, rounded up, and
-- goes back to its owner's supply.
--
-- How a scoring step is handled: every award that lands is looked at
-- (score-after). A robber whose space the award's marker leaves notes that
-- player and the points as a candidate (only the player's first award of the
-- step: ROB-7, ROB-15). When the step ends (score-step-end) each robber with
-- one candidate steals from it; a robber with several (ROB-9) asks its owner
-- `rob <player>`. The stolen points land after the step's other awards, in
-- seat order from the active player, and cannot be robbed (ROB-8): robbers
-- waiting on the robbing player's space move along with the marker instead,
-- as they do when a marker moves backwards (ROB-13).
--
-- Game state (carc.state), p and v are seats 0-5:
--   t      bit mask of the seats whose robber is on the track
--   r<p>   figure id of p's robber while it is on the track
--   c<p>   bit mask of the players p's robber may rob in the current step
--   x<p><v> the points of v's first award of the step that left p's space
--   w<p>   true while p is asked whom to rob (ROB-9)
--   s<p>   points p's robber steals, waiting to land
--   cs     the scoring step the candidates belong to

carc.option_enum("placement", "next-without-robber every-player before-tile",
  "who may place a robber after a bag tile (ROB-2, ROB-3)")
carc.option_int("end-bonus", 3, 0, 100, "points for each robber still on the track at the end (ROB-14)")

local ROBBER = carc.define_figure("robber", 1, {})
local BAG = carc.define_tile_mark("bag")
local ROBBED = carc.define_reason("robber")
local BONUS = carc.define_reason("robber-bonus")

local OPT_ROBBER, OPT_PASS, OPT_ROB = 1, 2, 3
local NEXT_WITHOUT, EVERY_PLAYER, BEFORE_TILE = 0, 1, 2
local AT_TRACK = carc.AT_TRACK
local UNROBBABLE, FINAL, BONUS_AWARD = carc.AWARD_UNROBBABLE, carc.AWARD_FINAL, carc.AWARD_BONUS
local TRACK = 50

local S = carc.state
-- The calls of the hot paths (every award is looked at), in locals: a read
-- of a global or of the carc table (both frozen once the script has
-- loaded) costs several hundred instructions, a local's one.
local players, score, active_player, option = carc.players, carc.score, carc.active_player, carc.option
local figure_fields, figure_move, figure_remove, figure_place = carc.figure_fields, carc.figure_move,
  carc.figure_remove, carc.figure_place
local ask, award, batch_count, batch_at = carc.ask, carc.award, carc.batch_count, carc.batch_at
local ipairs, tostring, concat, insert = ipairs, tostring, table.concat, table.insert

-- State keys by seat, built once (constants, not state).
local KR, KC, KW, KS, KX = {}, {}, {}, {}, {}
for p = 0, 5 do
  KR[p], KC[p], KW[p], KS[p], KX[p] = "r" .. p, "c" .. p, "w" .. p, "s" .. p, {}
  for v = 0, 5 do KX[p][v] = "x" .. p .. v end
end

local function on_track(p, f)
  S[KR[p]] = f
  S.t = (S.t or 0) | (1 << p)
end

local function off_track(p)
  S[KR[p]] = nil
  local t = (S.t or 0) & ~(1 << p)
  S.t = t ~= 0 and t or nil
end

-- The figure id and space of p's robber, or nil when it is in the supply.
local function robber_of(p, mask)
  if ((mask or S.t or 0) >> p) & 1 == 0 then return nil end
  local f = S[KR[p]]
  if f then
    local kind, owner, where, _, _, space = figure_fields(f) -- as values: no table
    if kind == ROBBER and owner == p and where == AT_TRACK then return f, space end
  end
  off_track(p) -- taken off the track by someone else
  return nil
end

-- Removes p's robber from the track to its owner's supply.
local function to_supply(p)
  local f = robber_of(p)
  if f then figure_remove(f) end
  off_track(p)
end

local placed_tile = carc.placed_tile

local resolve -- below: turns a step's candidates into thefts

-- ROB-2: the spaces holding at least one other player's marker; a robber
-- already on the track may only move to a different one.
local function ask_placement(p)
  if S.cs ~= nil then resolve(true) end -- a step that never ended robs first
  local _, current = robber_of(p)
  -- The spaces in increasing order, each once: at most 5 of them, put in
  -- place as they come (no table.sort).
  local spaces, n = {}, 0
  for q = 0, players() - 1 do
    local s = score(q) % TRACK
    if q ~= p and s ~= current then
      local i = n
      while i > 0 and spaces[i] > s do i = i - 1 end
      if i == 0 or spaces[i] ~= s then
        for j = n, i + 1, -1 do spaces[j + 1] = spaces[j] end
        spaces[i + 1] = s
        n = n + 1
      end
    end
  end
  local opts = {}
  for i = 1, n do opts[i] = { code = OPT_ROBBER, a = spaces[i], track = spaces[i] } end
  opts[n + 1] = { code = OPT_PASS }
  ask(p, "robber", opts)
end

-- ROB-3: the next player to the left of the active one without a robber on
-- the track, or nil.
local function next_without_robber(active, n)
  for k = 1, n - 1 do
    local q = (active + k) % n
    if not robber_of(q) then return q end
  end
  return nil
end

-- After drawing a bag tile (robbers.placement=before-tile): every player from
-- the active one, before the tile is placed.
carc.add_phase("robbers-before-tile", "after", "draw", function(step)
  if option("placement") ~= BEFORE_TILE then return "done" end
  local n = players()
  if step >= n then return "done" end
  ask_placement((active_player() + step) % n)
  return "again"
end)
-- Called only on turns whose tile has a bag (the kernel skips the others).
carc.phase_needs_tile_mark("robbers-before-tile", BAG)

-- After a bag tile is placed: the active player, then the ROB-3 player (or,
-- with every-player, every other player in turn order).
carc.add_phase("robbers-after-tile", "after", "place", function(step)
  if placed_tile() < 0 then return "done" end -- no tile placed: the kernel looked at the drawn one
  local mode = option("placement")
  if mode == BEFORE_TILE then return "done" end
  local n, active = players(), active_player()
  if step == 0 then
    ask_placement(active)
    return "again"
  end
  if mode == EVERY_PLAYER then
    if step >= n then return "done" end
    ask_placement((active + step) % n)
    return "again"
  end
  if step == 1 then
    local q = next_without_robber(active, n)
    if q then
      ask_placement(q)
      return "again"
    end
  end
  return "done"
end)
carc.phase_needs_tile_mark("robbers-after-tile", BAG)

-- ---- stealing ----------------------------------------------------------------

local function half_up(points) return (points + 1) // 2 end

local function has_bit(mask, v) return (mask >> v) & 1 == 1 end

-- Seats in order from the active player.
local function seats_from_active()
  local n, first = players(), active_player()
  if first < 0 then first = 0 end
  local order = {}
  for k = 0, n - 1 do order[k + 1] = (first + k) % n end
  return order
end

-- Every robber that has stolen leaves the track, then the stolen points land,
-- unless an owner is still being asked whom to rob.
local function land()
  local order = seats_from_active()
  for _, o in ipairs(order) do
    if S[KW[o]] then return end
  end
  local stolen = {}
  for _, o in ipairs(order) do
    local pts = S[KS[o]]
    if pts then
      S[KS[o]] = nil
      to_supply(o)
      stolen[#stolen + 1] = { o, pts }
    end
  end
  for _, e in ipairs(stolen) do
    if e[2] > 0 then award(e[1], e[2], ROBBED, -1, UNROBBABLE) end
  end
end

-- Clears o's candidates and returns the points of v's award.
local function take_candidate(o, v)
  local pts = v and S[KX[o][v]] or 0
  for q = 0, players() - 1 do S[KX[o][q]] = nil end
  S[KC[o]] = nil
  return pts
end

-- Turns the candidates of the step into thefts. With can_ask, a robber with
-- several candidates asks its owner (ROB-9); without (a fallback at the end of
-- the game, when no decision can follow), it robs the first in seat order.
function resolve(can_ask)
  S.cs = nil
  local order = seats_from_active()
  for _, o in ipairs(order) do
    local mask = S[KC[o]]
    if mask and (not S[KW[o]] or not can_ask) then
      local victims = {}
      for _, v in ipairs(order) do
        if has_bit(mask, v) then victims[#victims + 1] = v end
      end
      if #victims == 1 or not can_ask then
        S[KW[o]] = nil
        S[KS[o]] = half_up(take_candidate(o, victims[1]))
      else
        local opts = {}
        for i, v in ipairs(victims) do opts[i] = { code = OPT_ROB, a = v } end
        S[KW[o]] = true
        ask(o, "rob", opts)
      end
    end
  end
  land()
end

-- A robber takes part in a step from its first candidate until it has stolen.
local function busy(o)
  return S[KC[o]] ~= nil or S[KS[o]] ~= nil or S[KW[o]] ~= nil
end

-- Called only while a robber is on the track (state key t): while none is,
-- carc passes the award by without calling into the script.
carc.on("score-after", function(ev)
  local track = S.t
  local a = ev.award
  if a.points == 0 then return end
  local cs = S.cs
  if cs ~= nil and cs ~= a.step then -- candidates of a step that never ended
    resolve(true)
    track = S.t
    if track == nil then return end
  end
  local p = a.player
  local after = score(p)
  local from = (after - a.points) % TRACK
  local robbable = a.points > 0 and (a.flags & UNROBBABLE) == 0
  for o = 0, players() - 1 do
    if o ~= p then -- ROB-11
      local f, space = robber_of(o, track)
      if f and space == from then
        if robbable then
          local mask = S[KC[o]] or 0
          if S[KS[o]] == nil and S[KW[o]] == nil and not has_bit(mask, p) then
            S[KC[o]] = mask | (1 << p) -- ROB-6, ROB-7, ROB-10
            S[KX[o][p]] = a.points
            S.cs = a.step
          end
        elseif not busy(o) then
          figure_move(f, "track", -1, -1, after % TRACK) -- ROB-8, ROB-13
        end
      end
    end
  end
end, "t")

-- ROB-15: a player who has several awards left in this step chooses their
-- order when the order can change what robbers take. The awards left are in
-- the batch in landing order: each main award with the bonuses of its own
-- feature after it (they move with it), then the player's bonuses on
-- features they won nothing in (a fairy beside a lost city): those land
-- after the feature's last award, another player's, so after every award
-- the player orders, whatever the order. Every order of the main awards is
-- tried against the robbers waiting: the marker moves award by award from
-- the player's score, those fixed bonuses last, and the first robbable
-- award that leaves a robber's space is what that robber takes. More than
-- one outcome: ask (value 1). With more than 6 awards every order is not
-- tried: the player is asked.
local function each_order(groups, n, fn)
  if n <= 1 then return fn(groups) end
  for i = 1, n do
    groups[i], groups[n] = groups[n], groups[i]
    if each_order(groups, n - 1, fn) then return true end
    groups[i], groups[n] = groups[n], groups[i]
  end
  return false
end

carc.on("award-order", function(ev) -- only while a robber is on the track (state key t)
  local track = S.t
  local p = ev.player
  local robbers = {}
  for o = 0, players() - 1 do
    if o ~= p then -- ROB-11
      local f, space = robber_of(o, track)
      if f and S[KS[o]] == nil and S[KW[o]] == nil and not has_bit(S[KC[o]] or 0, p) then
        robbers[#robbers + 1] = { o = o, space = space }
      end
    end
  end
  if #robbers == 0 then return end
  local groups, fixed = {}, {}
  for i = 0, batch_count() - 1 do
    local a = batch_at(i)
    if (a.flags & BONUS_AWARD) == 0 then groups[#groups + 1] = { a }
    elseif #groups > 0 and groups[#groups][1].feature == a.feature then insert(groups[#groups], a)
    else fixed[#fixed + 1] = a end
  end
  if #groups < 2 then return end
  if #groups > 6 then
    ev.value = 1
    return
  end
  local start, first = score(p), nil
  local pos, take
  local function land(a)
    if a.points > 0 and (a.flags & UNROBBABLE) == 0 then
      local from = pos % TRACK
      for _, r in ipairs(robbers) do
        if take[r.o] == nil and r.space == from then take[r.o] = half_up(a.points) end
      end
    end
    pos = pos + a.points
  end
  each_order(groups, #groups, function(order)
    pos, take = start, {}
    for _, g in ipairs(order) do
      for _, a in ipairs(g) do land(a) end
    end
    for _, a in ipairs(fixed) do land(a) end
    local parts = {}
    for _, r in ipairs(robbers) do parts[#parts + 1] = tostring(take[r.o] or 0) end
    local key = concat(parts, ",")
    if first == nil then first = key
    elseif key ~= first then
      ev.value = 1
      return true -- two outcomes: the order matters
    end
    return false
  end)
end, "t")

-- Called only when the step has candidates (state key cs): most steps have
-- none, and carc moves past them without a call into the script.
carc.on("score-step-end", function(ev)
  resolve(true)
end, "cs")

-- ROB-14: before final scoring every robber leaves the track and its owner
-- scores the end bonus, in seat order from the active player.
carc.on("game-end", function(ev)
  resolve(false) -- only a step that never ended leaves candidates here
  local had = {}
  for o = 0, carc.players() - 1 do
    if robber_of(o) then
      to_supply(o)
      had[o] = true
    end
  end
  local bonus = carc.option("end-bonus")
  if bonus > 0 and next(had) ~= nil then
    carc.step_begin()
    for _, o in ipairs(seats_from_active()) do
      if had[o] then carc.award(o, bonus, BONUS, -1, UNROBBABLE | FINAL) end
    end
    carc.step_end()
  end
end)

-- ---- options -----------------------------------------------------------------

carc.format(function(opt)
  if opt.code == OPT_ROBBER then return "robber " .. opt.a end
  if opt.code == OPT_PASS then return "pass" end
  if opt.code == OPT_ROB then return "rob " .. carc.player_name(opt.a) end
  return "robbers?"
end)

carc.apply(function(opt, player)
  if opt.code == OPT_ROBBER then
    local f = robber_of(player)
    if f then
      figure_move(f, "track", -1, -1, opt.a)
    else
      on_track(player, figure_place(ROBBER, player, "track", -1, -1, opt.a, true))
    end
  elseif opt.code == OPT_ROB then
    if S[KW[player]] then
      S[KW[player]] = nil
      S[KS[player]] = half_up(take_candidate(player, opt.a))
      land()
    end
  end
end)
