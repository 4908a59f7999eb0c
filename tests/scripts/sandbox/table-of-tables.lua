-- A table of ever bigger tables: stopped by the memory cap or the budget.
local t = {}
for i = 1, math.maxinteger do
  local inner = {}
  for j = 1, 64 do inner[j] = {j} end
  t[i] = inner
end
