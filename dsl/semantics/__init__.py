"""What sentences mean: the checker (does each sentence make sense where it stands?) and the
compiler (checked sentences to the hooks of dsl.vocabulary)."""
