"""Computer opponents that search: simulator, sampler, ISMCTS and the endgame solver."""
