//! The scheduler daemon: keeps a second-resolution timing wheel of the fires due within the
//! horizon and, at each due second, claims them in the database and moves them into the push
//! queue. Several may run; one leads (a lease in the database), the others stand by and take
//! over when the leader's lease runs out.

pub mod wheel;

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;

use hibiki_common::jobs::PushJob;
use hibiki_common::queue::Queues;
use hibiki_common::status::RuntimeStatus;
use hibiki_common::storage::{Backend, CHANGES_CHANNEL, Claimed, Db, FIRE_OCCURRENCE, FIRE_SNOOZE};
use jiff::{SignedDuration, Timestamp};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::wheel::TimingWheel;

use hibiki_common::status::{SCHEDULER_LEASE as LEASE, SCHEDULER_LEASE_TTL_MS};

#[derive(Debug, Clone)]
pub struct SchedulerConfig {
    /// Fires due within this many seconds are held in the wheel.
    pub horizon_secs: u32,
    /// A leader that stops renewing loses the lead after this long.
    pub lease_ttl: SignedDuration,
    pub renew_every: Duration,
    /// Full reload from the database, and re-enqueue of entries whose job was lost.
    pub reconcile_every: Duration,
    /// A queued entry older than this without being sent has lost its job.
    pub requeue_after: SignedDuration,
    /// Fires are claimed and enqueued this long before their second, so the worker has the
    /// push encrypted and waiting when the second comes (it never sends before it).
    pub lead: SignedDuration,
}

impl Default for SchedulerConfig {
    fn default() -> Self {
        SchedulerConfig {
            horizon_secs: 3600,
            lease_ttl: SignedDuration::from_millis(SCHEDULER_LEASE_TTL_MS),
            renew_every: Duration::from_secs(3),
            reconcile_every: Duration::from_secs(60),
            requeue_after: SignedDuration::from_secs(30),
            lead: SignedDuration::from_secs(2),
        }
    }
}

/// A wheel key: the reminder id's 128 bits and the fire kind.
type Key = (u128, u8);

fn key(reminder_id: &str, kind: &str) -> Option<Key> {
    let id = uuid::Uuid::parse_str(reminder_id).ok()?.as_u128();
    Some((id, if kind == FIRE_SNOOZE { 1 } else { 0 }))
}

fn unkey((id, kind): Key) -> (String, &'static str) {
    (uuid::Uuid::from_u128(id).to_string(), if kind == 1 { FIRE_SNOOZE } else { FIRE_OCCURRENCE })
}

/// Fires are stored in ms; the wheel counts whole seconds, rounding up so nothing fires early.
fn due_second(ms: i64) -> i64 {
    ms.div_euclid(1000) + i64::from(ms.rem_euclid(1000) != 0)
}

pub struct Scheduler {
    db: Db,
    queues: Queues,
    status: Arc<RuntimeStatus>,
    config: SchedulerConfig,
    id: String,
}

impl Scheduler {
    pub fn new(db: Db, queues: Queues, status: Arc<RuntimeStatus>, config: SchedulerConfig) -> Scheduler {
        let id = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
        Scheduler { db, queues, status, config, id }
    }

    /// Runs until `shutdown`: stands by until it holds the lease, then leads until it loses it.
    pub async fn run(self, shutdown: CancellationToken) {
        let (changes_tx, mut changes) = mpsc::unbounded_channel::<String>();
        spawn_change_listeners(&self.db, changes_tx, shutdown.clone());
        loop {
            self.heartbeat(false);
            match self.db.try_lease(LEASE, &self.id, Timestamp::now(), self.config.lease_ttl).await {
                Ok(true) => {
                    tracing::info!(scheduler = %self.id, "leading");
                    metrics::gauge!("hibiki_scheduler_leader").set(1.0);
                    let keep_going = self.lead(&mut changes, &shutdown).await;
                    metrics::gauge!("hibiki_scheduler_leader").set(0.0);
                    metrics::gauge!("hibiki_scheduler_wheel_size").set(0.0);
                    if !keep_going {
                        let _ = self.db.release_lease(LEASE, &self.id).await;
                        return;
                    }
                    tracing::warn!(scheduler = %self.id, "lost the lead");
                }
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "lease check failed"),
            }
            // Standing by: nothing to do but drain notices and try again.
            tokio::select! {
                _ = tokio::time::sleep(self.config.renew_every) => {}
                _ = shutdown.cancelled() => return,
            }
            while changes.try_recv().is_ok() {}
        }
    }

    fn heartbeat(&self, leading: bool) {
        let now = Timestamp::now();
        self.status.scheduler_ticked(now.as_millisecond());
        metrics::gauge!("hibiki_scheduler_last_tick_timestamp_seconds").set(now.as_millisecond() as f64 / 1000.0);
        if !leading {
            metrics::gauge!("hibiki_scheduler_leader").set(0.0);
        }
    }

    /// Leads until the lease is lost (false when shutting down).
    async fn lead(&self, changes: &mut mpsc::UnboundedReceiver<String>, shutdown: &CancellationToken) -> bool {
        let now = Timestamp::now();
        let mut wheel: TimingWheel<Key> = TimingWheel::new(now.as_second(), self.config.horizon_secs);
        self.reload(&mut wheel).await;
        let mut next_renew = tokio::time::Instant::now() + self.config.renew_every;
        let mut next_reconcile = tokio::time::Instant::now() + self.config.reconcile_every;
        let mut due = Vec::new();
        loop {
            // Sleep until the next due second, or the next housekeeping moment: nothing wakes
            // the loop while nothing is due.
            let mut wake = next_renew.min(next_reconcile);
            if let Some(second) = wheel.next_due() {
                let until_ms = (second * 1000 - self.config.lead.as_millis() as i64 - Timestamp::now().as_millisecond()).max(0);
                wake = wake.min(tokio::time::Instant::now() + Duration::from_millis(until_ms as u64));
            }
            tokio::select! {
                _ = tokio::time::sleep_until(wake) => {}
                Some(id) = changes.recv() => {
                    self.refresh(&mut wheel, &id).await;
                    // Take every notice that is waiting, so a burst costs one pass.
                    while let Ok(id) = changes.try_recv() {
                        self.refresh(&mut wheel, &id).await;
                    }
                }
                _ = shutdown.cancelled() => return false,
            }
            let now = Timestamp::now();
            if tokio::time::Instant::now() >= next_renew {
                next_renew = tokio::time::Instant::now() + self.config.renew_every;
                match self.db.try_lease(LEASE, &self.id, now, self.config.lease_ttl).await {
                    Ok(true) => {}
                    Ok(false) => return true,
                    Err(e) => tracing::warn!(error = %e, "lease renewal failed"),
                }
                self.heartbeat(true);
            }
            if tokio::time::Instant::now() >= next_reconcile {
                next_reconcile = tokio::time::Instant::now() + self.config.reconcile_every;
                wheel = TimingWheel::new(now.as_second(), self.config.horizon_secs);
                self.reload(&mut wheel).await;
                self.requeue_lost(now).await;
            }
            due.clear();
            let until = now + self.config.lead;
            wheel.advance(until.as_second(), &mut due);
            if !due.is_empty() {
                self.fire(&mut wheel, &due, now, until).await;
            }
            metrics::gauge!("hibiki_scheduler_wheel_size").set(wheel.len() as f64);
        }
    }

    /// Loads every fire within the horizon (startup, takeover, periodic reconcile). Fires that
    /// are already past are due at once: the missed-fire rules apply when they are claimed.
    async fn reload(&self, wheel: &mut TimingWheel<Key>) {
        let until = hibiki_common::time::from_millis(wheel.horizon_end() * 1000);
        match self.db.fires_before(until).await {
            Ok(fires) => {
                for f in fires {
                    if let Some(k) = key(&f.reminder_id, &f.kind) {
                        wheel.insert(k, due_second(f.fire_at.as_millisecond()));
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not load fires"),
        }
        metrics::gauge!("hibiki_scheduler_wheel_size").set(wheel.len() as f64);
    }

    /// Re-reads one reminder's fires after a change notice.
    async fn refresh(&self, wheel: &mut TimingWheel<Key>, reminder_id: &str) {
        for kind in [FIRE_OCCURRENCE, FIRE_SNOOZE] {
            if let Some(k) = key(reminder_id, kind) {
                wheel.remove(&k);
            }
        }
        match self.db.fires_of(reminder_id).await {
            Ok(fires) => {
                for f in fires {
                    if let Some(k) = key(&f.reminder_id, &f.kind) {
                        wheel.insert(k, due_second(f.fire_at.as_millisecond()));
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not refresh a reminder's fires"),
        }
    }

    /// Claims each due fire and enqueues its delivery; recurring reminders get their next fire
    /// back into the wheel.
    async fn fire(&self, wheel: &mut TimingWheel<Key>, due: &[(Key, i64)], now: Timestamp, until: Timestamp) {
        let claims = futures::future::join_all(due.iter().map(|(k, _)| {
            let (reminder_id, kind) = unkey(*k);
            async move {
                let claimed = self.db.claim_fire_ahead(&reminder_id, kind, now, until).await;
                (reminder_id, claimed)
            }
        }))
        .await;
        let mut jobs = Vec::new();
        for (reminder_id, claimed) in claims {
            // The claim scheduled the next occurrence itself: put it in the wheel directly
            // rather than reading it back (one query less per fired reminder).
            let next = match claimed {
                Ok(Claimed::Deliver { log_id, late, next }) => {
                    metrics::counter!("hibiki_scheduler_fired_total", "result" => if late { "late" } else { "on_time" }).increment(1);
                    jobs.push(PushJob::Deliver { log_id });
                    next
                }
                Ok(Claimed::Missed { log_id, next }) => {
                    metrics::counter!("hibiki_scheduler_fired_total", "result" => "missed").increment(1);
                    tracing::info!(%log_id, %reminder_id, "occurrence missed (more than 15 minutes late)");
                    next
                }
                Ok(Claimed::Gone) => {
                    // Someone else claimed or changed it: read what is there now.
                    self.refresh(wheel, &reminder_id).await;
                    continue;
                }
                Err(e) => {
                    tracing::warn!(error = %e, %reminder_id, "could not claim a fire");
                    self.refresh(wheel, &reminder_id).await;
                    continue;
                }
            };
            if let (Some(at), Some(k)) = (next, key(&reminder_id, FIRE_OCCURRENCE)) {
                wheel.insert(k, due_second(at.as_millisecond()));
            }
        }
        // Enqueued side by side: a burst due in one second is thousands of round trips.
        futures::stream::iter(jobs)
            .for_each_concurrent(64, |job| async move {
                if let Err(e) = self.queues.push(job).await {
                    // The entry stays queued in the database; the reconcile pass re-enqueues it.
                    tracing::warn!(error = %e, "could not enqueue a delivery");
                }
            })
            .await;
    }

    async fn requeue_lost(&self, now: Timestamp) {
        match self.db.stale_queued_deliveries(now - self.config.requeue_after).await {
            Ok(ids) => {
                for log_id in ids {
                    tracing::info!(%log_id, "re-enqueueing a delivery whose job was lost");
                    metrics::counter!("hibiki_scheduler_requeued_total").increment(1);
                    let _ = self.queues.push(PushJob::Deliver { log_id }).await;
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not look for lost deliveries"),
        }
    }
}

/// Forwards change notices into one channel: from this process (the API beside us) and, on
/// PostgreSQL, from every process through LISTEN.
fn spawn_change_listeners(db: &Db, tx: mpsc::UnboundedSender<String>, shutdown: CancellationToken) {
    let mut local = db.subscribe_changes();
    let local_tx = tx.clone();
    let stop = shutdown.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                msg = local.recv() => match msg {
                    Ok(id) => { let _ = local_tx.send(id); }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(_) => break,
                },
                _ = stop.cancelled() => break,
            }
        }
    });
    if db.backend() == Backend::Postgres {
        let url = db.url().to_owned();
        tokio::spawn(async move {
            loop {
                let listener = async {
                    let mut l = sqlx::postgres::PgListener::connect(&url).await?;
                    l.listen(CHANGES_CHANNEL).await?;
                    Ok::<_, sqlx::Error>(l)
                };
                match listener.await {
                    Ok(mut l) => loop {
                        tokio::select! {
                            n = l.recv() => match n {
                                Ok(n) => { let _ = tx.send(n.payload().to_owned()); }
                                Err(e) => { tracing::warn!(error = %e, "change listener lost its connection"); break; }
                            },
                            _ = shutdown.cancelled() => return,
                        }
                    },
                    Err(e) => tracing::warn!(error = %e, "could not LISTEN for changes"),
                }
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(2)) => {}
                    _ = shutdown.cancelled() => return,
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_seconds_round_up() {
        let id = uuid::Uuid::new_v4().to_string();
        for kind in [FIRE_OCCURRENCE, FIRE_SNOOZE] {
            let k = key(&id, kind).unwrap();
            assert_eq!(unkey(k), (id.clone(), kind));
        }
        assert_eq!(key("not-a-uuid", FIRE_OCCURRENCE), None);
        assert_eq!(due_second(5000), 5);
        assert_eq!(due_second(5001), 6);
        assert_eq!(due_second(-1), 0);
    }
}
