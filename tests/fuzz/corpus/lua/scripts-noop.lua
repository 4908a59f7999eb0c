-- A handler for every event that does nothing (make bench: the cost of
-- calling into Lua).
for _, name in ipairs({ "game-start", "turn-start", "tile-drawn", "tile-placed", "action-offer",
  "action-filter", "option-chosen", "feature-completed", "feature-value", "feature-scored",
  "score-before", "score-after", "score", "score-step-end", "figure-removed", "turn-end",
  "game-end", "final-score" }) do
  carc.on(name, function(ev) end)
end
