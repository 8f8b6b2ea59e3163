-- Personal API tokens and trigger links (decisions.md "Open to other tools"). Both are
-- 256-bit random secrets kept only as their SHA-256, like session tokens.
CREATE TABLE api_tokens (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- Space-separated: reminders:read reminders:write lists:read lists:write.
    scopes TEXT NOT NULL,
    token_hash BYTEA NOT NULL,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT,
    expires_at BIGINT
);
CREATE UNIQUE INDEX api_tokens_hash ON api_tokens(token_hash);
CREATE INDEX api_tokens_user ON api_tokens(user_id);

-- A trigger link rings, completes or snoozes its reminder for the person who made it.
CREATE TABLE triggers (
    id TEXT PRIMARY KEY,
    reminder_id TEXT NOT NULL REFERENCES reminders(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    secret_hash BYTEA NOT NULL,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT
);
CREATE UNIQUE INDEX triggers_hash ON triggers(secret_hash);
CREATE INDEX triggers_reminder ON triggers(reminder_id);
CREATE INDEX triggers_user ON triggers(user_id);
