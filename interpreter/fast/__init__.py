"""Fast paths that the engine uses in place of the generic step chain where a turn's shape
allows it: the plain turn (plain.py), counted random picks of its common variants (counted.py),
a second compilation of each program for enumeration (enumeration.py), and playing a turn the
engine has just found legal (known_turns.py). Each must agree with the step chain exactly."""
