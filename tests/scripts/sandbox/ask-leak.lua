-- Finding: carc.ask with a bad option never freed its option array; under
-- pcall it leaked hundreds of megabytes a call.
local opts = {}
for i = 1, 1000 do opts[i] = {} end
opts[2] = 1
carc.on("turn-start", function(ev)
  while true do pcall(carc.ask, 0, "pick", opts) end
end)
