-- offer-many.lua's twin, its texts its own.
carc.option_int("offers", 600, 1, 5000, "options offered to each action decision")
carc.on("action-offer", function(ev)
  for i = 1, carc.option("offers") do carc.offer({ code = 1, a = i }) end
end)
carc.format(function(o) return "west-offer " .. o.a end)
carc.apply(function(o, player) end)
