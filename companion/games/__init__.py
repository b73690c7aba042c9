"""Pure rules engines, one module per game, all with the Game/State shape of ARCHITECTURE.md."""
