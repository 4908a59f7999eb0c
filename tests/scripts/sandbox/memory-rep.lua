-- 2^39 bytes, from 1.5 million pieces (each piece is charged: under the
-- budget): refused by the memory cap, not allocated.
local s = ("x"):rep(1 << 20):rep(1 << 19)
