-- Finding 7: table.sort of over 100 elements picked random pivots: equal
-- elements landed in a different order each run. Now it is stable.
carc.on("turn-start", function(ev)
  local t = {}
  for i = 1, 300 do t[i] = { key = i % 3, id = i } end
  table.sort(t, function(a, b) return a.key < b.key end)
  for i = 2, 300 do
    local a, b = t[i - 1], t[i]
    assert(a.key < b.key or (a.key == b.key and a.id < b.id), "unstable at " .. i)
  end
  local plain = {}
  for i = 1, 200 do plain[i] = (i * 37) % 101 end
  table.sort(plain)
  for i = 2, 200 do assert(plain[i - 1] <= plain[i]) end
end)
