"""The position and how it is written: the 5x5 board's geometry (squares, neighbours, hashing
keys), the flat mutable game state with its log of turns, and the turn and board notation of
docs/spec/scenarios.md. Nothing here knows a rule."""
