-- About 1.8 million instructions each time a tile is placed: 12 tries of
-- one placement on a bot's scratch game would use up one turn's 20 million
-- if the tries shared the turn's account.
carc.on("tile-placed", function(ev)
  local x = 0
  for i = 1, 900000 do x = x + i end
end)
