"""The `santorini` command line (cli.py, whose `main` is the entry point): thin click commands
over the games subpackage, with one clear message and exit code for every failure."""
