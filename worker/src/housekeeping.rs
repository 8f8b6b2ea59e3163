//! Periodic clean-up, run by an apalis-cron worker: the 7-day archive of unanswered one-time
//! reminders, the 180-day non-use rule, expired codes, sessions and counters, the retention of
//! delivery history and archived reminders, finished queue jobs and old outbox mail. Every
//! worker process runs the schedule; a database lease lets one of them do each pass.

use std::str::FromStr;
use std::sync::Arc;

use apalis::prelude::*;
use apalis_cron::{CronScheduler, Tick};
use std::path::PathBuf;

use hibiki_common::domain::time::Clock;
use hibiki_common::infra::queue::Queues;
use hibiki_common::infra::storage::Db;
use jiff::{SignedDuration, Timestamp};
use tokio_util::sync::CancellationToken;

pub const ARCHIVE_UNANSWERED_AFTER: SignedDuration = SignedDuration::from_hours(24 * 7);
pub const NON_USE_AFTER: SignedDuration = SignedDuration::from_hours(24 * 180);
/// Every ten minutes, at second 0 (cron with seconds).
pub const EVERY_TEN_MINUTES: &str = "0 */10 * * * *";
const LEASE: &str = "housekeeping";

/// Finished jobs are removed once they are this old (the pass runs every ten minutes, so
/// they are gone within half an hour).
pub const FINISHED_JOBS_KEPT: std::time::Duration = std::time::Duration::from_secs(15 * 60);

/// One pass over the database; returns (archived unanswered, archived for non-use, pruned
/// rows, retention included).
pub async fn run_once(db: &Db, now: Timestamp) -> hibiki_common::Result<(u64, u64, u64)> {
    let unanswered = db.archive_unanswered(now, ARCHIVE_UNANSWERED_AFTER).await?;
    let unused = db.retire_unused(now, NON_USE_AFTER).await?;
    let pruned = db.prune_expired(now).await?;
    let retained = db.enforce_retention(now).await?;
    Ok((unanswered, unused, pruned + retained.delivery_entries + retained.archived_reminders))
}

/// What a pass cleans besides the database: the queues' finished jobs, the outbox's old mail.
#[derive(Clone, Default)]
pub struct Extras {
    pub queues: Option<Queues>,
    pub outbox: Option<PathBuf>,
}

impl Extras {
    /// Returns (finished jobs removed, outbox mails removed).
    pub async fn clean(&self) -> (u64, u64) {
        let jobs = match &self.queues {
            Some(queues) => queues.vacuum_finished(FINISHED_JOBS_KEPT).await.unwrap_or_else(|e| {
                tracing::warn!(error = %e, "could not remove finished jobs");
                0
            }),
            None => 0,
        };
        let mails = match &self.outbox {
            Some(dir) => hibiki_common::infra::outbox::prune(dir, std::time::SystemTime::now(), hibiki_common::infra::outbox::KEEP)
                .unwrap_or_else(|e| {
                    tracing::warn!(error = %e, "could not prune the outbox");
                    0
                }),
            None => 0,
        };
        (jobs, mails)
    }
}

struct Housekeeper {
    db: Db,
    clock: Clock,
    extras: Extras,
    /// This process's name for the lease.
    holder: String,
    /// Slightly shorter than the schedule's period, so the next tick finds it free.
    lease: SignedDuration,
    /// Passes this process ran (it held the lease).
    passes: std::sync::atomic::AtomicU64,
}

async fn handle_tick(_tick: Tick, ctx: Data<Arc<Housekeeper>>) -> Result<(), BoxDynError> {
    let now = ctx.clock.now();
    if !ctx.db.try_lease(LEASE, &ctx.holder, now, ctx.lease).await? {
        return Ok(()); // another worker process does this pass
    }
    ctx.passes.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let (a, b, c) = run_once(&ctx.db, now).await?;
    let (jobs, mails) = ctx.extras.clean().await;
    metrics::counter!(hibiki_common::metric_names::HOUSEKEEPING_RUNS_TOTAL).increment(1);
    if a + b + c + jobs + mails > 0 {
        tracing::info!(
            archived_unanswered = a,
            archived_unused = b,
            pruned = c,
            finished_jobs = jobs,
            outbox_mails = mails,
            "housekeeping"
        );
    }
    Ok(())
}

/// Runs housekeeping on `schedule` (cron with seconds) until `shutdown`; answers how many
/// passes this process ran (the others went to another process holding the lease).
pub async fn run(db: Db, extras: Extras, schedule: &str, clock: Clock, shutdown: CancellationToken) -> anyhow::Result<u64> {
    let schedule = cron::Schedule::from_str(schedule)?;
    let period = {
        let mut next = schedule.upcoming(chrono::Utc).take(2);
        match (next.next(), next.next()) {
            (Some(a), Some(b)) => SignedDuration::from_secs((b - a).num_seconds().max(1)),
            _ => SignedDuration::from_mins(10),
        }
    };
    let ctx = Arc::new(Housekeeper {
        db,
        clock,
        extras,
        holder: format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()),
        lease: period - SignedDuration::from_millis(500).min(period / 2),
        passes: Default::default(),
    });
    crate::runner::supervise("housekeeping", shutdown.clone(), || {
        let shutdown = shutdown.clone();
        WorkerBuilder::new("hibiki-housekeeping")
            .backend(CronScheduler::new(schedule.clone()))
            .data(ctx.clone())
            .build(handle_tick)
            .run_until(async move {
                shutdown.cancelled().await;
                Ok::<(), std::io::Error>(())
            })
    })
    .await;
    Ok(ctx.passes.load(std::sync::atomic::Ordering::Relaxed))
}
