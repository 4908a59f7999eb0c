-- A backtracking pattern over a long string: refused, not run for hours.
local s = string.rep("a", 20000)
return s:find(".-.-.-.-b")
