-- After every action, asks the active player to choose among `options`
-- options, each of whose apply costs about a million instructions (half
-- the 2 million of one call). A random game pays for one apply a turn; a
-- bot that tries every option on a copy of the game would pay for all of
-- them, each copy with fresh limits, were the copies of one decision not
-- charged to one account.
carc.option_int("options", 200, 1, 1000, "options of the costly decision")
carc.add_phase("costly", "after", "action", function(call)
  if call > 0 then return "done" end
  local opts = {}
  for i = 1, carc.option("options") do opts[i] = { code = 1, a = i } end
  carc.ask(carc.active_player(), "costly", opts)
  return "again"
end)
carc.format(function(o) return "costly " .. o.a end)
carc.apply(function(o, player)
  local x = 0
  for i = 1, 500000 do x = x + i end
  return x
end)
