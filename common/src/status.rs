//! Liveness facts that one process's parts share with its health and status endpoints.

use std::sync::atomic::{AtomicI64, Ordering};

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
