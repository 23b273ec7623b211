"""Santorini rules engine: god powers as data, one generic turn interpreter.

    import santorini
    game = santorini.Game(["Apollo", "Athena"])   # see santorini.api

The names below are loaded when first used, so that `import santorini` (and the command line,
which imports the package) does not compile the rule language before it is needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: The public names, by the module that defines each.
_EXPORTS = {
    "Game": "api", "Turn": "api", "NothingToUndo": "api",
    "SantoriniError": "dsl.errors",
    "IllegalTurn": "interpreter.engine.engine", "GameOver": "interpreter.engine.engine",
    "NotationError": "interpreter.model.notation",
    "SetupError": "interpreter.games.game",
    "UnknownName": "interpreter.games.packs", "PackError": "interpreter.games.packs",
    "pack_names": "interpreter.games.packs",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # (the names as a type checker sees them: re-exported)
    from .api import Game as Game
    from .api import NothingToUndo as NothingToUndo
    from .api import Turn as Turn
    from .dsl.errors import SantoriniError as SantoriniError
    from .interpreter.engine.engine import GameOver as GameOver
    from .interpreter.engine.engine import IllegalTurn as IllegalTurn
    from .interpreter.games.game import SetupError as SetupError
    from .interpreter.games.packs import PackError as PackError
    from .interpreter.games.packs import UnknownName as UnknownName
    from .interpreter.games.packs import pack_names as pack_names
    from .interpreter.model.notation import NotationError as NotationError

def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'santorini' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
