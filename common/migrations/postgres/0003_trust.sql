-- It rings, or it tells you: email fallback, what a device showed, and the send-now kind.

-- Minutes after which an occurrence no device showed goes out by email; NULL = off.
ALTER TABLE users ADD COLUMN email_fallback_minutes BIGINT DEFAULT 5;

-- A pending email fallback: the entry is emailed at occurrence_at + fallback_minutes (0: at
-- its second, no device to go to) unless a device shows it or the person acts first. NULL
-- once shown, acted on, emailed or dropped.
ALTER TABLE delivery_logs ADD COLUMN fallback_minutes BIGINT;
ALTER TABLE delivery_logs ADD COLUMN emailed_at BIGINT;
CREATE INDEX delivery_logs_fallback ON delivery_logs(occurrence_at) WHERE fallback_minutes IS NOT NULL;

ALTER TABLE push_subscriptions ADD COLUMN last_shown_at BIGINT;
CREATE INDEX deliveries_subscription ON deliveries(subscription_id, updated_at);

UPDATE delivery_logs SET kind = 'send_now' WHERE kind = 'manual';
