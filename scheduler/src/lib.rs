//! The scheduler daemon: keeps a second-resolution timing wheel of the fires due within the
//! horizon and, at each due second, claims them in the database and moves them into the push
//! queue. Several may run; one leads (a lease in the database), the others stand by and take
//! over when the leader's lease runs out.

pub mod wheel;

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;

use hibiki_common::domain::ids::{LogId, ReminderId};
use hibiki_common::domain::states::FireKind;
use hibiki_common::domain::time::Clock;
use hibiki_common::infra::jobs::{MailJob, SendJob};
use hibiki_common::infra::queue::Queues;
use hibiki_common::infra::status::RuntimeStatus;
use hibiki_common::infra::storage::{Backend, CHANGES_CHANNEL, CLAIM_CHUNK, Change, Claimed, Db, FallbackClaim, STALE_SEND};
use jiff::{SignedDuration, Timestamp};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::wheel::TimingWheel;

use hibiki_common::infra::status::{SCHEDULER_LEASE as LEASE, SCHEDULER_LEASE_TTL_MS};

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
    /// A second with many fires is claimed earlier by this much per fire (claiming, reading
    /// and encrypting a burst takes time), up to `max_lead`.
    pub lead_per_fire: SignedDuration,
    pub max_lead: SignedDuration,
    /// How long one minute of the email fallback delay is (tests shorten it).
    pub fallback_minute: SignedDuration,
}

impl SchedulerConfig {
    /// How long before its second a second with `fires` due is claimed.
    pub fn lead_for(&self, fires: usize) -> SignedDuration {
        (self.lead + self.lead_per_fire * fires as i32).min(self.max_lead).max(self.lead)
    }

    /// Fires worth counting at one second: past this many the lead is `max_lead` anyway.
    fn count_limit(&self) -> usize {
        let extra = (self.max_lead - self.lead).as_nanos().max(0);
        let per = self.lead_per_fire.as_nanos().max(1);
        usize::try_from(extra / per).unwrap_or(usize::MAX).saturating_add(1)
    }
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
            lead_per_fire: SignedDuration::from_micros(250),
            max_lead: SignedDuration::from_secs(30),
            fallback_minute: SignedDuration::from_mins(1),
        }
    }
}

/// Lost deliveries enqueued again per reconcile pass.
const REQUEUE_LIMIT: i64 = 5000;

/// A wheel key: a reminder's fire of one kind.
type Key = (ReminderId, FireKind);

/// Fires are stored in ms; the wheel counts whole seconds, rounding up so nothing fires early.
fn due_second(ms: i64) -> i64 {
    ms.div_euclid(1000) + i64::from(ms.rem_euclid(1000) != 0)
}

/// A `held` fire the claim answered with goes into the wheel as it is (no notice needed).
fn held_fire(wheel: &mut TimingWheel<Key>, reminder_id: ReminderId, at: Option<Timestamp>) {
    if let Some(at) = at {
        wheel.insert((reminder_id, FireKind::Held), due_second(at.as_millisecond()));
    }
}

pub struct Scheduler {
    db: Db,
    queues: Queues,
    status: Arc<RuntimeStatus>,
    config: SchedulerConfig,
    id: String,
    /// What "now" is (a test steps it to run the scheduler to an instant).
    clock: Clock,
}

impl Scheduler {
    pub fn new(db: Db, queues: Queues, status: Arc<RuntimeStatus>, config: SchedulerConfig, clock: Clock) -> Scheduler {
        let id = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
        Scheduler { db, queues, status, config, id, clock }
    }

    /// The name it holds the leader's lease by.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Runs until `shutdown`: stands by until it holds the lease, then leads until it loses it.
    pub async fn run(self, shutdown: CancellationToken) {
        let (changes_tx, mut changes) = mpsc::unbounded_channel::<Change>();
        spawn_change_listeners(&self.db, changes_tx, shutdown.clone());
        loop {
            self.heartbeat(false);
            match self.db.try_lease(LEASE, &self.id, self.clock.now(), self.config.lease_ttl).await {
                Ok(true) => {
                    tracing::info!(scheduler = %self.id, "leading");
                    metrics::gauge!(hibiki_common::metric_names::SCHEDULER_LEADER).set(1.0);
                    let keep_going = self.lead(&mut changes, &shutdown).await;
                    metrics::gauge!(hibiki_common::metric_names::SCHEDULER_LEADER).set(0.0);
                    metrics::gauge!(hibiki_common::metric_names::SCHEDULER_WHEEL_SIZE).set(0.0);
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
        let now = self.clock.now();
        self.status.scheduler_ticked(now.as_millisecond());
        metrics::gauge!(hibiki_common::metric_names::SCHEDULER_LAST_TICK_TIMESTAMP_SECONDS).set(now.as_millisecond() as f64 / 1000.0);
        if !leading {
            metrics::gauge!(hibiki_common::metric_names::SCHEDULER_LEADER).set(0.0);
        }
    }

    /// Leads until the lease is lost (false when shutting down).
    async fn lead(&self, changes: &mut mpsc::UnboundedReceiver<Change>, shutdown: &CancellationToken) -> bool {
        let now = self.clock.now();
        let mut wheel: TimingWheel<Key> = TimingWheel::new(now.as_second(), self.config.horizon_secs);
        self.reload(&mut wheel).await;
        let mut next_renew = tokio::time::Instant::now() + self.config.renew_every;
        let mut next_reconcile = tokio::time::Instant::now() + self.config.reconcile_every;
        // Pending email fallbacks are looked at once on taking the lead.
        let mut next_fallback = tokio::time::Instant::now();
        let mut steps = self.clock.steps();
        let mut due = Vec::new();
        loop {
            // Sleep until the next due second, or the next housekeeping moment: nothing wakes
            // the loop while nothing is due.
            let mut wake = next_renew.min(next_reconcile).min(next_fallback);
            if let Some(at_ms) = claim_points(&self.config, &wheel).iter().map(|(_, at)| *at).min() {
                let until_ms = (at_ms - self.clock.now().as_millisecond()).max(0);
                wake = wake.min(tokio::time::Instant::now() + Duration::from_millis(until_ms as u64));
            }
            tokio::select! {
                _ = tokio::time::sleep_until(wake) => {}
                Some(id) = changes.recv() => {
                    // Take every notice that is waiting, so a burst costs one pass.
                    let mut next = Some(id);
                    while let Some(change) = next {
                        match change {
                            Change::Fallback => next_fallback = tokio::time::Instant::now(),
                            Change::Reminder(id) => self.refresh(&mut wheel, &id).await,
                        }
                        next = changes.try_recv().ok();
                    }
                }
                // The clock was stepped (a test): read the fires up to the new now, and look at
                // the email fallbacks due by then.
                Ok(()) = steps.changed() => {
                    next_reconcile = tokio::time::Instant::now();
                    next_fallback = tokio::time::Instant::now();
                }
                _ = shutdown.cancelled() => return false,
            }
            let now = self.clock.now();
            if !self.renew_if_due(&mut next_renew).await {
                return true;
            }
            if tokio::time::Instant::now() >= next_reconcile {
                next_reconcile = tokio::time::Instant::now() + self.config.reconcile_every;
                wheel = TimingWheel::new(now.as_second(), self.config.horizon_secs);
                self.reload(&mut wheel).await;
                self.requeue_lost(now).await;
            }
            due.clear();
            // Everything due by the latest second whose claim point has come (a big second's
            // comes earlier: its pushes take longer to prepare).
            let through =
                claim_points(&self.config, &wheel).iter().filter(|(_, at)| *at <= now.as_millisecond()).map(|(second, _)| *second).max();
            if let Some(second) = through {
                wheel.advance(second.max(wheel.current()), &mut due);
            }
            if !due.is_empty() {
                if !self.fire(&mut wheel, &due, now, &mut next_renew).await {
                    return true;
                }
                // The entries just made may carry a fallback: none is due before a minute.
                next_fallback = next_fallback.min(tokio::time::Instant::now() + self.config.fallback_minute.unsigned_abs());
            }
            if tokio::time::Instant::now() >= next_fallback {
                next_fallback = self.send_fallbacks().await;
            }
            metrics::gauge!(hibiki_common::metric_names::SCHEDULER_WHEEL_SIZE).set(wheel.len() as f64);
        }
    }

    /// Loads every fire within the horizon (startup, takeover, periodic reconcile). Fires that
    /// are already past are due at once: the missed-fire rules apply when they are claimed.
    async fn reload(&self, wheel: &mut TimingWheel<Key>) {
        let until = hibiki_common::domain::time::from_millis(wheel.horizon_end() * 1000);
        match self.db.fires_before(until).await {
            Ok(fires) => {
                for f in fires {
                    wheel.insert((f.reminder_id, f.kind), due_second(f.fire_at.as_millisecond()));
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not load fires"),
        }
        metrics::gauge!(hibiki_common::metric_names::SCHEDULER_WHEEL_SIZE).set(wheel.len() as f64);
    }

    /// Re-reads one reminder's fires after a change notice.
    async fn refresh(&self, wheel: &mut TimingWheel<Key>, reminder_id: &ReminderId) {
        for &kind in FireKind::ALL {
            wheel.remove(&(*reminder_id, kind));
        }
        match self.db.fires_of(reminder_id).await {
            Ok(fires) => {
                for f in fires {
                    wheel.insert((f.reminder_id, f.kind), due_second(f.fire_at.as_millisecond()));
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not refresh a reminder's fires"),
        }
    }

    /// Renews the lease when it is time; false when another scheduler leads now.
    async fn renew_if_due(&self, next_renew: &mut tokio::time::Instant) -> bool {
        if tokio::time::Instant::now() < *next_renew {
            return true;
        }
        *next_renew = tokio::time::Instant::now() + self.config.renew_every;
        match self.db.try_lease(LEASE, &self.id, self.clock.now(), self.config.lease_ttl).await {
            Ok(true) => {}
            Ok(false) => return false,
            Err(e) => tracing::warn!(error = %e, "lease renewal failed"),
        }
        self.heartbeat(true);
        true
    }

    /// Claims the due fires, a chunk per transaction, and enqueues each chunk's deliveries as
    /// soon as it is claimed, so workers start preparing while the rest is claimed; recurring
    /// reminders get their next fire back into the wheel. False when the lead was lost.
    #[tracing::instrument(name = "claim", skip_all, fields(fires = due.len()))]
    async fn fire(&self, wheel: &mut TimingWheel<Key>, due: &[(Key, i64)], now: Timestamp, next_renew: &mut tokio::time::Instant) -> bool {
        // PostgreSQL claims several chunks side by side (each is a few round trips); SQLite has
        // one writer anyway.
        let at_once = if self.db.backend() == Backend::Postgres { 3 } else { 1 };
        let work: Vec<(Vec<(ReminderId, FireKind)>, Timestamp)> = due
            .chunks(CLAIM_CHUNK)
            .map(|chunk| {
                let fires = chunk.iter().map(|(k, _)| *k).collect();
                // Everything in the chunk is due by its last (latest) second.
                let last = chunk.iter().map(|(_, second)| *second).max().unwrap_or(0);
                (fires, hibiki_common::domain::time::from_millis(last * 1000).max(now))
            })
            .collect();
        let db = self.db.clone();
        let mut chunks = futures::stream::iter(work)
            .map(move |(fires, until)| {
                let db = db.clone();
                async move {
                    let claimed = db.claim_fires(&fires, now, until).await;
                    (fires, until, claimed)
                }
            })
            .buffered(at_once);
        while let Some((fires, until, claimed)) = chunks.next().await {
            let claims = match claimed {
                Ok(claims) => claims,
                Err(e) => {
                    tracing::warn!(error = %e, fires = fires.len(), "could not claim fires");
                    for (reminder_id, _) in &fires {
                        self.refresh(wheel, reminder_id).await;
                    }
                    continue;
                }
            };
            let mut log_ids = Vec::with_capacity(claims.len());
            for (reminder_id, claimed) in claims {
                // The claim scheduled the next occurrence itself: put it in the wheel directly
                // rather than reading it back.
                let next = match claimed {
                    Claimed::Deliver { log_id, late, next, also, held_at } => {
                        metrics::counter!(hibiki_common::metric_names::SCHEDULER_FIRED_TOTAL, "result" => if late { "late" } else { "on_time" }).increment(1);
                        log_ids.push(log_id);
                        log_ids.extend(also);
                        held_fire(wheel, reminder_id, held_at);
                        next
                    }
                    Claimed::Missed { log_id, next } => {
                        metrics::counter!(hibiki_common::metric_names::SCHEDULER_FIRED_TOTAL, "result" => "missed").increment(1);
                        tracing::info!(%log_id, %reminder_id, "occurrence missed (more than 15 minutes late)");
                        next
                    }
                    Claimed::Held { next, held_at } => {
                        metrics::counter!(hibiki_common::metric_names::SCHEDULER_FIRED_TOTAL, "result" => "held").increment(1);
                        held_fire(wheel, reminder_id, held_at);
                        next
                    }
                    Claimed::Release { log_ids: released, held_at } => {
                        metrics::counter!(hibiki_common::metric_names::SCHEDULER_RELEASED_TOTAL).increment(released.len() as u64);
                        log_ids.extend(released);
                        held_fire(wheel, reminder_id, held_at);
                        None
                    }
                    Claimed::Gone => {
                        // Someone else claimed or changed it: read what is there now.
                        self.refresh(wheel, &reminder_id).await;
                        continue;
                    }
                };
                if let Some(at) = next {
                    wheel.insert((reminder_id, FireKind::Occurrence), due_second(at.as_millisecond()));
                }
            }
            let claimed = log_ids.len();
            self.enqueue(log_ids).await;
            tracing::debug!(fires = fires.len(), claimed, until = %until, "claimed and enqueued a chunk");
            if !self.renew_if_due(next_renew).await {
                return false;
            }
        }
        true
    }

    /// Enqueues deliveries, a few hundred entries per job, side by side. An entry whose job
    /// could not be enqueued stays queued in the database; the reconcile pass enqueues it again.
    async fn enqueue(&self, log_ids: Vec<LogId>) {
        futures::stream::iter(SendJob::deliver_all(log_ids))
            .for_each_concurrent(16, |job| async move {
                if let Err(e) = self.queues.push(job).await {
                    tracing::warn!(error = %e, "could not enqueue a delivery");
                }
            })
            .await;
    }

    /// Emails the entries no device showed in time (see `common/src/infra/storage/fallback.rs`), and
    /// answers when to look again: when the next pending one falls due, or in a minute.
    #[tracing::instrument(name = "email_fallbacks", skip_all)]
    async fn send_fallbacks(&self) -> tokio::time::Instant {
        let minute = self.config.fallback_minute;
        let retry_soon = tokio::time::Instant::now() + Duration::from_secs(5);
        let now = self.clock.now();
        let due = match self.db.due_fallbacks(now, minute, 200).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "could not look for due email fallbacks");
                return retry_soon;
            }
        };
        for (log_id, user_id) in &due {
            match self.db.claim_fallback(log_id, user_id, now).await {
                Ok(FallbackClaim::Send(job)) => {
                    // Their channels that take the fallback get it too.
                    if let Err(e) = self.queues.push(SendJob::ChannelFallback { log_id: *log_id, user_id: *user_id }).await {
                        tracing::warn!(error = %e, %log_id, "could not enqueue a channel fallback");
                    }
                    // At most once: the claim is committed, so a crash here loses this email
                    // rather than sending it twice.
                    match self.queues.mail(job).await {
                        Ok(()) => metrics::counter!(hibiki_common::metric_names::EMAIL_FALLBACKS_TOTAL, "outcome" => "queued").increment(1),
                        Err(e) => tracing::warn!(error = %e, %log_id, "could not enqueue a fallback email"),
                    }
                }
                Ok(FallbackClaim::OverCap) => {
                    tracing::info!(%log_id, "fallback email not sent: the user's 20 of the day are used up");
                    metrics::counter!(hibiki_common::metric_names::EMAIL_FALLBACKS_TOTAL, "outcome" => "over_cap").increment(1);
                }
                Ok(FallbackClaim::Held) => {
                    metrics::counter!(hibiki_common::metric_names::EMAIL_FALLBACKS_TOTAL, "outcome" => "held").increment(1);
                }
                Ok(FallbackClaim::Gone) => {}
                Err(e) => tracing::warn!(error = %e, %log_id, "could not claim an email fallback"),
            }
        }
        let briefs_left = self.send_briefs(now).await;
        if due.len() == 200 || briefs_left {
            return tokio::time::Instant::now();
        }
        let later = tokio::time::Instant::now() + Duration::from_secs(60);
        let next_brief = self.db.next_brief().await.ok().flatten();
        let next_fallback = self.db.next_fallback(minute).await.map(|at| match (at, next_brief) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        });
        match next_fallback {
            Ok(Some(at)) => {
                let wait = at.duration_since(self.clock.now()).unsigned_abs();
                if at <= self.clock.now() { tokio::time::Instant::now() } else { later.min(tokio::time::Instant::now() + wait) }
            }
            Ok(None) => later,
            Err(e) => {
                tracing::warn!(error = %e, "could not read the next email fallback");
                retry_soon
            }
        }
    }

    /// Sends the daily briefs due now (each taken once: see `storage/briefs.rs`); true when
    /// more may be waiting.
    async fn send_briefs(&self, now: Timestamp) -> bool {
        let due = match self.db.due_briefs(now, 200).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "could not look for due daily briefs");
                return false;
            }
        };
        for (user_id, at) in &due {
            let via = match self.db.claim_brief(user_id, *at, now).await {
                Ok(Some(via)) => via,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(error = %e, %user_id, "could not take a daily brief");
                    continue;
                }
            };
            let sent = match via.as_str() {
                "email" => self.queues.mail(MailJob::Brief { user_id: *user_id }).await,
                // Push, or one of their channels (the worker reads which).
                _ => self.queues.push(SendJob::Brief { user_id: *user_id }).await,
            };
            if let Err(e) = sent {
                tracing::warn!(error = %e, %user_id, "could not enqueue a daily brief");
            }
        }
        due.len() == 200
    }

    /// Enqueues again the deliveries whose job was lost. Only while the push queue is empty: a
    /// job still waiting there is not lost, and a backlog must not be enqueued twice.
    async fn requeue_lost(&self, now: Timestamp) {
        match self.queues.depth().await {
            Ok(0) => {}
            Ok(_) => return,
            Err(e) => {
                tracing::warn!(error = %e, "could not read the queue depth");
                return;
            }
        }
        match self.db.stale_queued_deliveries(now - self.config.requeue_after, now - STALE_SEND, REQUEUE_LIMIT).await {
            Ok(ids) if !ids.is_empty() => {
                tracing::info!(count = ids.len(), "re-enqueueing deliveries whose job was lost");
                metrics::counter!(hibiki_common::metric_names::SCHEDULER_REQUEUED_TOTAL).increment(ids.len() as u64);
                self.enqueue(ids).await;
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "could not look for lost deliveries"),
        }
    }
}

/// The seconds that may be claimed soonest, with the moment (Unix ms) each may be: its lead
/// before it, longer for a bigger second. Only seconds within `max_lead` of the next due one
/// can come first, so only those are looked at.
fn claim_points(config: &SchedulerConfig, wheel: &TimingWheel<Key>) -> Vec<(i64, i64)> {
    let Some(first) = wheel.next_due() else { return Vec::new() };
    let limit = config.count_limit();
    (first..=first + config.max_lead.as_secs())
        .filter_map(|second| {
            let count = wheel.count_at(second, limit);
            (count > 0).then(|| (second, second * 1000 - config.lead_for(count).as_millis() as i64))
        })
        .collect()
}

/// Forwards change notices into one channel: from this process (the API beside us) and, on
/// PostgreSQL, from every process through LISTEN.
fn spawn_change_listeners(db: &Db, tx: mpsc::UnboundedSender<Change>, shutdown: CancellationToken) {
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
                                Ok(n) => if let Some(change) = Change::from_payload(n.payload()) { let _ = tx.send(change); },
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

    /// A big second is claimed before a small one just ahead of it; the lead grows with the
    /// count up to its cap.
    #[test]
    fn a_bigger_second_is_claimed_earlier() {
        let config = SchedulerConfig::default();
        assert_eq!(config.lead_for(0), SignedDuration::from_secs(2));
        assert_eq!(config.lead_for(10_000), SignedDuration::from_millis(4500));
        assert_eq!(config.lead_for(10_000_000), SignedDuration::from_secs(30));
        let mut wheel: TimingWheel<Key> = TimingWheel::new(0, 3600);
        let fire = |n: u128| (ReminderId::from(uuid::Uuid::from_u128(n)), FireKind::Occurrence);
        wheel.insert(fire(1), 50);
        for id in 0..60_000u128 {
            wheel.insert(fire(id + 10), 60);
        }
        let points = claim_points(&config, &wheel);
        assert_eq!(points, vec![(50, 48_000), (60, 60_000 - 17_000)]);
        assert_eq!(points.iter().min_by_key(|(_, at)| *at).unwrap().0, 60, "the big second's moment comes first");
        // Beyond max_lead of the next due second nothing can come first: not looked at.
        wheel.insert(fire(2), 50 + 31);
        assert_eq!(claim_points(&config, &wheel).len(), 2);
    }

    #[test]
    fn seconds_round_up() {
        assert_eq!(due_second(5000), 5);
        assert_eq!(due_second(5001), 6);
        assert_eq!(due_second(-1), 0);
    }
}
