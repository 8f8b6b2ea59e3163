-- "This evening" and "tomorrow morning" in the snooze menu (HH:MM, the user's time zone).
ALTER TABLE users ADD COLUMN morning_time TEXT NOT NULL DEFAULT '08:00';
ALTER TABLE users ADD COLUMN evening_time TEXT NOT NULL DEFAULT '18:00';
