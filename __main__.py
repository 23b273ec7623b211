"""`python -m santorini` is the `santorini` command."""

from santorini.interpreter.cli import main

main()
