-- Finding 7: a coroutine made at load time keeps its place between calls.
local ticks = coroutine.wrap(function()
  local i = 0
  while true do i = i + 1; coroutine.yield(i) end
end)
carc.on("turn-start", function(ev) ticks() end)
