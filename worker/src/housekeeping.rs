//! Periodic clean-up: expired codes, sessions and old counters.

use std::time::Duration;

use hibiki_common::storage::Db;
use tokio_util::sync::CancellationToken;

pub async fn run(db: Db, every: Duration, shutdown: CancellationToken) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.cancelled() => break,
        }
        match db.prune_expired(jiff::Timestamp::now()).await {
            Ok(n) if n > 0 => tracing::info!(removed = n, "housekeeping pruned expired rows"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "housekeeping failed"),
        }
    }
}
