-- Finding 7: what a weak table keeps depends on when the collector runs.
local cache = setmetatable({}, { __mode = "k" })
