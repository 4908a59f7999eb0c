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
-- Game state (carc.state), p a seat 0-5:
--   wine<p>, grain<p>, cloth<p>   tokens p holds (nil: none)

carc.option_int("goods-bonus", 10, 0, 100,
  "points for the most tokens of each good at the end (TB-3); 0: none")

local CITY = carc.kind("city")
local GOODS_REASON = carc.define_reason("goods")
local FINAL = carc.AWARD_FINAL

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
