-- walk-twin.lua: a neutral walker stands on the start tile from the first
-- turn and moves like the Ark: every walk of 1 to walk-twin.steps steps,
-- 1 point to each figure of a player on a segment of each tile it enters.
-- walk-twin.native = yes: carc applies the walks (carc.offer_figure_walks);
-- no: this script offers them with carc.offer_walks and applies them
-- itself, the way ark.lua did before carc could. The same games either way
-- (tests/test_figure_walks.c).
local WALKER = carc.define_figure("walker", 0, {})
local REASON = carc.define_reason("walk")
carc.option_enum("native", "yes no", "carc applies the walks (yes) or this script does (no)")
carc.option_int("steps", 3, 1, 8, "most steps of a walk")

local S = carc.state
local AT_TILE, AT_SEGMENT = carc.AT_TILE, carc.AT_SEGMENT
local DIRS = {"N", "E", "S", "W"}

carc.on("turn-start", function(ev)
  if S.fig == nil then S.fig = carc.figure_place(WALKER, -1, AT_TILE, 0, -1, 0, false) end
end)

carc.on("action-offer", function(ev)
  local native = carc.option("native") == 0
  if native then
    carc.offer_figure_walks(S.fig, carc.option("steps"), 1, 0, 1, REASON)
  else
    local _, _, _, tile = carc.figure_fields(S.fig)
    carc.offer_walks(tile, carc.option("steps"), 1)
  end
end)

carc.format(function(o)
  local s, path = "walk", o.a
  for _ = 1, o.b do
    s = s .. " " .. DIRS[(path & 3) + 1]
    path = path >> 2
  end
  return s
end)

carc.apply(function(o, player)
  local _, _, _, t = carc.figure_fields(S.fig)
  local x, y = carc.tile_pos(t)
  local path = o.a
  carc.step_begin()
  for _ = 1, o.b do
    local d = path & 3
    path = path >> 2
    if d & 1 == 0 then y = y + d - 1 else x = x + 2 - d end
    t = carc.tile_at(x, y)
    carc.award_figures_on(t, AT_SEGMENT, 0, 1, REASON)
  end
  carc.figure_move(S.fig, AT_TILE, t)
  carc.step_end()
end)
