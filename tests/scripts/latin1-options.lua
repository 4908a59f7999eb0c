-- Text that is not UTF-8: before each turn's tile, the active player is
-- asked a question whose label and option texts hold the Latin-1 byte of
-- "é" (carc serve shows them as text: tests/test_serve.c).
carc.add_phase("latin1-ask", "after", "draw", function(step)
  if step > 0 then return "done" end
  carc.ask(carc.active_player(), "caf\xe9", {{code = 1}, {code = 2}})
  return "again"
end)
carc.format(function(opt) return "caf\xe9-" .. opt.code end)
carc.apply(function(opt, player) end)
