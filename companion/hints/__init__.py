"""Pure advisors: ``advise(state, seat) -> Hint`` per game, from public information only."""
