-- Reach and rhythm (decisions.md): quiet hours and the daily brief per person, break-through
-- per reminder, and rings held for quiet hours.
ALTER TABLE users ADD COLUMN quiet_start TEXT;
ALTER TABLE users ADD COLUMN quiet_end TEXT;
ALTER TABLE users ADD COLUMN brief_time TEXT;
ALTER TABLE users ADD COLUMN brief_via TEXT;
-- When the next brief is due (Unix ms; NULL: off): the scheduler takes it at that instant and
-- moves it on to the next day in the same statement, so it goes out once.
ALTER TABLE users ADD COLUMN brief_next_at BIGINT;
CREATE INDEX users_brief_next_at ON users(brief_next_at);
ALTER TABLE reminders ADD COLUMN break_through BIGINT NOT NULL DEFAULT 0;
-- A ring held for a person's quiet hours: it goes to them at `until`, through a fire of kind
-- 'held' of its reminder (state 'held', then 'released'); 'merged': a later ring of the same
-- occurrence held while an earlier one was, which never goes (they get one ring). An entry
-- every recipient of which is held has status 'held' until then.
CREATE TABLE holds (
    log_id TEXT NOT NULL REFERENCES delivery_logs(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    until BIGINT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (log_id, user_id)
);
-- A fallback's delay counts from `since` when set (a held ring's release; the end of the
-- quiet hours a due fallback fell in) rather than from the entry's time.
ALTER TABLE fallbacks ADD COLUMN since BIGINT;
