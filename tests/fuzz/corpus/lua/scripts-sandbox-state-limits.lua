carc.on("turn-start", function(ev)
  carc.state[carc.option("which") == 0 and "a-key-that-is-far-too-long-for-the-store" or "t"] = {}
end)
carc.option_enum("which", "long-key table", "which mistake to make")
