"""Games that fit lives, away from the game: vacations, and notifications sent by mail and webhook from the store's
outbox, or told at once to an account's live connections (docs/notifications.md)."""
