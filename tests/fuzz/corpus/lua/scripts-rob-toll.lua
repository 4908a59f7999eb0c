-- rob-toll.lua: a test fixture for ROB-13. Whoever places a tile that is a
-- cloister alone in a field (base:B: two segments, the first a cloister)
-- pays a toll of 2 points (reason "toll"): their score marker moves
-- backwards, as some expansions make it do.
local reason = carc.define_reason("toll")
local CLOISTER = carc.kind("cloister")

carc.on("tile-placed", function(ev)
  if carc.segments(ev.tile) == 2 and carc.segment_kind(ev.tile, 0) == CLOISTER then
    carc.step_begin()
    carc.award(ev.player, -2, reason, -1, 0)
    carc.step_end()
  end
end)
