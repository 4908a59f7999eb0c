-- Finding 7: pairs and next visit keys in one order, whatever the run:
-- numbers ascending, then strings in byte order, then false, true.
local function visit(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = tostring(k) end
  return table.concat(out, " ")
end
local function visit_next(t)
  local out, k = {}, next(t)
  while k ~= nil do out[#out + 1] = tostring(k); k = next(t, k) end
  return table.concat(out, " ")
end
carc.on("turn-start", function(ev)
  local t = { kiwi = 1, apple = 2, fig = 3, banana = 4, cherry = 5, date = 6, elder = 7, grape = 8,
              [10] = 1, [-2] = 1, [2.5] = 1, [true] = 1, [false] = 1, Zebra = 1, [1] = 1 }
  local want = "-2 1 2.5 10 Zebra apple banana cherry date elder fig grape kiwi false true"
  assert(visit(t) == want, "pairs: " .. visit(t))
  assert(visit_next(t) == want, "next: " .. visit_next(t))
  t.fig = nil -- removing while iterating is allowed
  for k in pairs(t) do t[k] = nil end
  assert(next(t) == nil)
  local ok, msg = pcall(pairs, { [{}] = 1 })
  assert(not ok and msg:find("no fixed order"), msg)
end)
