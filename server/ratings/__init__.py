"""Ratings: one per account (or computer strategy) and rule set, worked out from rated games' final rankings with
OpenSkill's Weng-Lin model, and the ladders read from them (docs/ratings.md)."""
