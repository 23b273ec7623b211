"""The turn interpreter and everything around it, in subpackages by concern.

- `model`: the board's geometry, the game state, and turn notation.
- `engine`: the generic turn interpreter: the step chain that runs the compiled powers.
- `fast`: faster stand-ins for the step chain that must agree with it exactly.
- `games`: packs, games, scenarios, records, whole-game play, benchmarks, validation, the cache.
- `cli`: the `santorini` command.
"""
