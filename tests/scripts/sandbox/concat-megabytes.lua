-- Copying a megabyte is one instruction (a concatenation) but takes about
-- 50 us, the time of some 15,000 instructions: allocation is charged one
-- instruction per 64 bytes, so 200 copies are over one call's budget,
-- though the call ends before its first count hook (every 1,000
-- instructions): the call's end checks the budget too.
local mb = ("x"):rep(1024):rep(1024)
carc.on("turn-start", function(ev)
  for i = 1, 200 do local s = mb .. i end
end)
