"""Board, turn engine, scenario runner and command line."""
