-- Comparing two 10 MB strings is one instruction: the CPU-time backstop
-- stops a loop of them, where the instruction count would take hours.
local a, b = string.rep(string.rep("a", 10000), 1000), string.rep(string.rep("a", 10000), 1000)
local n = 0
while true do if a <= b then n = n + 1 end end
