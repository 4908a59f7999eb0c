-- Reads its option at every turn start, by its short name and by its full
-- key, and checks it against the value it read when the game began
-- (carc.state): a game of other rules must see its own value. A kernel
-- option is found by its own key; an unknown name is -1.
carc.option_int("points", 2, 0, 9, "points checked at every turn")
carc.game_init(function() carc.state.points = carc.option("points") end)
carc.on("turn-start", function(ev)
  local p = carc.option("points")
  if p ~= carc.state.points or carc.option("option-each-turn.points") ~= p then
    carc.fail("carc.option gave " .. tostring(p) .. ", the game began with " .. tostring(carc.state.points))
  end
  if carc.option("farm-scoring") ~= 0 then carc.fail("the kernel's farm-scoring is not its default") end
  if carc.option("no-such-option") ~= -1 then carc.fail("an unknown option is not -1") end
end)
