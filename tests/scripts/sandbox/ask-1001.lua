-- Asks the active player to choose among 1001 options: more than a person
-- can choose from (carc.ask takes 1000).
carc.add_phase("many", "after", "action", function(call)
  if call > 0 then return "done" end
  local opts = {}
  for i = 1, 1001 do opts[i] = { code = 1, a = i } end
  carc.ask(carc.active_player(), "many", opts)
  return "again"
end)
carc.format(function(o) return "many " .. o.a end)
carc.apply(function(o, player) end)
