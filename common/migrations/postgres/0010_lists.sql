-- Lists (decisions.md "Households"). Every reminder belongs to one list; every account has a
-- default list. A list's name is sealed like a title; NULL names the default list, which reads
-- 「リマインダー」 / "Reminders" in its reader's language until renamed.
CREATE TABLE lists (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name BYTEA,
    colour TEXT NOT NULL,
    is_default BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX lists_owner ON lists(owner_id);
CREATE UNIQUE INDEX lists_one_default ON lists(owner_id) WHERE is_default = 1;

-- Who belongs to a list: its owner too (role 'owner'), so one join answers "may this person
-- see it".
CREATE TABLE list_members (
    list_id TEXT NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (list_id, user_id)
);
CREATE INDEX list_members_user ON list_members(user_id);

-- A default list for every account that exists (ids are UUIDs in their hyphenated text).
INSERT INTO lists (id, owner_id, name, colour, is_default, created_at, updated_at)
SELECT gen_random_uuid()::text, id, NULL, 'blue', 1, created_at, created_at FROM users;
INSERT INTO list_members (list_id, user_id, role, joined_at)
SELECT id, owner_id, 'owner', created_at FROM lists;

-- A reminder's list, who added it, and who it rings for. `user_id` stays the list owner's (the
-- active limit counts per owner).
ALTER TABLE reminders ADD COLUMN list_id TEXT REFERENCES lists(id);
ALTER TABLE reminders ADD COLUMN created_by TEXT;
ALTER TABLE reminders ADD COLUMN assignees TEXT NOT NULL DEFAULT '[]';
ALTER TABLE reminders ADD COLUMN rotate BIGINT NOT NULL DEFAULT 0;
UPDATE reminders SET list_id = (SELECT l.id FROM lists l WHERE l.owner_id = reminders.user_id AND l.is_default = 1),
                     created_by = user_id;
CREATE INDEX reminders_list ON reminders(list_id, is_active);
