"""The web playground: `santorini serve` starts a local server whose page plays any cards in the
browser. The page holds no rules; the server (app.py) calls the library for every answer, and
keeps each game at a table (tables.py) that people and agents play."""

from .app import create_app, serve

__all__ = ["create_app", "serve"]
