//! The apalis workers of a process: push and mail, on whichever queue backend is configured.

use std::sync::Arc;

use apalis::layers::retry::RetryPolicy;
use apalis::prelude::*;
use hibiki_common::infra::jobs::{MailJob, SendJob};
use hibiki_common::infra::queue::{Queues, REDIS_POLL, Wakers};
use hibiki_common::infra::storage::Store;
use hibiki_common::infra::wake_on_work::{IDLE_LOOK, WakeOnWork};
use tokio_util::sync::CancellationToken;

use crate::delivery::{self, DeliveryContext};
use crate::mail::Mailer;

/// How many push jobs one worker process holds at once: they mostly wait (for the second they
/// are due, claimed ahead by the scheduler, or on the network); sends in flight are capped
/// separately (`delivery::MAX_SENDS_IN_FLIGHT`).
pub const PUSH_CONCURRENCY: usize = 2048;

pub struct MailContext {
    pub mailer: Mailer,
    /// Reads what a job names (a sign-in mail's secret, a fallback's reminder).
    pub store: Store,
}

async fn handle_push(job: SendJob, ctx: Data<Arc<DeliveryContext>>) -> Result<(), BoxDynError> {
    delivery::run_job(&ctx, job).await.map_err(|e| Box::new(e) as BoxDynError)
}

async fn handle_mail(job: MailJob, ctx: Data<Arc<MailContext>>) -> Result<(), BoxDynError> {
    crate::mail::send_job(&ctx.mailer, &ctx.store, &job).await.map_err(|e| Box::new(e) as BoxDynError)
}

/// Runs `start` again whenever the worker it starts stops before `shutdown`. apalis' Redis
/// worker stops for good when Redis forgets it (a restart without persistence drops its
/// registration); a new worker registers afresh.
pub(crate) async fn supervise<F, Fut>(name: &'static str, shutdown: CancellationToken, mut start: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<(), WorkerError>>,
{
    loop {
        let result = start().await;
        if shutdown.is_cancelled() {
            return;
        }
        match result {
            Ok(()) => tracing::warn!(worker = name, "queue worker stopped; restarting it"),
            Err(e) => tracing::warn!(worker = name, error = %e, "queue worker failed; restarting it"),
        }
        metrics::counter!(hibiki_common::metric_names::WORKER_RESTARTS_TOTAL, "worker" => name).increment(1);
        tokio::select! {
            _ = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
            _ = shutdown.cancelled() => return,
        }
    }
}

/// Runs the push and mail workers until `shutdown`.
pub async fn run(queues: Queues, wakers: Wakers, push: Arc<DeliveryContext>, mail: Arc<MailContext>, shutdown: CancellationToken) {
    // Delivery is idempotent and retries its own sends; a job error means the database was
    // unreachable, worth a few more tries. Mail retries its temporary SMTP failures itself.
    let stop = |s: CancellationToken| async move {
        s.cancelled().await;
        Ok::<(), std::io::Error>(())
    };
    match (queues, wakers) {
        (Queues::Sqlite { push: push_q, mail: mail_q }, Wakers::Sqlite { push: push_w, mail: mail_w }) => {
            let push_loop = supervise("push", shutdown.clone(), || {
                WorkerBuilder::new("hibiki-push")
                    .backend(WakeOnWork::new(push_q.clone(), push_w.clone(), IDLE_LOOK))
                    .data(push.clone())
                    .retry(RetryPolicy::retries(3))
                    .concurrency(PUSH_CONCURRENCY)
                    .build(handle_push)
                    .run_until(stop(shutdown.clone()))
            });
            let mail_loop = supervise("mail", shutdown.clone(), || {
                WorkerBuilder::new("hibiki-mail")
                    .backend(WakeOnWork::new(mail_q.clone(), mail_w.clone(), IDLE_LOOK))
                    .data(mail.clone())
                    .retry(RetryPolicy::retries(3))
                    .build(handle_mail)
                    .run_until(stop(shutdown.clone()))
            });
            futures::join!(push_loop, mail_loop);
        }
        (Queues::Redis { push: push_q, mail: mail_q, .. }, _) => {
            let push_loop = supervise("push", shutdown.clone(), || {
                WorkerBuilder::new(format!("hibiki-push-{}", uuid_like()))
                    .backend(push_q.clone().poll_with_interval(REDIS_POLL))
                    .data(push.clone())
                    .retry(RetryPolicy::retries(3))
                    .concurrency(PUSH_CONCURRENCY)
                    .build(handle_push)
                    .run_until(stop(shutdown.clone()))
            });
            let mail_loop = supervise("mail", shutdown.clone(), || {
                WorkerBuilder::new(format!("hibiki-mail-{}", uuid_like()))
                    .backend(mail_q.clone().poll_with_interval(REDIS_POLL))
                    .data(mail.clone())
                    .retry(RetryPolicy::retries(3))
                    .build(handle_mail)
                    .run_until(stop(shutdown.clone()))
            });
            futures::join!(push_loop, mail_loop);
        }
        (Queues::Sqlite { .. }, Wakers::Redis) => unreachable!("SQLite queues come with SQLite wakers"),
    }
}

/// Worker names must be unique per Redis deployment.
fn uuid_like() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(0);
    format!("{}-{}-{}", std::process::id(), jiff::Timestamp::now().as_millisecond(), SEQ.fetch_add(1, Ordering::Relaxed))
}
