-- A script error names the file and the line.
local function boom()
  error("boom")
end
boom()
