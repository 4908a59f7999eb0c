-- wall-kind.lua: a test fixture: the segment kind `wall` of
-- tests/tiles/test-wild.ini, whose set declares it wild (wall:X:wild):
-- never complete, no follower on it. The kernel does the rest.
carc.define_kind("wall", "never")
