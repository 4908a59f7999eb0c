-- A global that existed at load time cannot be changed by a handler either.
counter = 0
carc.on("turn-start", function(ev)
  counter = counter + 1
end)
