-- Finding 7: a table made at load time, changed by a handler.
local seen = {}
carc.on("tile-placed", function(ev)
  seen[#seen + 1] = ev.tile
end)
