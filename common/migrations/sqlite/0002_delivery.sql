-- Push subscriptions: one row per browser/device endpoint.
CREATE TABLE push_subscriptions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    device_info TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    last_success_at BIGINT
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);

-- What the scheduler must fire: at most one pending occurrence and one pending snooze per
-- reminder. Claiming a fire is deleting its row, so two schedulers can never both fire it.
CREATE TABLE fires (
    reminder_id TEXT NOT NULL REFERENCES reminders(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    fire_at BIGINT NOT NULL,
    occurrence_at BIGINT NOT NULL,
    PRIMARY KEY (reminder_id, kind)
);
CREATE INDEX fires_due ON fires(fire_at);

-- One row per (delivery log entry, subscription): the unique key makes a second send of the
-- same occurrence to the same device impossible, whatever runs twice.
CREATE TABLE deliveries (
    log_id TEXT NOT NULL REFERENCES delivery_logs(id) ON DELETE CASCADE,
    subscription_id TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    response_status BIGINT,
    sent_at BIGINT,
    shown_at BIGINT,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (log_id, subscription_id)
);

-- Leader election among schedulers.
CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);

ALTER TABLE delivery_logs ADD COLUMN kind TEXT NOT NULL DEFAULT 'occurrence';
ALTER TABLE users ADD COLUMN last_test_push_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX delivery_logs_pending ON delivery_logs(status, created_at);
