carc.on("turn-start", function(ev)
  counter = (counter or 0) + 1
end)
