-- The secret calendar feed URL: only a hash of its token is kept (like sessions).
ALTER TABLE users ADD COLUMN calendar_token_hash BYTEA;
CREATE UNIQUE INDEX users_calendar_token ON users (calendar_token_hash);
