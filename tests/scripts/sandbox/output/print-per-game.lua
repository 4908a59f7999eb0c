-- print is capped per game too: many calls of short lines each.
local line = string.rep("y", 20000)
carc.on("tile-drawn", function(ev) print(line) print(line) print(line) end)
