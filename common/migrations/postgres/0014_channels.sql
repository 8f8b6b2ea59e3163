-- Channels besides Web Push and email (decisions.md "Reach and rhythm"): ntfy, webhook,
-- Telegram and LINE. The address (a topic or webhook URL, a chat or user id) and the secret
-- (an ntfy token, a webhook's signing secret) are sealed like reminder contents; a pending
-- Telegram or LINE channel keeps the keyed hash of its link code until it is linked.
CREATE TABLE channels (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    status TEXT NOT NULL,
    use_rings BIGINT NOT NULL DEFAULT 1,
    use_fallback BIGINT NOT NULL DEFAULT 0,
    address BYTEA,
    secret BYTEA,
    link_code TEXT,
    -- A keyed hash of a linked Telegram chat's or LINE user's id: a bot's update finds its
    -- channel by it (the address itself is sealed).
    address_hash TEXT,
    failures BIGINT NOT NULL DEFAULT 0,
    tested_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX channels_user ON channels(user_id);
CREATE UNIQUE INDEX channels_link_code ON channels(link_code);
CREATE INDEX channels_address_hash ON channels(address_hash);

-- One row per (entry, channel, purpose) sent: a ring or a fallback goes to a channel once,
-- whatever runs twice.
CREATE TABLE channel_sends (
    log_id TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    purpose TEXT NOT NULL,
    status TEXT NOT NULL,
    response_status BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (log_id, channel_id, purpose)
);

-- An escalation entry (kind 'escalation'): the step it carries out (JSON {after_times, to,
-- member_id?}), for the people its repeat rang for.
ALTER TABLE delivery_logs ADD COLUMN escalation TEXT;
