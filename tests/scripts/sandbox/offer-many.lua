-- Offers `offers` options to every action decision, each doing nothing:
-- one plugin may offer 1000 in a row (MAX_PLUGIN_OPTIONS), and with
-- offer-many-too.lua two plugins 1000 each to the same decision.
carc.option_int("offers", 600, 1, 5000, "options offered to each action decision")
carc.on("action-offer", function(ev)
  for i = 1, carc.option("offers") do carc.offer({ code = 1, a = i }) end
end)
carc.format(function(o) return "east-offer " .. o.a end)
carc.apply(function(o, player) end)
