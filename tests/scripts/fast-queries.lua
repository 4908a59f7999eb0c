-- fast-queries.lua: checks, every turn of a game, that the queries which
-- build nothing (carc.figure_fields, carc.each_figure, carc.each_figure_on,
-- carc.offer with arguments) say what the table forms say, and that the
-- event tables carc lends (and refills) keep a nested call's table apart.
-- carc.offer_walks offers the walks a walk in Lua finds, carc.offer_figures
-- the figures carc.figure lists, and carc.award_figures_on pays those
-- figures. Any mismatch stops the game with an error naming it.
local AT_SEGMENT, AT_TILE = carc.AT_SEGMENT, carc.AT_TILE
local OPT = 7
local S = carc.state

local function check(cond, what)
  if not cond then error("mismatch: " .. what, 2) end
end

-- Every figure through carc.figure, as the reference.
local function reference(filter)
  local out = {}
  for id = 0, carc.figures() - 1 do
    local f = carc.figure(id)
    if f and filter(f) then out[#out + 1] = { id, f.kind, f.owner, f.where, f.tile, f.seg, f.space } end
  end
  return out
end

local function same(list, iter, a, b, what)
  local i = 0
  for id, kind, owner, where, tile, seg, space in iter(a, b) do
    i = i + 1
    local r = list[i]
    check(r ~= nil, what .. ": an extra figure " .. id)
    check(r[1] == id and r[2] == kind and r[3] == owner and r[4] == where and r[5] == tile and r[6] == seg
      and r[7] == space, what .. ": figure " .. id)
  end
  check(i == #list, what .. ": " .. i .. " figures instead of " .. #list)
  S.checks = (S.checks or 0) + 1
end

carc.on("turn-start", function(ev)
  local player, kind = ev.player, ev.type
  -- figure_fields against figure
  for id = -1, carc.figures() do
    local f = carc.figure(id)
    local k, o, w, t, s, sp = carc.figure_fields(id)
    if f then
      check(k == f.kind and o == f.owner and w == f.where and t == f.tile and s == f.seg and sp == f.space,
        "figure_fields " .. id)
    else
      check(k == nil, "figure_fields of no figure " .. id)
    end
  end
  same(reference(function() return true end), carc.each_figure, nil, nil, "each_figure()")
  for p = -1, carc.players() - 1 do
    same(reference(function(f) return f.owner == p end), carc.each_figure, p, nil, "each_figure(" .. p .. ")")
    same(reference(function(f) return f.owner == p and f.where == AT_SEGMENT end), carc.each_figure, p, AT_SEGMENT,
      "each_figure(" .. p .. ", AT_SEGMENT)")
  end
  same(reference(function(f) return f.where == AT_TILE end), carc.each_figure, nil, "tile", "each_figure(nil, 'tile')")
  for t = 0, carc.tiles() - 1 do
    same(reference(function(f) return f.tile == t and (f.where == AT_SEGMENT or f.where == AT_TILE) end),
      carc.each_figure_on, t, nil, "each_figure_on(" .. t .. ")")
  end
  -- award_figures_on: an award per figure a player owns on a segment of
  -- the tile (followers of kind 0 only, or every kind, turn by turn), in id
  -- order, as carc.figure lists them; score-before sees each in turn.
  S.turns = (S.turns or 0) + 1
  local t, mask = S.turns * 7 % carc.tiles(), S.turns % 2
  local owners = {}
  for _, r in ipairs(reference(function(f)
    return f.tile == t and f.where == AT_SEGMENT and f.owner >= 0 and (mask == 0 or f.kind == 0)
  end)) do owners[#owners + 1] = r[3] end
  for i, o in ipairs(owners) do S["aw" .. i] = o end
  S.awarding, S.awarded = true, 0
  carc.step_begin()
  local n = carc.award_figures_on(t, AT_SEGMENT, mask, 2, carc.reason("fast-queries"))
  carc.step_end()
  S.awarding = nil
  check(n == #owners and S.awarded == n, "award_figures_on's count")
  for i = 1, #owners do S["aw" .. i] = nil end
  check(carc.award_figures_on(t, AT_TILE, 0, 1, carc.reason("fast-queries")) == 0, "award_figures_on: nobody's figure on a tile itself")
  -- A nested call (the score events of this award reach this script's own
  -- handlers) gets its own table: this one is unchanged after it.
  carc.step_begin()
  carc.award(player, 0, carc.reason("fast-queries"))
  carc.step_end()
  check(ev.type == kind and ev.player == player, "the event table after a nested call")
  ev.tile = "scribbled" -- must not reach the next event
  check(not pcall(function() ev.extra = true end), "a field of the script's own in the event is refused")
end)

carc.define_reason("fast-queries")
carc.on("score-before", function(ev)
  check(ev.type == "score-before" and ev.award ~= nil, "score-before's table")
  S.nested = (S.nested or 0) + 1
end)

-- The awards of award_figures_on as they land (another script's, the
-- robbers' share, may land between them).
carc.on("score-after", function(ev)
  if not S.awarding or ev.award.reason ~= carc.reason("fast-queries") then return end
  local i = S.awarded + 1
  S.awarded = i
  check(ev.award.player == S["aw" .. i] and ev.award.points == 2 and ev.award.feature == -1,
    "award_figures_on's award " .. i)
end)

carc.on("tile-placed", function(ev)
  check(ev.type == "tile-placed" and ev.tile == carc.placed_tile(), "tile-placed's fields")
  check(ev.award == nil and ev.option == nil, "tile-placed has no award or option")
end)

-- The walks of up to WALK steps from the placed tile, found here the slow
-- way (every path over placed tiles that never enters a visited tile,
-- depth-first N E S W), as carc.offer_walks must offer them.
local WALK, WALK_OPT = 3, OPT + 2
local DX, DY = { [0] = 0, 1, 0, -1 }, { [0] = -1, 0, 1, 0 }
local function walks(x, y, depth, dirs, visited, out)
  for d = 0, 3 do
    local nx, ny = x + DX[d], y + DY[d]
    local t = carc.tile_at(nx, ny)
    if t >= 0 and not visited[t] then
      local code = dirs | (d << (2 * depth))
      out[#out + 1] = { a = code, b = depth + 1 }
      if depth + 1 < WALK then
        visited[t] = true
        walks(nx, ny, depth + 1, code, visited, out)
        visited[t] = nil
      end
    end
  end
  return out
end
local function walks_from(t)
  local x, y = carc.tile_pos(t)
  return walks(x, y, 0, 0, { [t] = true }, {})
end

-- The figures carc.offer_figures offers: the player's followers (kind 0)
-- on segments but the first, and the neutral figures on tiles of any kind.
local FIG_OPT = OPT + 4
local function figure_offers(player)
  local mine = reference(function(f) return f.owner == player and f.where == AT_SEGMENT and f.kind == 0 end)
  local out = {}
  for i = 2, #mine do out[#out + 1] = { code = FIG_OPT, tile = mine[i][5], seg = mine[i][6], a = mine[i][1] } end
  for _, r in ipairs(reference(function(f) return f.owner == -1 and f.where == AT_TILE end)) do
    out[#out + 1] = { code = FIG_OPT + 1, tile = r[5], seg = -1, a = r[1] }
  end
  return out, mine[1] and mine[1][1] or -1
end

-- Offers in both forms; action-filter checks each pair matches.
carc.on("action-offer", function(ev)
  local expected, first = figure_offers(ev.player)
  local n = carc.offer_figures(ev.player, AT_SEGMENT, 1, FIG_OPT, first) + carc.offer_figures(-1, AT_TILE, 0, FIG_OPT + 1)
  check(n == #expected, "offer_figures' count")
  local t = carc.placed_tile()
  carc.offer({ code = OPT, tile = t, seg = -1, a = 1, b = 2, c = 3 })
  carc.offer(OPT, t, -1, 1, 2, 3)
  carc.offer({ code = OPT + 1 })
  carc.offer(OPT + 1)
  check(carc.offer_walks(t, WALK, WALK_OPT, t) == #walks_from(t), "offer_walks' count")
end)

carc.on("action-filter", function(ev)
  local mine, at = {}, {}
  for i = 0, carc.offered() - 1 do
    local o = carc.offered_at(i)
    if o.code == OPT or o.code == OPT + 1 then mine[#mine + 1], at[#at + 1] = o, i end
  end
  -- offer_walks: the walks found in Lua, in that order, then vetoed
  local expected_walks, k = walks_from(carc.placed_tile()), 0
  for i = 0, carc.offered() - 1 do
    local o = carc.offered_at(i)
    if o.code == WALK_OPT then
      k = k + 1
      local e = expected_walks[k]
      check(e ~= nil and o.a == e.a and o.b == e.b and o.c == 0 and o.tile == carc.placed_tile() and o.seg == -1,
        "offer_walks' walk " .. k)
      carc.veto(i)
    end
  end
  check(k == #expected_walks, "offer_walks offered " .. k .. " walks instead of " .. #expected_walks)
  -- offer_figures: the figures found through carc.figure, in that order, then vetoed
  local expected_figures = figure_offers(ev.player)
  k = 0
  for i = 0, carc.offered() - 1 do
    local o = carc.offered_at(i)
    if o.code == FIG_OPT or o.code == FIG_OPT + 1 then
      k = k + 1
      local e = expected_figures[k]
      check(e ~= nil and o.code == e.code and o.tile == e.tile and o.seg == e.seg and o.a == e.a and o.b == 0
        and o.c == 0, "offer_figures' option " .. k)
      carc.veto(i)
    end
  end
  check(k == #expected_figures, "offer_figures offered " .. k .. " options instead of " .. #expected_figures)
  S.figure_offers = (S.figure_offers or 0) + k
  S.walks = (S.walks or 0) + k
  check(#mine == 4, #mine .. " options of the script instead of 4")
  for i = 1, 3, 2 do
    local x, y = mine[i], mine[i + 1]
    check(x.code == y.code and x.tile == y.tile and x.seg == y.seg and x.a == y.a and x.b == y.b and x.c == y.c,
      "offer as arguments " .. i)
  end
  check(mine[3].tile == -1 and mine[3].seg == -1 and mine[3].a == 0, "the defaults of an offer")
  -- each pair differs only in form: one of each is enough
  carc.veto(at[2])
  carc.veto(at[4])
end)

carc.format(function(o) return o.code == OPT and "fast-a" or "fast-b" end)
carc.apply(function(o, player)
  check(o.code == OPT or o.code == OPT + 1, "apply's option")
end)

-- The checks ran, and nested calls happened.
carc.on("game-end", function(ev)
  check((S.checks or 0) > 0 and (S.nested or 0) > 0 and (S.walks or 0) > 0 and (S.figure_offers or 0) > 0,
    "no check ran")
end)
