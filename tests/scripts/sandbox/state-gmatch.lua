-- Finding 7: a gmatch iterator made at load time keeps its position.
local words = ("north east south west"):gmatch("%a+")
carc.on("turn-start", function(ev) words() end)
