"""The rule language: grammar, parser, checker and compiler."""
