"""Fast paths that the engine uses in place of the generic step chain where a turn's shape
allows it: the plain turn (plain.py), counted random picks of its common variants (counted.py
and masked.py), the playout loop (playout.py), and playing a turn the engine has just found
legal (known_turns.py). Each must agree with the step chain exactly."""
