"""Each game's own knowledge for the search, one module a game (see :mod:`..hooks`)."""
