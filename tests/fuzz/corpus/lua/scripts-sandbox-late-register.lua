carc.on("turn-start", function(ev)
  carc.on("turn-end", function() end)
end)
