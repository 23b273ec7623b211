"""The generic chain: each seat's turn programs compiled into chains of step closures
(steps.py) over one traversal context (walk.py), with conditions compiled once (conditions.py),
the effects applied and undone (effects.py) and ready-made action tuples (actions.py). It is the
reference every faster path agrees with; it imports neither the engine that runs it nor the speed
layers (`interpreter/fast/`, `interpreter/derived/`), which build on it."""
