"""The typed rule vocabulary: all that crosses from the language to the interpreter.

kinds: the closed sets of words, as enums; parts: conditions, selectors, effects and steps;
hooks: what a compiled card attaches to each hook point.
"""

from .hooks import (BoardRule, DomeLike, FirstTurn, FollowUp, LoseWhenStuck, Obligation, OppositeEdges, PlaceFirst, Placement,
                    PlacementArea, Power, Program, Prohibition, Reaction, Reserve, SetupRule, StepOption, Teams, WinOnStep,
                    WinVeto, WinWhen, WorkerSexes)
from .kinds import (Compare, Counter, FollowUpTiming, HappeningKind, IfPossible, RulesKind, Modality, Owner, Pairing, Piece, Quantity, Region, Role, Scope, SetupKind, Sex, SpaceProperty, Timing,
                    SpaceRef, TokenKind, Verb)
from .parts import (ANY_NUMBER, CONDITION_TYPES, EFFECT_TYPES, ONCE, AllOf, AnyOf, BuildThere, ChangeCounter, Condition, CountIs, Effect,
                    Flanked, Force, Happened, LastMoves, LevelChange, Near, Not, OccupiedBy, PieceIs, PlayerCount, Repeat, SameSpace, SpaceIs,
                    SpaceSelector, StandsHighest, Step, StepPattern, TargetLevel, Where, WorkerSelector, WorkersAre)

__all__ = [
    "ANY_NUMBER", "CONDITION_TYPES", "EFFECT_TYPES", "ONCE", "AllOf", "AnyOf", "BoardRule", "BuildThere", "ChangeCounter", "Counter", "DomeLike", "Reaction", "TokenKind", "OppositeEdges", "PlaceFirst", "PlacementArea",
    "Reserve", "SetupRule", "SetupKind", "Timing", "HappeningKind", "IfPossible", "RulesKind", "Teams", "FirstTurn", "Pairing", "WorkerSexes", "Compare", "Condition",
    "CountIs", "Effect", "Flanked", "FollowUp", "FollowUpTiming", "Force", "Happened", "LevelChange", "LoseWhenStuck",
    "LastMoves", "Modality", "Near", "Not", "Obligation", "Sex", "StandsHighest", "WinVeto", "WinWhen", "WorkersAre",
    "OccupiedBy", "Owner", "Piece", "PieceIs", "PlayerCount", "Placement", "Power", "Program", "Prohibition", "Quantity",
    "Region", "Repeat", "Role", "SameSpace", "Scope", "SpaceIs", "SpaceProperty", "SpaceRef", "SpaceSelector",
    "Step", "StepOption", "StepPattern", "TargetLevel", "Verb", "Where", "WinOnStep", "WorkerSelector",
]
