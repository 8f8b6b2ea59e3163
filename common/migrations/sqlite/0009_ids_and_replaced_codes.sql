-- Ids are UUIDs in their hyphenated text everywhere: the session ids 0008 made for sessions
-- that existed then were 32 bare hex digits; they get the hyphens (the same 128 bits).
UPDATE sessions SET id = lower(substr(id, 1, 8) || '-' || substr(id, 9, 4) || '-' || substr(id, 13, 4) || '-' || substr(id, 17, 4) || '-' || substr(id, 21, 12))
WHERE length(id) = 32;

-- The hash of the code a resend replaced, so that code is answered OTP_REPLACED ("use the
-- newest email") instead of only "incorrect".
ALTER TABLE otp_codes ADD COLUMN replaced_code_hash BLOB;
