-- Finding: rawset(_G, ...) got round the read-only globals.
carc.on("turn-start", function(ev)
  rawset(_G, "count", (count or 0) + 1)
end)
