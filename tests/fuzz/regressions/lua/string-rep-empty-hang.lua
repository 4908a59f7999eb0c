local s = string.rep("", math.maxinteger)
