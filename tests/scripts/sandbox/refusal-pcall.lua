-- A refusal stops the game: a script that catches the refusal with pcall
-- plays no further; the game ends with the refusal's message.
carc.on("turn-start", function(ev)
  local ok, err = pcall(carc.award, 99, 5, 0)
  assert(not ok)
end)
