"""The generic turn interpreter: the `Engine`, which compiles each seat's turn programs into a
chain of step closures (steps.py) sharing one traversal context (walk.py) and ready-made action
tuples (actions.py), and uses that chain to enumerate outcomes, check and play turns, and count
perft."""
