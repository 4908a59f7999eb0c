carc.on("turn-start", function(ev)
  local n = 0
  while true do n = n + 1 end
end)
