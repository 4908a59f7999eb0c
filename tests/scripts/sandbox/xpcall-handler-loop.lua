-- Finding: an error raised by the budget's hook reached xpcall's message
-- handler, which Lua runs with hooks off: this handler looped for ever.
xpcall(error, function() while true do end end)
