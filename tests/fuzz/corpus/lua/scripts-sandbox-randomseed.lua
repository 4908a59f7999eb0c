carc.on("turn-start", function(ev) math.randomseed(42) end)
