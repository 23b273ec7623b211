"""The turn interpreter: the `Engine`, which runs each seat's turn programs on the generic chain
(`interpreter/chain/`) and hands counting, drawing, listing and searching to the speed layers
(`interpreter/derived/`, `interpreter/fast/`) where they serve; and the words of a refused step
(refusal.py). Imports go one way: engine -> speed layers -> chain -> model."""
