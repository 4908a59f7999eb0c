-- carc reads a table given to carc.offer raw: the event table, filled as
-- the handler reads it, is filled whole first, so the option offered from
-- it carries the event's tile though the handler never read ev.tile.
carc.on("action-offer", function(ev)
  carc.offer(ev)
  local o = carc.offered_at(carc.offered() - 1)
  if ev.tile < 0 or o.tile ~= ev.tile then
    error("the option offered from the event has tile " .. o.tile .. ", the event " .. ev.tile)
  end
end)
carc.format(function(o) return "event-option " .. o.tile end)
carc.apply(function(o, player) end)
