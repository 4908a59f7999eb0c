-- Finding: each coroutine's hook counted only its own instructions, so a
-- tree of coroutines that each ran fewer than 1000 was never charged.
local function node(depth)
  for i = 1, 40 do end
  if depth > 0 then
    for i = 1, 4 do coroutine.resume(coroutine.create(node), depth - 1) end
  end
end
while true do coroutine.resume(coroutine.create(node), 12) end
