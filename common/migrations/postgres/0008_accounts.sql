-- Sessions a person can list and end: a public id (never the token's hash) and a device
-- label read from the User-Agent at sign-in.
ALTER TABLE sessions ADD COLUMN id TEXT;
ALTER TABLE sessions ADD COLUMN label TEXT NOT NULL DEFAULT '';
UPDATE sessions SET id = md5(random()::text || encode(token_hash, 'hex')) WHERE id IS NULL;
CREATE UNIQUE INDEX sessions_id ON sessions(id);

-- The sign-in mail's code and link, sealed under the data key until the mail worker has sent
-- them (then NULL): the queue job names the row, never the secrets.
ALTER TABLE otp_codes ADD COLUMN mail_secret BYTEA;
