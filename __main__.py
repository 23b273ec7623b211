"""`python -m santorini` is the `santorini` command."""

from santorini.interpreter.cli.cli import main

main()
