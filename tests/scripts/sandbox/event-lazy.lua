-- The event table is filled as the handler reads it: raw access and pairs
-- see the whole event, a field set to nil stays nil, and nothing a call
-- wrote is seen by the next call (the table is lent again).
carc.on("turn-start", function(ev)
  local p = rawget(ev, "player")
  if type(p) ~= "number" then error("rawget(ev, 'player') is " .. tostring(p)) end
  if ev.player ~= p then error("ev.player differs from rawget") end
  if ev.type ~= "turn-start" then error("ev.type is " .. tostring(ev.type)) end
  if ev.tile == 999 or ev.flags == nil then error("a field the last call wrote is seen") end
  ev.tile = 999
  ev.flags = nil
  if ev.flags ~= nil then error("a field set to nil reads again") end
end)
carc.on("score-before", function(ev)
  local keys = {}
  for k in pairs(ev) do keys[#keys + 1] = k end
  local got = table.concat(keys, " ")
  if got ~= "award feature figure flags player tile type value" then error("pairs(ev) gives " .. got) end
  if type(ev.award.points) ~= "number" or next(ev) ~= "award" then error("the award or next(ev) is wrong") end
end)
