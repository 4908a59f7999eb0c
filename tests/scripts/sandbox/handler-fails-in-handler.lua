-- Found by fuzzing: Lua 5.4.4 itself loses the buffer of a string.gsub
-- running in a message handler that fails, when the handler around it fails
-- too: lua_close does not free it (about 8 KB here). carc
-- frees what the state still holds when it closes it.
xpcall(function() error("g") end, function(m)
  table.sort({ 2, 1 }, function(a, b)
    xpcall(function() error("c") end, function(m2)
      string.rep("abc", 500):gsub(".", function(c) error("d") end)
      return m2
    end)
    return a < b
  end)
  error("y")
end)
