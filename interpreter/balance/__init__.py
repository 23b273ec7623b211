"""Balance runs: many seeded games between cards, stored as they finish, and a report of them.

plan.py lists the games, seeding.py seeds each one, runner.py plays a batch of them, backends.py
sends batches to processes (a local pool, or Ray), store.py keeps the results in SQLite, run.py
ties these together for the command, and stats.py, ratings.py and report.py turn the stored
results into figures and a page.
"""
