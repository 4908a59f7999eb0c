-- carc.state holds 64 entries: filled, thinned out, filled again and
-- emptied, every value reads back as it was put (an error fails the game);
-- with which=overfill a 65th entry is refused.
local function check(S, from, to, gone)
  for i = from, to do
    local want = not gone[i] and i * 3 or nil
    if S["k" .. i] ~= want then error("k" .. i .. " reads " .. tostring(S["k" .. i])) end
  end
end

carc.on("turn-start", function(ev)
  local S = carc.state
  local c = (S.c or 0) + 1
  S.c = c
  if c == 1 then
    for i = 1, 63 do S["k" .. i] = i * 3 end -- with c: 64 entries
    check(S, 1, 63, {})
  elseif c == 2 then
    check(S, 1, 63, {})
    S.k5, S.k40, S.k63 = nil, nil, nil
    check(S, 1, 63, {[5] = true, [40] = true, [63] = true})
    S.k5, S.s, S[7] = 15, "kept", true
    check(S, 1, 62, {[40] = true})
    if S.s ~= "kept" or S[7] ~= true or S.c ~= 2 then error("s, 7 or c lost") end
    if carc.option("which") == 1 then S.one_too_many = 1 end
  elseif c == 3 then
    check(S, 1, 62, {[40] = true})
    for i = 1, 63 do S["k" .. i] = nil end
    S.s, S[7] = nil, nil
    local all = {}
    for i = 1, 63 do all[i] = true end
    check(S, 1, 63, all)
    if S.s ~= nil or S[7] ~= nil or S.c ~= 3 then error("s, 7 or c kept") end
  elseif c == 4 then
    for i = 1, 20 do S["k" .. i] = i * 3 end
    check(S, 1, 20, {})
  end
end)
carc.option_enum("which", "fill overfill", "whether to put a 65th entry")
