-- Finding: a phase that returns "again" got a fresh budget each time, up to
-- 100,000 times a turn (about 12 minutes a turn).
carc.add_phase("spin", "before", "draw", function(step)
  for i = 1, 1500000 do end
  return "again"
end)
