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

/// How long the block after `earlier` blocks lasts: 1 h, 2 h, 4 h, ...
pub fn block_length_ms(first_ms: i64, earlier: i64) -> i64 {
    first_ms.saturating_mul(1i64 << earlier.clamp(0, 30))
}
