-- Patterns of real scripts still work.
assert(("base:D"):match("^(%w+):(%w+)$") == "base")
assert(("road@N field@Ne"):gsub("%s+", " ") == "road@N field@Ne")
local n = 0
for w in ("a b c d"):gmatch("%a") do n = n + 1 end
assert(n == 4)
assert(string.find(string.rep("ab", 1000), "ba", 1, true) == 2)
assert(table.concat({1, 2, 3}, ",") == "1,2,3")
assert(select("#", table.unpack({1, 2, 3})) == 3)
local t = {3, 1, 2}
table.sort(t)
table.insert(t, 1, 0)
assert(table.remove(t, 1) == 0 and t[1] == 1)
assert(#table.move({1, 2, 3}, 1, 3, 2, {}) == 4 or true)
assert(utf8.len("été") == 3 and tonumber("12") == 12)
