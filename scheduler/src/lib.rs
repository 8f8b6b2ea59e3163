//! The scheduler daemon. This first version keeps the heartbeat that health and status read;
//! the timing wheel that moves due occurrences into the queues builds on it.

use std::sync::Arc;
use std::time::Duration;

use hibiki_common::status::RuntimeStatus;
use tokio_util::sync::CancellationToken;

/// Ticks once a second on the second boundary until `shutdown`.
pub async fn run(status: Arc<RuntimeStatus>, shutdown: CancellationToken) {
    loop {
        let now = jiff::Timestamp::now();
        status.scheduler_ticked(now.as_millisecond());
        metrics::gauge!("hibiki_scheduler_last_tick_timestamp_seconds").set(now.as_second() as f64);
        let to_next_second = 1_000_000_000 - i64::from(now.subsec_nanosecond());
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_nanos(to_next_second as u64)) => {}
            _ = shutdown.cancelled() => break,
        }
    }
}
