"""The rule language: grammar, parser, checker and compiler."""

#: The version of the rule language this code reads (docs/language.md, "Versioning").
LANGUAGE_VERSION = 1
