-- Asks `asks` one-option questions every turn, each option's text
-- `length` characters long. Found: 3,000 such questions a turn made a
-- record of 213,219 lines, 890-character texts one of 363 MB, and no reader
-- took either; `carc play` rewrote the whole record after every move.
carc.option_int("asks", 3000, 1, 10000, "questions a turn")
carc.option_int("length", 10, 1, 2000, "characters of an option's text")
carc.add_phase("ask-many", "after", "action", function(call)
  if call >= carc.option("asks") then return "done" end
  carc.ask(carc.active_player(), "ask-many", { { code = 1, a = call } })
  return "again"
end)
carc.format(function(o) return "ask-many " .. o.a .. " " .. string.rep("x", carc.option("length")) end)
carc.apply(function(o, player) end)
