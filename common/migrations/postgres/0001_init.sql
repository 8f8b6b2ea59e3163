-- Instants are Unix milliseconds; booleans are 0/1 so both backends read them alike.
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    is_active BIGINT NOT NULL DEFAULT 1,
    timezone TEXT NOT NULL DEFAULT 'UTC',
    language TEXT NOT NULL DEFAULT 'en',
    default_snooze_minutes BIGINT NOT NULL DEFAULT 10,
    speak_titles BIGINT NOT NULL DEFAULT 0,
    hide_notification_content BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    last_active_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash BYTEA PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expiry ON sessions(expires_at);

-- One live code per address; a resend replaces it. The link token shares its row, so using
-- either spends both.
CREATE TABLE otp_codes (
    email TEXT PRIMARY KEY,
    code_hash BYTEA NOT NULL,
    link_hash BYTEA NOT NULL UNIQUE,
    lang TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- Consecutive failed code sign-ins per address, across codes.
CREATE TABLE auth_failures (
    email TEXT PRIMARY KEY,
    failures BIGINT NOT NULL,
    blocked_until BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL
);

-- Every email sent or queued, for the hourly caps.
CREATE TABLE mail_log (
    id BIGSERIAL PRIMARY KEY,
    email TEXT NOT NULL,
    kind TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX mail_log_email ON mail_log(email, kind, created_at);

-- title, description, send_to and metadata are AES-256-GCM sealed (see common::crypto).
CREATE TABLE reminders (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    title BYTEA NOT NULL,
    description BYTEA,
    send_to BYTEA,
    metadata BYTEA,
    send_at BIGINT NOT NULL,
    timezone TEXT NOT NULL,
    recurrence TEXT NOT NULL,
    scheduled_at BIGINT,
    is_active BIGINT NOT NULL,
    is_archived BIGINT NOT NULL,
    archived_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX reminders_user ON reminders(user_id, is_active, scheduled_at);
CREATE INDEX reminders_due ON reminders(scheduled_at) WHERE is_active = 1;

-- One entry per delivered occurrence (the delivery pipeline fills it).
CREATE TABLE delivery_logs (
    id TEXT PRIMARY KEY,
    reminder_id TEXT NOT NULL REFERENCES reminders(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    occurrence_at BIGINT NOT NULL,
    sent_at BIGINT,
    status TEXT NOT NULL,
    action TEXT,
    action_at BIGINT,
    late BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (reminder_id, occurrence_at)
);
CREATE INDEX delivery_logs_user ON delivery_logs(user_id, created_at);
CREATE INDEX delivery_logs_created ON delivery_logs(created_at);
