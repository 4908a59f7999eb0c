-- Finding 7: a handler that counts in a variable of the top level carries
-- the count from game to game and into the bots' trial moves.
local turns = 0
carc.on("turn-start", function(ev)
  turns = turns + 1
end)
