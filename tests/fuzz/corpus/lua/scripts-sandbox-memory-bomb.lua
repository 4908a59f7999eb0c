local t = {}
for i = 1, 100000000 do t[i] = ("x"):rep(100) .. i end
