-- An empty string repeated 2^63-1 times is empty, at once (Lua's own
-- string.rep would loop 2^63 times).
assert(string.rep("", math.maxinteger) == "")
assert(("")["rep"]("", math.maxinteger, "") == "")
assert(#string.rep("", 3, "ab") == 4)
