-- Alerts before an occurrence (JSON [{"before_minutes": n}]) and repeat until done (JSON or
-- NULL); an alert or repeat entry names the occurrence it belongs to.
ALTER TABLE reminders ADD COLUMN alerts TEXT NOT NULL DEFAULT '[{"before_minutes":0}]';
ALTER TABLE reminders ADD COLUMN repeat_until_done TEXT;
ALTER TABLE delivery_logs ADD COLUMN occurrence_of BIGINT;
