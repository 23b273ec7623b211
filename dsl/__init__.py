"""The rule language: syntax (grammar, lexer, parser, syntax tree), semantics (checker,
compiler) and the typed rule vocabulary that is all the interpreter sees of a card."""

#: The version of the rule language this code reads (docs/language.md, "Versioning").
LANGUAGE_VERSION = 2
