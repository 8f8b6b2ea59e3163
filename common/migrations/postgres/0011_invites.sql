-- Invitations to a list (decisions.md "Households": by email, 7 days, single use). The token
-- is stored as a keyed hash; the mail's copy of it is sealed until the mail worker has sent
-- it (then NULL), so the queue names the row, never the secret.
CREATE TABLE list_invites (
    id TEXT PRIMARY KEY,
    list_id TEXT NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
    inviter_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    token_hash BYTEA NOT NULL UNIQUE,
    mail_secret BYTEA,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    accepted_at BIGINT
);
CREATE INDEX list_invites_list ON list_invites(list_id, accepted_at, expires_at);
CREATE INDEX list_invites_inviter ON list_invites(inviter_id, created_at);
