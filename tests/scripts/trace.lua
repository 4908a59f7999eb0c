-- trace.lua: the Lua twin of tests/plugins/trace/trace.c. Same events, same
-- decisions, same awards, and the same rolling hash of the event codes in
-- carc.state, so a game with either one ends the same way.
local codes = {
  ["game-start"] = "GS", ["turn-start"] = "TS", ["tile-drawn"] = "TD", ["tile-placed"] = "TP",
  ["action-offer"] = "AO", ["action-filter"] = "AF", ["option-chosen"] = "OC",
  ["feature-completed"] = "FC", ["feature-value"] = "FV", ["feature-scored"] = "FS",
  ["score-before"] = "SB", ["score-after"] = "SA", ["score"] = "SC", ["score-step-end"] = "SE",
  ["figure-removed"] = "FR", ["turn-end"] = "TE", ["game-end"] = "GE", ["final-score"] = "FN",
  ["feature-majority"] = "FM", ["award-order"] = "AW",
}
local order = { "game-start", "turn-start", "tile-drawn", "tile-placed", "action-offer", "action-filter",
  "option-chosen", "feature-completed", "feature-value", "feature-scored", "score-before", "score-after",
  "score", "score-step-end", "figure-removed", "turn-end", "game-end", "final-score",
  "feature-majority", "award-order" }

local S = carc.state
local TOKEN, YES, NO = 1, 2, 3

local function note(code)
  local h = S.hash or 0
  for i = 1, #code do h = (h * 31 + code:byte(i)) & 0xffffffff end
  S.hash = (h * 31 + 32) & 0xffffffff
  S.events = (S.events or 0) + 1
end

local reason = carc.define_reason("trace")
local token_kind = carc.define_figure("trace-token", 0, {})
local CITY, FIELD, ROAD = carc.kind("city"), carc.kind("field"), carc.kind("road")
carc.define_mark("trace-mark")
carc.define_tile_mark("trace-tile-mark")
carc.define_kind("trace-kind", "ring", { deployable = true })
carc.option_int("city-extra", 0, 0, 100, "extra points on every city")
carc.option_enum("farmers", "yes no", "whether followers may farm")

local handlers = {
  ["action-offer"] = function(ev)
    local t = carc.placed_tile()
    if t >= 0 then
      local x, y = carc.tile_pos(t)
      carc.offer({ code = TOKEN, tile = t, seg = -1, a = x, b = y })
    end
  end,
  ["action-filter"] = function(ev)
    if carc.option("farmers") == 1 then
      for i = 0, carc.offered() - 1 do
        local o = carc.offered_at(i)
        if o.seg >= 0 and carc.segment_kind(o.tile, o.seg) == FIELD then carc.veto(i) end
      end
    end
  end,
  ["feature-value"] = function(ev)
    if carc.feature_kind(ev.feature) == CITY then ev.value = ev.value + carc.option("city-extra") end
  end,
  ["turn-start"] = function(ev)
    if carc.turn() % 10 == 0 then
      carc.step_begin()
      carc.award(ev.player, 1, reason, -1, 0)
      carc.step_end()
    end
  end,
  ["game-end"] = function(ev)
    if S.token then carc.figure_remove(S.token, "box") end
    S.token = nil
  end,
  ["final-score"] = function(ev)
    carc.step_begin()
    carc.batch_begin()
    for p = 0, carc.players() - 1 do carc.batch_add(p, 1, reason, -1, 0) end
    carc.batch_commit(0)
    carc.step_end()
  end,
}

for _, name in ipairs(order) do
  local h = handlers[name]
  carc.on(name, function(ev)
    note(codes[ev.type])
    if h then h(ev) end
  end)
end

carc.add_phase("trace", "after", "place", function(step)
  note("PH")
  if step > 0 or carc.turn() % 3 ~= 0 then return "done" end
  local next = (carc.active_player() + 1) % carc.players()
  carc.ask(next, "trace", { { code = YES }, { code = NO } })
  return "again"
end)

carc.format(function(o)
  if o.code == TOKEN then return string.format("trace-token %d,%d", o.a, o.b) end
  if o.code == YES then return "trace yes" end
  return "trace no"
end)

carc.apply(function(o, player)
  note("AP")
  if o.code == TOKEN then
    if S.token then
      carc.figure_move(S.token, "tile", o.tile)
    else
      S.token = carc.figure_place(token_kind, -1, "tile", o.tile, -1, 0, false)
    end
  elseif o.code == YES then
    S.asks = (S.asks or 0) + 1
    carc.step_begin()
    carc.award(player, 2, reason, -1, 0)
    carc.step_end()
  end
end)
