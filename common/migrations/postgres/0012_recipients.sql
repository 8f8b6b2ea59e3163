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
