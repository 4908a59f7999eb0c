-- place-east.lua: a placement filter written as a script (test_placement.c):
-- no tile west of the start tile's column. carc.offered_at(i) of a kernel
-- place option: a = x, b = y, c = rotation (quarter turns), seg = the tile
-- type. ev.flags is carc's CARC_PLACE_PROBE (2) when the kernel only asks
-- whether the drawn tile can be placed.
carc.on("place-filter", function(ev)
  for i = 0, carc.offered() - 1 do
    local o = carc.offered_at(i)
    if o.kernel and o.a < 0 then carc.veto(i) end
  end
end)
