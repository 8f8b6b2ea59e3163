//! The sign-in rules as numbers (decisions.md): how long a code lives, how often one may be
//! asked for, how wrong guesses block, how long a session lasts. The use case
//! (`usecases::signin`) and the storage that enforces them both read them here.

use jiff::SignedDuration;

pub const CODE_TTL_SECS: i64 = 1200;
pub const RESEND_AFTER_SECS: i64 = 60;
pub const MAX_CODE_ATTEMPTS: i64 = 5;
pub const FAILURES_BEFORE_BLOCK: i64 = 10;
/// The first block; each later one lasts twice the one before.
pub const BLOCK_SECS: i64 = 3600;
pub const MAILS_PER_HOUR: i64 = 3;
/// A session slides 30 days with use, within 90 days of signing in.
pub const SESSION_TTL: SignedDuration = SignedDuration::from_hours(24 * 30);
pub const SESSION_ABSOLUTE: SignedDuration = SignedDuration::from_hours(24 * 90);
pub const MAIL_KIND_SIGN_IN: &str = "sign_in";
pub const MAIL_KIND_TEST: &str = "test";
/// An invitation to a list: counted per invited address, so no one address gets more than
/// [`MAILS_PER_HOUR`] of them an hour, whoever sends them.
pub const MAIL_KIND_INVITE: &str = "invite";

/// Whether one more mail of a kind may go to an address that was sent `sent` of them in the
/// last hour, the oldest at `oldest_ms`: `None` when it may, else the whole seconds until the
/// oldest leaves the hour (rounded up, at least 1: a retry then is never too early).
pub fn mail_retry_after(sent: i64, oldest_ms: Option<i64>, now: jiff::Timestamp) -> Option<i64> {
    (sent >= MAILS_PER_HOUR).then(|| {
        let oldest = oldest_ms.unwrap_or(now.as_millisecond());
        let ms = oldest + 3_600_000 - now.as_millisecond();
        (ms + 999).div_euclid(1000).max(1)
    })
}

/// How long the block after `earlier` blocks lasts: 1 h, 2 h, 4 h, ...
pub fn block_length_ms(first_ms: i64, earlier: i64) -> i64 {
    first_ms.saturating_mul(1i64 << earlier.clamp(0, 30))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fourth_mail_in_an_hour_waits_until_the_oldest_leaves_it() {
        let now: jiff::Timestamp = "2026-01-01T12:00:00Z".parse().unwrap();
        let ten_min_ago = now.as_millisecond() - 600_000;
        assert_eq!(mail_retry_after(2, Some(ten_min_ago), now), None);
        assert_eq!(mail_retry_after(3, Some(ten_min_ago), now), Some(3000));
        assert_eq!(mail_retry_after(3, Some(now.as_millisecond() - 3_600_000), now), Some(1), "at least a second");
        assert_eq!(mail_retry_after(3, None, now), Some(3600));
        assert_eq!(mail_retry_after(3, Some(ten_min_ago + 1), now), Some(3001), "rounded up");
    }
}
