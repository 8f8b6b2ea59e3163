-- Code sign-in blocks grow (1 h, then doubling) until a successful sign-in resets them.
ALTER TABLE auth_failures ADD COLUMN blocks BIGINT NOT NULL DEFAULT 0;
