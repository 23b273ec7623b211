"""The derived engine: a seat's turn lowered from its typed parts to generated code (steps.py)."""
