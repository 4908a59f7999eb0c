-- Finding: the widest interval overflowed (undefined behaviour).
carc.on("turn-start", function(ev)
  math.random(math.mininteger, math.maxinteger)
end)
