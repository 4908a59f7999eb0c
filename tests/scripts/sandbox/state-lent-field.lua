-- Finding 7: the event table is given again to the next call: a field of
-- the script's own there would carry over.
carc.on("turn-start", function(ev)
  ev.count = (ev.count or 0) + 1
end)
