-- Lands `awards` zero-point awards at every turn's start (by carc.award,
-- or through a batch). Found: five lines landing 250,000 such awards an
-- event made one game hold 2.1 GB, memory the script's cap never saw.
carc.option_int("awards", 250000, 1, 1000000, "awards a turn")
carc.option_enum("how", "award batch", "how they land")
local reason = carc.define_reason("flood")
carc.on("turn-start", function(ev)
  local n = carc.option("awards")
  if carc.option("how") == 1 then
    carc.batch_begin()
    for i = 1, n do carc.batch_add(0, 0, reason, -1, 0) end
    carc.batch_commit(0)
  else
    for i = 1, n do carc.award(0, 0, reason) end
  end
end)
