//! The apalis workers of a process: push and mail, on whichever queue backend is configured.

use std::sync::Arc;

use apalis::layers::retry::RetryPolicy;
use apalis::prelude::*;
use hibiki_common::jobs::{MailJob, PushJob};
use hibiki_common::queue::{Queues, REDIS_POLL, Wakers};
use hibiki_common::storage::Db;
use tokio_util::sync::CancellationToken;

use crate::delivery::{self, DeliveryContext};
use crate::mail::Mailer;

/// How many pushes one worker process sends at once (they mostly wait on the network).
pub const PUSH_CONCURRENCY: usize = 256;

pub struct MailContext {
    pub mailer: Mailer,
    pub db: Db,
}

async fn handle_push(job: PushJob, ctx: Data<Arc<DeliveryContext>>) -> Result<(), BoxDynError> {
    delivery::run_job(&ctx, job).await.map_err(|e| Box::new(e) as BoxDynError)
}

async fn handle_mail(job: MailJob, ctx: Data<Arc<MailContext>>) -> Result<(), BoxDynError> {
    crate::mail::send_job(&ctx.mailer, &ctx.db, &job).await.map_err(|e| Box::new(e) as BoxDynError)
}

/// Runs the push and mail workers until `shutdown`.
pub async fn run(queues: Queues, wakers: Wakers, push: Arc<DeliveryContext>, mail: Arc<MailContext>, shutdown: CancellationToken) {
    // Delivery is idempotent and retries its own sends; a job error means the database was
    // unreachable, worth a few more tries. Mail retries its temporary SMTP failures itself.
    let stop = || {
        let s = shutdown.clone();
        async move {
            s.cancelled().await;
            Ok::<(), std::io::Error>(())
        }
    };
    let results = match (queues, wakers) {
        (Queues::Sqlite { push: push_q, mail: mail_q }, Wakers::Sqlite { push: push_w, mail: mail_w }) => {
            let push_worker = WorkerBuilder::new("hibiki-push")
                .backend(push_q.with_callback(push_w))
                .data(push)
                .retry(RetryPolicy::retries(3))
                .concurrency(PUSH_CONCURRENCY)
                .build(handle_push);
            let mail_worker = WorkerBuilder::new("hibiki-mail").backend(mail_q.with_callback(mail_w)).data(mail).retry(RetryPolicy::retries(3)).build(handle_mail);
            futures::join!(push_worker.run_until(stop()), mail_worker.run_until(stop()))
        }
        (Queues::Redis { push: push_q, mail: mail_q, .. }, _) => {
            let push_worker = WorkerBuilder::new(format!("hibiki-push-{}", uuid_like()))
                .backend(push_q.poll_with_interval(REDIS_POLL))
                .data(push)
                .retry(RetryPolicy::retries(3))
                .concurrency(PUSH_CONCURRENCY)
                .build(handle_push);
            let mail_worker = WorkerBuilder::new(format!("hibiki-mail-{}", uuid_like()))
                .backend(mail_q.poll_with_interval(REDIS_POLL))
                .data(mail)
                .retry(RetryPolicy::retries(3))
                .build(handle_mail);
            futures::join!(push_worker.run_until(stop()), mail_worker.run_until(stop()))
        }
        (Queues::Sqlite { .. }, Wakers::Redis) => unreachable!("SQLite queues come with SQLite wakers"),
    };
    for r in [results.0, results.1] {
        if let Err(e) = r {
            tracing::error!(error = %e, "a queue worker stopped with an error");
        }
    }
}

/// Worker names must be unique per Redis deployment.
fn uuid_like() -> String {
    format!("{}-{}", std::process::id(), jiff::Timestamp::now().as_millisecond())
}
