-- traders-builders.lua: Traders & Builders, 1st edition (rules TB-1 to
-- TB-8, docs/traders-builders.md). Plays with any variant; its 24 tiles are
-- the tile set `traders-builders` (tiles/traders-builders.ini).
--
-- Goods: city segments carry the marks `wine`, `grain` and `cloth`. When a
-- tile completes a city, the player who placed it takes one token per
-- symbol in the city, whoever scores the city and whether or not anybody
-- occupies it (TB-2). At the end, after the kernel's final scoring, the
-- player or players with the most tokens of each good score 10 (option
-- traders-builders.goods-bonus), reason `goods` (TB-3).
--
-- The builder and the pig (figure kinds `builder` and `pig`, one each per
-- player) are not followers: the kernel neither counts them in a majority
-- nor deploys them. Instead of a follower, the active player may put the
-- builder on a road or city segment of the placed tile whose feature holds
-- one of their followers (`deploy builder road@E`, TB-4), or the pig on a
-- field segment whose farm holds one of their farmers (`deploy pig
-- field@N`, TB-7). A tile that extends the feature of its player's builder
-- gives that player an extra turn (carc.extra_turn), except in the extra
-- turn itself (TB-5). Either figure goes home as soon as its owner has no
-- follower left on its feature (TB-6, TB-8). When a farm is scored at the
-- end, a winner whose pig stands in it scores one more per completed city
-- the farm borders, in every farm-scoring mode (TB-8).
--
-- Game state (carc.state), p a seat 0-5:
--   wine<p>, grain<p>, cloth<p>   tokens p holds (nil: none)
--   builder<p>, pig<p>            the figure id of p's builder, pig on the board

carc.option_int("goods-bonus", 10, 0, 100,
  "points for the most tokens of each good at the end (TB-3); 0: none")

local ROAD, CITY, FIELD = carc.kind("road"), carc.kind("city"), carc.kind("field")
local GOODS_REASON = carc.define_reason("goods")
local FARM = carc.reason("farm")
local FINAL, BONUS = carc.AWARD_FINAL, carc.AWARD_BONUS
local PER_FARM, CITY_MAJORITY = 0, 3 -- values of the kernel option farm-scoring

-- The builder and the pig: their kinds, option codes and state keys
-- (constants, built once).
local BUILDER = { kind = carc.define_figure("builder", 1, {}), code = 1 }
local PIG = { kind = carc.define_figure("pig", 1, {}), code = 2 }
local HELPERS = { BUILDER, PIG }
for _, h in ipairs(HELPERS) do
  h.name = h == BUILDER and "builder" or "pig"
  h.key = {}
  for p = 0, 5 do h.key[p] = h.name .. p end
end

-- The goods in the order their bonuses are paid, with their marks and the
-- state keys of each seat's tokens (constants, built once).
local GOODS = {}
for i, name in ipairs({ "wine", "grain", "cloth" }) do
  local keys = {}
  for p = 0, 5 do keys[p] = name .. p end
  GOODS[i] = { name = name, mark = carc.define_mark(name), key = keys }
end

local S = carc.state
-- What the handlers use, in locals (docs/lua-guide.md, "Writing fast
-- scripts"): a read of a global, of the carc table or of a table the top
-- level made (all frozen once the script has loaded) costs a few hundred
-- instructions, a local's one.
local players, active_player, option = carc.players, carc.active_player, carc.option
local feature, feature_kind, feature_marks, feature_followers = carc.feature, carc.feature_kind, carc.feature_marks,
  carc.feature_followers
local segments, segment_kind, supply, offer = carc.segments, carc.segment_kind, carc.supply, carc.offer
local figure_fields, figure_place, figure_remove = carc.figure_fields, carc.figure_place, carc.figure_remove
local in_extra_turn, extra_turn = carc.in_extra_turn, carc.extra_turn
local AT_SEGMENT = carc.AT_SEGMENT
local ipairs = ipairs
local BUILDER_KIND, BUILDER_CODE, BUILDER_KEY = BUILDER.kind, BUILDER.code, BUILDER.key
local PIG_KIND, PIG_CODE, PIG_KEY = PIG.kind, PIG.code, PIG.key

-- Seats in order from the active player (the last one at the end).
local function seats_from_active()
  local n, first = players(), active_player()
  if first < 0 then first = 0 end
  local order = {}
  for k = 0, n - 1 do order[k + 1] = (first + k) % n end
  return order
end

-- TB-2: the player who completed a city takes its goods.
carc.on("feature-completed", function(ev)
  local f = ev.feature
  if feature_kind(f) ~= CITY then return end
  local p = ev.player
  for _, good in ipairs(GOODS) do
    local n = feature_marks(f, good.mark)
    if n > 0 then
      local key = good.key[p]
      S[key] = (S[key] or 0) + n
    end
  end
end)

-- TB-3: 10 points for the most tokens of each good, to every tied player;
-- nobody scores a good nobody holds.
carc.on("final-score", function(ev)
  local bonus = carc.option("goods-bonus")
  if bonus <= 0 then return end
  local order = seats_from_active()
  carc.step_begin()
  carc.batch_begin()
  for _, good in ipairs(GOODS) do
    local best = 0
    for _, p in ipairs(order) do best = math.max(best, S[good.key[p]] or 0) end
    if best > 0 then
      for _, p in ipairs(order) do
        if (S[good.key[p]] or 0) == best then carc.batch_add(p, bonus, GOODS_REASON, -1, FINAL) end
      end
    end
  end
  carc.batch_commit(order[1])
  carc.step_end()
end)

-- ---- the builder and the pig ------------------------------------------------

-- The figure id and feature of p's builder or pig, or nil when it is in the
-- supply (or was taken off by someone else).
local function placed(kind, keys, p)
  local key = keys[p]
  local f = S[key]
  if f == nil then return nil end
  local k, owner, where, tile, seg = figure_fields(f) -- as values: no table
  if k == kind and owner == p and where == AT_SEGMENT then return f, feature(tile, seg) end
  S[key] = nil
  return nil
end

-- TB-5: a tile that extends the road or city of its player's builder gives
-- an extra turn, but not in that extra turn. (Asked while the action is
-- built, the first moment after the placement a script is called anyway.)
local function extends_builder(p, t)
  if in_extra_turn() then return end
  local f, its = placed(BUILDER_KIND, BUILDER_KEY, p)
  if f == nil then return end
  for s = 0, segments(t) - 1 do
    if feature(t, s) == its then
      extra_turn()
      return
    end
  end
end

-- TB-4, TB-7: on a segment of the placed tile whose feature holds one of
-- the player's followers.
carc.on("action-offer", function(ev)
  local t, p = ev.tile, ev.player
  if t < 0 or p < 0 then return end
  if S[BUILDER_KEY[p]] ~= nil then extends_builder(p, t) end
  local builder, pig = supply(p, BUILDER_KIND) > 0, supply(p, PIG_KIND) > 0
  if not builder and not pig then return end
  for s = 0, segments(t) - 1 do
    -- the figure for the segment's kind: the builder on a road or city,
    -- the pig on a field
    local kind, code = segment_kind(t, s), nil
    if kind == ROAD or kind == CITY then
      if builder then code = BUILDER_CODE end
    elseif kind == FIELD then
      if pig then code = PIG_CODE end
    end
    if code and feature_followers(feature(t, s), p) > 0 then offer(code, t, s) end
  end
end)

carc.format(function(o)
  local h = o.code == BUILDER.code and BUILDER or o.code == PIG.code and PIG or nil
  if h == nil then return "traders-builders?" end
  return "deploy " .. h.name .. " " .. carc.segment_name(o.tile, o.seg)
end)

carc.apply(function(o, player)
  local h = o.code == BUILDER.code and BUILDER or o.code == PIG.code and PIG or nil
  if h == nil then carc.fail("unknown option " .. o.code) end
  S[h.key[player]] = figure_place(h.kind, player, "segment", o.tile, o.seg, 0, true)
end)

-- TB-6, TB-8: a builder or pig whose owner has no follower left on its
-- feature goes back to the supply.
local function send_home(kind, keys, p)
  local f, its = placed(kind, keys, p)
  if f and feature_followers(its, p) == 0 then
    S[keys[p]] = nil
    figure_remove(f, "supply")
  end
end

carc.on("figure-removed", function(ev)
  local p = ev.player
  if p >= 0 and p < players() then
    send_home(BUILDER_KIND, BUILDER_KEY, p)
    send_home(PIG_KIND, PIG_KEY, p)
  end
end)

-- TB-8: a farm's winner with their pig in it scores one more per completed
-- city the farm borders: the farm's award (per-farm), or the award for each
-- such city (the per-city modes; with per-city-once only if the pig's owner
-- won this farm).
local function completed_cities(farm)
  local done = {}
  for _, c in ipairs(carc.feature_borders(farm)) do
    if carc.feature_complete(c) then done[#done + 1] = c end
  end
  return done
end

local function bump(p, feature, by)
  for i = 0, carc.batch_count() - 1 do
    local a = carc.batch_at(i)
    if a.player == p and a.feature == feature and a.reason == FARM and a.flags & BONUS == 0 then
      carc.batch_set_points(i, a.points + by)
      return
    end
  end
end

carc.on("feature-scored", function(ev)
  if ev.flags ~= 1 or carc.feature_kind(ev.feature) ~= FIELD then return end
  local mode = carc.option("farm-scoring")
  local n, best = carc.players(), 0
  for q = 0, n - 1 do best = math.max(best, carc.feature_strength(ev.feature, q)) end
  for p = 0, n - 1 do
    local f, its = placed(PIG_KIND, PIG_KEY, p)
    if f and its == ev.feature then
      local won = best > 0 and carc.feature_strength(ev.feature, p) == best
      local cities = completed_cities(ev.feature)
      if mode == PER_FARM then
        if won and #cities > 0 then bump(p, ev.feature, #cities) end
      elseif won or mode == CITY_MAJORITY then
        for _, c in ipairs(cities) do bump(p, c, 1) end
      end
    end
  end
end)
