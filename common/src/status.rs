//! Liveness facts that one process's parts share with its health and status endpoints.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

#[derive(Debug, Default)]
pub struct RuntimeStatus {
    /// Unix ms of the scheduler's last tick in this process; 0 when it does not run here.
    scheduler_last_tick_ms: AtomicI64,
    mail_sent: AtomicU64,
    mail_failed: AtomicU64,
}

impl RuntimeStatus {
    pub fn scheduler_ticked(&self, at_ms: i64) {
        self.scheduler_last_tick_ms.store(at_ms, Ordering::Relaxed);
    }

    pub fn scheduler_last_tick_ms(&self) -> Option<i64> {
        Some(self.scheduler_last_tick_ms.load(Ordering::Relaxed)).filter(|t| *t > 0)
    }

    pub fn mail_sent(&self) {
        self.mail_sent.fetch_add(1, Ordering::Relaxed);
    }

    pub fn mail_failed(&self) {
        self.mail_failed.fetch_add(1, Ordering::Relaxed);
    }

    pub fn mail_counts(&self) -> (u64, u64) {
        (self.mail_sent.load(Ordering::Relaxed), self.mail_failed.load(Ordering::Relaxed))
    }
}
