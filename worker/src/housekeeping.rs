//! Periodic clean-up: the 7-day archive of unanswered one-time reminders, the 180-day
//! non-use rule, and expired codes, sessions and counters.

use std::time::Duration;

use hibiki_common::storage::Db;
use jiff::{SignedDuration, Timestamp};
use tokio_util::sync::CancellationToken;

pub const ARCHIVE_UNANSWERED_AFTER: SignedDuration = SignedDuration::from_hours(24 * 7);
pub const NON_USE_AFTER: SignedDuration = SignedDuration::from_hours(24 * 180);

/// One pass; returns (archived unanswered, archived for non-use, pruned rows).
pub async fn run_once(db: &Db, now: Timestamp) -> hibiki_common::Result<(u64, u64, u64)> {
    let unanswered = db.archive_unanswered(now, ARCHIVE_UNANSWERED_AFTER).await?;
    let unused = db.retire_unused(now, NON_USE_AFTER).await?;
    let pruned = db.prune_expired(now).await?;
    Ok((unanswered, unused, pruned))
}

pub async fn run(db: Db, every: Duration, shutdown: CancellationToken) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.cancelled() => break,
        }
        match run_once(&db, Timestamp::now()).await {
            Ok((a, b, c)) if a + b + c > 0 => tracing::info!(archived_unanswered = a, archived_unused = b, pruned = c, "housekeeping"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "housekeeping failed"),
        }
    }
}
