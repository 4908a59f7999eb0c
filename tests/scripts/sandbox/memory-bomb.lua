-- Strings of a kilobyte until the memory cap (32 MiB, charged 1 instruction
-- per 64 bytes: the cap comes first).
local t = {}
local kb = ("x"):rep(1000)
for i = 1, 100000000 do t[i] = kb .. i end
