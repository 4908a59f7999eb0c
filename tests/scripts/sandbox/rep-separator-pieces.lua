-- A separator is a piece of its own: 600,000 repeats with one are 1,199,999
-- copies, and two such strings are over one call's budget.
carc.on("turn-start", function(ev)
  for i = 1, 2 do local s = ("a"):rep(600000, "b") end
end)
