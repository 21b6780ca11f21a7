"""Quick play and challenges: players asking for a game by rule set, players and pace, seated together by rating
(docs/ratings.md); named accounts invited to a game."""
