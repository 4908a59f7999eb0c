-- wait-key.lua: handlers and a phase registered with a carc.state key are
-- called while the key holds a value and never while it does not. A
-- handler without a key sets the keys turn by turn ("on" on even turns, to
-- true or false, the integer key 7 on turns divisible by 3) and checks, at
-- the end of the turn, that each waiting function ran exactly when its key
-- was set. Any mismatch stops the game with an error naming it.
local S = carc.state

local function check(cond, what)
  if not cond then error("wait-key: " .. what, 2) end
end

-- Registered first: runs before the waiting handler of the same event.
carc.on("turn-start", function(ev)
  local turn = carc.turn()
  S.turn = turn
  if turn % 2 == 0 then S.on = turn % 4 == 0 else S.on = nil end -- false is a value too
  if turn % 3 == 0 then S[7] = turn else S[7] = nil end
  S.handler, S.phase, S.int = nil, nil, nil
end)

carc.on("turn-start", function(ev)
  check(S.on ~= nil, "the handler ran while its key was nil")
  S.handler = S.turn
end, "on")

carc.add_phase("wait-key", "after", "place", function(step)
  check(S.on ~= nil, "the phase ran while its key was nil")
  S.phase = S.turn
  return "done"
end, "on")

carc.on("tile-placed", function(ev)
  check(S[7] ~= nil, "the handler of the integer key ran while it was nil")
  S.int = S.turn
end, 7)

carc.on("turn-end", function(ev)
  local turn = S.turn
  check((S.handler == turn) == (turn % 2 == 0), "the handler's calls on turn " .. turn)
  check((S.phase == turn) == (turn % 2 == 0), "the phase's calls on turn " .. turn)
  check((S.int == turn) == (turn % 3 == 0), "the integer key's calls on turn " .. turn)
  S.checked = (S.checked or 0) + 1
end)

carc.on("game-end", function(ev)
  check((S.checked or 0) >= 10, "only " .. tostring(S.checked) .. " turns checked")
end)
