-- held-figures.lua: checks the kernel's figures held by a player (plugin
-- API version 6) on every turn of real games, stopping the game (carc.fail)
-- on anything that disagrees. At each turn's start the active player takes
-- the first follower of the next player standing on a segment, checks what
-- the kernel says of it, and every third turn frees what he holds.
-- carc.state: cap, fre = the figure-captured and figure-freed events seen;
-- last = the figure captured last.

local S = carc.state
local FOLLOWER = carc.figure_kind("follower")

local function check(cond, what)
  if not cond then carc.fail("held-figures.lua: " .. what) end
end

carc.game_init(function() S.cap, S.fre = 0, 0 end)

carc.on("figure-captured", function(ev)
  S.cap = S.cap + 1
  check(ev.figure == S.last, "figure-captured names another figure")
  check(ev.player == carc.active_player(), "figure-captured names another holder")
  check(ev.value == FOLLOWER and ev.tile >= 0 and ev.feature >= 0, "figure-captured: kind, tile or feature")
end)

carc.on("figure-freed", function(ev)
  S.fre = S.fre + 1
  check(ev.player == carc.active_player() and ev.flags == 1, "figure-freed: holder or how")
end)

carc.on("turn-start", function(ev)
  local me = ev.player
  local other = (me + 1) % carc.players()
  if other == me then return end
  for id, kind, owner, where, tile, seg in carc.each_figure(other, carc.AT_SEGMENT) do
    local f = carc.feature(tile, seg)
    local before = carc.feature_followers(f, other)
    local supply = carc.supply(other, FOLLOWER)
    local held = carc.held_figures(me, other)
    S.last = id
    carc.figure_capture(id, me)
    local k, o, w, t, s, space = carc.figure_fields(id)
    check(k == kind and o == other and w == carc.AT_HELD and t == -1 and s == -1 and space == me,
          "a held figure's fields")
    check(carc.feature_followers(carc.feature(tile, seg), other) == before - 1, "the feature kept the follower")
    check(carc.supply(other, FOLLOWER) == supply, "the supply changed")
    check(carc.held_figures(me, other) == held + 1 and carc.held_figures(me) >= held + 1
          and carc.held_figures(me, other, FOLLOWER) == held + 1, "held_figures")
    for fid in carc.each_figure_on(tile) do check(fid ~= id, "the tile still lists the held figure") end
    local seen = false
    for fid, _, _, _, _, _, holder in carc.each_figure(other, "held") do seen = seen or (fid == id and holder == me) end
    check(seen, "each_figure(owner, 'held') misses it")
    break
  end
  if carc.turn() % 3 == 0 then
    for id, kind, owner in carc.each_figure(nil, "held") do
      local _, _, _, _, _, holder = carc.figure_fields(id)
      if holder == me then
        local supply = carc.supply(owner, kind)
        carc.figure_free(id)
        check(carc.supply(owner, kind) == supply + 1, "figure_free: not back in the supply")
        check(carc.figure(id) == nil, "figure_free: the slot is not free")
      end
    end
  end
end)

carc.on("game-end", function()
  check(S.cap > 0 and S.fre > 0, "nothing was captured or freed")
end)
