"""The syntax of the rule language: the grammar (rules.lark), the word lexer, the parser and the
syntax tree it builds."""
