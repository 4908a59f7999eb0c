-- fairy.lua: the fairy of The Princess and The Dragon (rules FAIRY-1 to
-- FAIRY-7), usable on its own in any variant.
--
-- The fairy is a neutral figure (kind "fairy") standing on a tile
-- (CARC_AT_TILE). Instead of deploying, the active player may put it next to
-- one of their followers on the board (a figure of any follower kind, by
-- carc.figure_kind_flags: a large follower is one follower) (`fairy x,y kind@port`, where that
-- follower stands); it then guards that follower. At the start of a turn the
-- active player scores fairy.turn-bonus if the fairy guards one of their
-- followers (its own scoring step); when the guarded follower's feature is
-- scored, in play or at the end, won or not, its owner scores
-- fairy.score-bonus as a separate award right after that feature's awards.
-- The dragon (plugin princess-dragon) reads where the fairy stands.
--
-- With fairy.placement=on-tile the fairy goes onto a tile holding one of the
-- player's followers (`fairy x,y`) and counts every follower on that tile:
-- turn-bonus per follower of the active player there at turn start, and
-- score-bonus to the owner of each follower there whose feature scores.
--
-- Game state (carc.state): fig = the fairy's figure id (nil while beside the
-- board), guard = the guarded follower's figure id (nil: nobody); the
-- options, read once when the game is set up: tile (placement=on-tile),
-- turn, score (the bonuses).

carc.option_enum("placement", "next-to-follower on-tile",
  "where the fairy goes: next to one follower, or onto a tile (all its followers)")
carc.option_int("turn-bonus", 1, 0, 100, "points at turn start while the fairy is next to your follower (FAIRY-3)")
carc.option_int("score-bonus", 3, 0, 100, "points when the fairy's follower's feature is scored (FAIRY-5)")

local FAIRY = carc.define_figure("fairy", 0)
local REASON = carc.define_reason("fairy")
local AT_SEGMENT, AT_TILE = carc.AT_SEGMENT, carc.AT_TILE
local BONUS, FINAL = carc.AWARD_BONUS, carc.AWARD_FINAL
local NEXT_TO, ON_TILE = 1, 2 -- option codes
local PLACEMENT_ON_TILE = 1
-- What the handlers use, in locals: a read of the carc table (frozen once
-- the script has loaded) costs more than a local's.
local S = carc.state
local figure_fields, figure_place, figure_move = carc.figure_fields, carc.figure_place, carc.figure_move
local step_begin, step_end, award, batch_add = carc.step_begin, carc.step_end, carc.award, carc.batch_add

carc.game_init(function()
  S.tile = carc.option("placement") == PLACEMENT_ON_TILE
  S.turn = carc.option("turn-bonus")
  S.score = carc.option("score-bonus")
  -- The follower kinds (any: the Prophet, a large follower, ...) as a bit
  -- mask, read once: a kind's flags are the rules', the same all game.
  local fk = 0
  for k = 0, 62 do
    local flags = carc.figure_kind_flags(k)
    if flags < 0 then break end
    if flags & carc.FIGURE_FOLLOWER ~= 0 then fk = fk | (1 << k) end
  end
  S.fk = fk
end)

-- The tile the fairy stands on, or nil.
local function fairy_tile()
  local id = S.fig
  if id == nil then return nil end
  local kind, _, where, tile = figure_fields(id)
  if where == AT_TILE and kind == FAIRY then return tile end
  return nil
end

-- Hot paths build no tables: figures come from carc.each_figure as values,
-- options go to carc.offer as arguments (docs/lua-guide.md, "Writing fast
-- scripts").
local each_figure, offer, offer_figures, feature = carc.each_figure, carc.offer, carc.offer_figures, carc.feature

-- Whether figure kind k is a follower, by the mask fk of game_init (read
-- once per call by the caller: each state read is a call into carc).
local function is_follower(fk, k)
  return (fk >> k) & 1 == 1
end

-- FAIRY-2, FAIRY-7: the moves on offer in the action decision.
carc.on("action-offer", function(ev)
  local player = ev.player
  if S.tile then
    local here, seen, fk = fairy_tile(), {}, S.fk
    for _, kind, _, _, tile in each_figure(player, AT_SEGMENT) do
      if tile ~= here and not seen[tile] and is_follower(fk, kind) then
        seen[tile] = true
        offer(ON_TILE, tile, -1)
      end
    end
  else
    -- One option per follower of the player but the guarded one, {tile,
    -- seg, a = its id}, in id order: offered by carc in one call.
    offer_figures(player, AT_SEGMENT, S.fk, NEXT_TO, S.guard)
  end
end)

carc.format(function(opt)
  local x, y = carc.tile_pos(opt.tile)
  if opt.code == ON_TILE then return string.format("fairy %d,%d", x, y) end
  return string.format("fairy %d,%d %s", x, y, carc.segment_name(opt.tile, opt.seg))
end)

carc.apply(function(opt, player)
  local guard = nil
  if opt.code == NEXT_TO then
    local kind, owner, where, tile, seg = figure_fields(opt.a)
    if not (where == AT_SEGMENT and is_follower(S.fk, kind) and tile == opt.tile and seg == opt.seg and owner == player) then
      error("fairy: the follower is not there")
    end
    guard = opt.a
  elseif opt.code ~= ON_TILE then
    error("fairy: unknown option")
  end
  if S.fig == nil then
    S.fig = figure_place(FAIRY, -1, "tile", opt.tile, -1, 0, false)
  else
    figure_move(S.fig, "tile", opt.tile)
  end
  S.guard = guard
end)

-- FAIRY-5 (and FAIRY-6): the guarded follower left the board; the fairy
-- stays. Called only while the fairy guards a follower (state key guard).
carc.on("figure-removed", function(ev)
  if ev.figure == S.guard then S.guard = nil end
end, "guard")

-- FAIRY-3: the point at the start of your turn, its own scoring step.
-- This handler and the next are called only once the fairy is on the board
-- (state key fig).
carc.on("turn-start", function(ev)
  local bonus, points = S.turn, 0
  if bonus <= 0 then return end
  if S.tile then
    local here = fairy_tile()
    if here == nil then return end
    local fk = S.fk
    for _, kind, _, _, tile in each_figure(ev.player, AT_SEGMENT) do
      if tile == here and is_follower(fk, kind) then points = points + bonus end
    end
  else
    local guard = S.guard
    if guard and select(2, figure_fields(guard)) == ev.player then points = bonus end
  end
  if points > 0 then
    step_begin()
    award(ev.player, points, REASON)
    step_end()
  end
end, "fig")

-- FAIRY-5: the feature of the fairy's follower is scored (its awards are in
-- the batch): a bonus award attached to that feature, won or not.
carc.on("feature-scored", function(ev)
  local bonus = S.score
  if bonus <= 0 then return end
  local flags = BONUS
  if ev.flags ~= 0 then flags = BONUS | FINAL end
  if S.tile then
    local here = fairy_tile()
    if here == nil then return end
    local fk = S.fk
    for _, kind, owner, _, tile, seg in each_figure(nil, AT_SEGMENT) do
      if tile == here and is_follower(fk, kind) and feature(tile, seg) == ev.feature then
        batch_add(owner, bonus, REASON, ev.feature, flags)
      end
    end
  else
    local guard = S.guard
    if guard == nil then return end
    local _, owner, where, tile, seg = figure_fields(guard)
    if where == AT_SEGMENT and feature(tile, seg) == ev.feature then
      batch_add(owner, bonus, REASON, ev.feature, flags)
    end
  end
end, "fig")
