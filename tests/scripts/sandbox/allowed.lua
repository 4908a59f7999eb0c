-- The safe libraries are there; the unsafe ones are not.
assert(table.insert and string.format and math.floor and coroutine.create and utf8.char)
assert(pcall and select and tostring and setmetatable)
for _, name in ipairs({ "io", "os", "package", "debug", "require", "dofile", "loadfile", "load",
                        "loadstring", "collectgarbage", "module" }) do
  assert(_G[name] == nil, name .. " is reachable")
end
assert(string.dump == nil, "string.dump is reachable")
assert(getmetatable("") == false, "the strings' metatable is reachable")
assert(("").dump == nil, "string.dump is reachable through strings")
assert(("abc"):upper() == "ABC")
