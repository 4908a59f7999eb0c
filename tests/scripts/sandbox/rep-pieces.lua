-- Finding: string.rep of one byte a million times copies a million pieces
-- (about 1.7 ms) and was charged only for its megabyte (1,000 instructions):
-- a handler doing it 66 times a turn ran a 40-turn game for 14 s, every
-- turn far under the budgets. Each piece is charged: ten such strings are
-- 10,000,000 instructions, over one call's budget.
carc.on("turn-start", function(ev)
  for i = 1, 10 do local s = ("a"):rep(1000000) end
end)
