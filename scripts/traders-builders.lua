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

-- Seats in order from the active player (the last one at the end).
local function seats_from_active()
  local n, first = carc.players(), carc.active_player()
  if first < 0 then first = 0 end
  local order = {}
  for k = 0, n - 1 do order[k + 1] = (first + k) % n end
  return order
end

-- TB-2: the player who completed a city takes its goods.
carc.on("feature-completed", function(ev)
  if carc.feature_kind(ev.feature) ~= CITY then return end
  for _, good in ipairs(GOODS) do
    local n = carc.feature_marks(ev.feature, good.mark)
    if n > 0 then
      local key = good.key[ev.player]
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
local function placed(h, p)
  local f = S[h.key[p]]
  if f == nil then return nil end
  local fi = carc.figure(f)
  if fi and fi.kind == h.kind and fi.owner == p and fi.where == carc.AT_SEGMENT then
    return f, carc.feature(fi.tile, fi.seg)
  end
  S[h.key[p]] = nil
  return nil
end

-- TB-5: a tile that extends the road or city of its player's builder gives
-- an extra turn, but not in that extra turn. (Asked while the action is
-- built, the first moment after the placement a script is called anyway.)
local function extends_builder(p, t)
  if carc.in_extra_turn() then return end
  local f, feature = placed(BUILDER, p)
  if f == nil then return end
  for s = 0, carc.segments(t) - 1 do
    if carc.feature(t, s) == feature then
      carc.extra_turn()
      return
    end
  end
end

-- TB-4, TB-7: on a segment of the placed tile whose feature holds one of
-- the player's followers.
local HELPER_ON = { [ROAD] = BUILDER, [CITY] = BUILDER, [FIELD] = PIG } -- feature kind -> figure

carc.on("action-offer", function(ev)
  local t, p = ev.tile, ev.player
  if t < 0 or p < 0 then return end
  if S[BUILDER.key[p]] ~= nil then extends_builder(p, t) end
  local builder, pig = carc.supply(p, BUILDER.kind) > 0, carc.supply(p, PIG.kind) > 0
  if not builder and not pig then return end
  for s = 0, carc.segments(t) - 1 do
    local h = HELPER_ON[carc.segment_kind(t, s)]
    if h and (h == BUILDER and builder or h == PIG and pig) and carc.feature_followers(carc.feature(t, s), p) > 0 then
      carc.offer({ code = h.code, tile = t, seg = s })
    end
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
  S[h.key[player]] = carc.figure_place(h.kind, player, "segment", o.tile, o.seg, 0, true)
end)

-- TB-6, TB-8: a builder or pig whose owner has no follower left on its
-- feature goes back to the supply.
local function send_home_alone(p)
  for _, h in ipairs(HELPERS) do
    local f, feature = placed(h, p)
    if f and carc.feature_followers(feature, p) == 0 then
      S[h.key[p]] = nil
      carc.figure_remove(f, "supply")
    end
  end
end

carc.on("figure-removed", function(ev)
  if ev.player >= 0 and ev.player < carc.players() then send_home_alone(ev.player) end
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
    local f, feature = placed(PIG, p)
    if f and feature == ev.feature then
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
