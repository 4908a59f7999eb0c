-- Reads its option at every turn start (carc.option keeps the value by
-- name once a game asks) and checks it against the value it read at load
-- time through carc.state: a game of other rules must see its own value.
carc.option_int("points", 2, 0, 9, "points checked at every turn")
carc.game_init(function() carc.state.points = carc.option("points") end)
carc.on("turn-start", function(ev)
  local p = carc.option("points")
  if p ~= carc.state.points or carc.option("points") ~= p then
    carc.fail("carc.option gave " .. tostring(p) .. ", the game began with " .. tostring(carc.state.points))
  end
  if carc.option("no-such-option") ~= -1 then carc.fail("an unknown option is not -1") end
end)
