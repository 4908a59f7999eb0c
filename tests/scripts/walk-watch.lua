-- walk-watch.lua: a handler of option-chosen, which sees each option
-- itself: with it in the rules no two options are known to do the same
-- (carc_option_effect answers 0; tests/test_figure_walks.c).
local S = carc.state
carc.on("option-chosen", function(ev)
  S.seen = (S.seen or 0) + 1
end)
