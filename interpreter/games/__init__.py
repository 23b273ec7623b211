"""What is built on the engine: rule packs and their compile cache, a game's setup (seats,
powers, placement), whole games between agents (random or human), game records and replay,
scenario files, `santorini bench` and `santorini check`."""
