//! Liveness facts that one process's parts share with its health and status endpoints.

use std::sync::atomic::{AtomicI64, Ordering};

/// The database lease the leading scheduler holds and renews while it runs.
pub const SCHEDULER_LEASE: &str = "scheduler";
/// How long a scheduler's lease lasts without renewal (its default; standbys take over after).
pub const SCHEDULER_LEASE_TTL_MS: i64 = 10_000;

#[derive(Debug, Default)]
pub struct RuntimeStatus {
    /// Unix ms of the scheduler's last tick in this process; 0 when it does not run here.
    scheduler_last_tick_ms: AtomicI64,
}

impl RuntimeStatus {
    pub fn scheduler_ticked(&self, at_ms: i64) {
        self.scheduler_last_tick_ms.store(at_ms, Ordering::Relaxed);
    }

    pub fn scheduler_last_tick_ms(&self) -> Option<i64> {
        Some(self.scheduler_last_tick_ms.load(Ordering::Relaxed)).filter(|t| *t > 0)
    }
}

/// Nearest-rank percentile of an ascending slice.
pub fn percentile(sorted: &[i64], p: f64) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.saturating_sub(1).min(sorted.len() - 1)).copied()
}

#[cfg(test)]
mod tests {
    use super::percentile;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<i64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50.0), Some(50));
        assert_eq!(percentile(&v, 99.0), Some(99));
        assert_eq!(percentile(&[7], 99.0), Some(7));
        assert_eq!(percentile(&[], 50.0), None);
    }
}
