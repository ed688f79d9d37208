"""The rule sets, one module per seed chapter."""
