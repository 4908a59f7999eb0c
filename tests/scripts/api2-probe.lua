-- api2-probe.lua: a test fixture for plugin API version 2 in scripts, one
-- behaviour per value of probe.mode (tests/scenarios/probe-*.rec):
--   relabel   score-before: road points are relabelled "probe-inn"
--   withdraw  feature-scored: every city award is withdrawn from the batch
--   extra     every turn is followed by an extra turn of the same player
--   owner     action-filter: the kernel's farmer deploys are vetoed, found by
--             option_owner and option_text
--   echo      feature-scored: a bonus of ev.value (the feature's value) to
--             seat 0, reason "probe-echo"
--   farm      feature-value of a farm: +1 (in the per-city modes, the points
--             per city of that farm's winners)
--   dup       action-offer: an option of its own that reads "pass", like the
--             kernel's (an error when the decision's texts are read)
carc.option_enum("mode", "none relabel withdraw extra owner echo farm dup", "what the probe does")
local INN = carc.define_reason("probe-inn")
local ECHO = carc.define_reason("probe-echo")
local ROAD, CITY, FIELD = carc.reason("road"), carc.kind("city"), carc.kind("field")
local RELABEL, WITHDRAW, EXTRA, OWNER, ECHO_MODE, FARM, DUP = 1, 2, 3, 4, 5, 6, 7

carc.on("score-before", function(ev)
  if carc.option("mode") == RELABEL and ev.award.reason == ROAD then ev.award.reason = INN end
end)

carc.on("feature-scored", function(ev)
  local mode = carc.option("mode")
  if mode == WITHDRAW and carc.feature_kind(ev.feature) == CITY then
    for i = carc.batch_count() - 1, 0, -1 do
      if carc.batch_at(i).feature == ev.feature then carc.batch_withdraw(i) end
    end
  elseif mode == ECHO_MODE then
    carc.batch_add(0, ev.value, ECHO, ev.feature, carc.AWARD_BONUS)
  end
end)

carc.on("turn-start", function(ev)
  if carc.option("mode") == EXTRA and not carc.in_extra_turn() then carc.extra_turn() end
end)

carc.on("action-filter", function(ev)
  if carc.option("mode") ~= OWNER then return end
  for i = 0, carc.offered() - 1 do
    local text = carc.option_text(i)
    if carc.option_owner(i) == "kernel" and text:find("^deploy follower field@") then carc.veto(i) end
  end
end)

carc.on("feature-value", function(ev)
  if carc.option("mode") == FARM and carc.feature_kind(ev.feature) == FIELD then ev.value = ev.value + 1 end
end)

carc.on("action-offer", function(ev)
  if carc.option("mode") == DUP then carc.offer({ code = 1 }) end
end)

carc.format(function(opt) return "pass" end)
carc.apply(function(opt, player) end)
