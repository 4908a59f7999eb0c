-- What stays allowed once the script has loaded: tables made at load time
-- are read as before, classes work, and handlers keep what they like in
-- their own locals and in carc.state.
local DIRS = { "n", "e", "s", "w" }
local POINTS = { road = 1, city = 2, n = 4 }
local Vec = {}
Vec.__index = Vec
function Vec.new(x, y) return setmetatable({ x = x, y = y }, Vec) end
function Vec:len2() return self.x * self.x + self.y * self.y end
Vec.__add = function(a, b) return Vec.new(a.x + b.x, a.y + b.y) end
local origin = Vec.new(0, 0)
local limits = setmetatable({}, { __index = function(t, k) return 7 end })
local nested = { inner = { 1, 2, 3 } }
carc.on("turn-start", function(ev)
  assert(#DIRS == 4 and DIRS[2] == "e" and rawlen(DIRS) == 4 and rawget(DIRS, 3) == "s")
  assert(table.concat(DIRS, ",") == "n,e,s,w" and select("#", table.unpack(DIRS)) == 4)
  local n = 0
  for i, d in ipairs(DIRS) do n = n + i; assert(DIRS[i] == d) end
  assert(n == 10)
  local keys = {}
  for k, v in pairs(POINTS) do keys[#keys + 1] = k .. "=" .. v end
  assert(table.concat(keys, " ") == "city=2 n=4 road=1", table.concat(keys, " "))
  assert(next(POINTS) == "city" and next(POINTS, "city") == "n" and next(POINTS, "road") == nil)
  assert(next({}) == nil)
  local v = Vec.new(3, 4) + origin
  assert(v:len2() == 25 and getmetatable(v) == Vec and getmetatable(origin) == Vec)
  assert(limits.anything == 7 and nested.inner[3] == 3 and #nested.inner == 3)
  assert(getmetatable(DIRS) == false)
  local mine = { count = 0 }
  mine.count = mine.count + 1
  carc.state.turns = (carc.state.turns or 0) + 1
  assert(not pcall(setmetatable, DIRS, {}))
  assert(not pcall(table.insert, DIRS, "x"))
  assert(("North"):lower() == "north")
end)
