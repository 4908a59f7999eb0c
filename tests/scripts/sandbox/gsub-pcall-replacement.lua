-- Finding: gsub's C-function replacement was charged by the strings it got
-- (an empty match: one instruction), while pcall there, given the match (a
-- string) to call, builds an error message each time: about 200 ns a
-- match, a 65,536-byte string 13 ms a call, and a sort comparator doing it
-- took a game to 8.5 s under every limit. Now each call of a C function
-- given to gsub is charged 64 instructions (LUA_GUARD_GSUB_C_CALL): the
-- first handler meets the budget.
carc.on("turn-start", function(ev)
  table.sort({ 3, 1, 2, 5, 4 }, function(a, b)
    pcall(string.gsub, string.rep("x", 65536), "", pcall)
    return a < b
  end)
end)
