carc.on("tile-placed", function(ev)
  local t = nil
  return t.field
end)
