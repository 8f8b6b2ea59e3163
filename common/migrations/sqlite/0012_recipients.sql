-- Delivery for many people (decisions.md "Households"): an entry may be for named people
-- only (a personal snooze, a rotation's turn; NULL: everyone the reminder rings for), a
-- device's send records whose device it was, and an act records who acted.
ALTER TABLE delivery_logs ADD COLUMN for_users TEXT;
ALTER TABLE delivery_logs ADD COLUMN action_by TEXT;
ALTER TABLE deliveries ADD COLUMN user_id TEXT;
-- Who a pending snooze rings for (JSON array of user ids; NULL: everyone).
ALTER TABLE fires ADD COLUMN for_users TEXT;
-- Whose turn the next occurrence of a rotating reminder is (an index into its assignees).
ALTER TABLE reminders ADD COLUMN rotation_next BIGINT NOT NULL DEFAULT 0;

-- An email fallback per person an entry rang for (their own delay from their settings, 0
-- when they had no device; pending until `emailed_at` is set, or the row goes when it is
-- answered): the entry-wide column it replaces held only the owner's. No foreign keys here:
-- on SQLite they made every insert of delivery log entries three times slower (measured:
-- a burst of 10,000, p99 0.5 s to 1.4-2.8 s); housekeeping removes rows whose entry or person
-- is gone.
CREATE TABLE fallbacks (
    log_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    minutes BIGINT NOT NULL,
    emailed_at BIGINT,
    PRIMARY KEY (log_id, user_id)
);
INSERT INTO fallbacks (log_id, user_id, minutes)
SELECT id, user_id, fallback_minutes FROM delivery_logs WHERE fallback_minutes IS NOT NULL;
UPDATE delivery_logs SET fallback_minutes = NULL WHERE fallback_minutes IS NOT NULL;
