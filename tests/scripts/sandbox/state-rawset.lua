-- Finding 7: rawset does not get round a table made at load time.
local seen = {}
carc.on("turn-start", function(ev)
  rawset(seen, "turn", ev.player)
end)
