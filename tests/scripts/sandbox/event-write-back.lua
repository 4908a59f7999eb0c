-- Finding: the event was read back outside Lua's protection: a value that
-- is not an integer made carc abort.
carc.on("turn-start", function(ev)
  ev.value = "x"
end)
