-- An option text with a line break and '#': the saved game got an extra
-- line and a comment, and no longer replayed.
carc.on("action-offer", function(ev) carc.offer({code = 1}) carc.offer({code = 2}) end)
carc.format(function(opt) if opt.code == 1 then return "wait\ndraw base:D # x" end return "end" end)
carc.apply(function(opt, player) end)
