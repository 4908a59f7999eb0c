-- Finding 7: the same, through a function made inside the handler.
local last
carc.on("tile-placed", function(ev)
  local function remember(t)
    last = t
  end
  remember(ev.tile)
end)
