-- table.move over 2^63 empty slots allocates nothing and would loop for ever.
table.move({}, 1, math.maxinteger - 1, 2, {})
