-- wall-kind.lua: a test fixture: the segment kind `wall` of
-- tests/tiles/test-wild.ini, whose set declares it wild (wall:X:wild):
-- never complete, no follower on it. The kernel does the rest. And, as the
-- C plugin wildcorner does, a neutral `post` at every corner of a placed
-- tile where four fields meet (carc.corner_feature), one post a point.
carc.define_kind("wall", "never")
local POST = carc.define_figure("post", 0)

local function point(x, y, c)
  local px = x + ((c == carc.CORNER_NE or c == carc.CORNER_SE) and 1 or 0)
  local py = y + ((c == carc.CORNER_SE or c == carc.CORNER_SW) and 1 or 0)
  return px, py
end

local function post_at(px, py)
  for f = 0, carc.figures() - 1 do
    local fi = carc.figure(f)
    if fi and fi.where == carc.AT_CORNER and fi.kind == POST then
      local x, y = carc.tile_pos(fi.tile)
      local qx, qy = point(x, y, fi.space)
      if qx == px and qy == py then return true end
    end
  end
  return false
end

carc.on("tile-placed", function(ev)
  local x, y = carc.tile_pos(ev.tile)
  for c = carc.CORNER_NW, carc.CORNER_SW do
    local px, py = point(x, y, c)
    if carc.corner_feature(ev.tile, c, "field") and not post_at(px, py) then
      carc.figure_place(POST, -1, "corner", ev.tile, -1, c)
    end
  end
end)
