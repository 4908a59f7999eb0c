-- option-memo.lua: carc.option gives each key its own value every time a
-- game reads it. Twelve options of the script (more keys than carc keeps
-- answers for, so some share a place), read by short and full name in a
-- different order each turn, a kernel option, unknown, empty and long keys.
-- test_script_queries.c loads it with option-memo.o3=77; the others keep
-- their defaults (10 + k). A wrong answer stops the game.
for k = 1, 12 do carc.option_int("o" .. k, 10 + k, 0, 100, "option " .. k) end

local function check(cond, what)
  if not cond then carc.fail("option-memo: " .. what) end
end

local function expected(k)
  if k == 3 then return 77 end
  return 10 + k
end

-- First of all (the empty key before any answer is kept), then every turn.
carc.game_init(function()
  check(carc.option("") == -1, "the empty key at the start")
end)

carc.on("turn-start", function(ev)
  local turn = carc.turn()
  for i = 0, 11 do
    local k = (i * 5 + turn) % 12 + 1
    check(carc.option("o" .. k) == expected(k), "o" .. k)
    if i % 4 == turn % 4 then check(carc.option("option-memo.o" .. k) == expected(k), "option-memo.o" .. k) end
  end
  check(carc.option("farm-scoring") == 0, "the kernel's farm-scoring")
  check(carc.option("o13") == -1, "an unknown key")
  check(carc.option("") == -1, "the empty key")
  check(carc.option(string.rep("o", 60)) == -1, "a long key")
  carc.state.turns = (carc.state.turns or 0) + 1
end)

carc.on("game-end", function(ev)
  check((carc.state.turns or 0) >= 10, "too few turns checked")
end)
