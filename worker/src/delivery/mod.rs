//! The push queue's jobs, one module a kind: rings (`ring`), escalations (`escalation`),
//! notices (`notices`: test, done, brief) and channel jobs (`channel_jobs`); here their
//! context, retry timing and error, and the dispatch.

mod channel_jobs;
mod escalation;
mod notices;
mod ring;

pub use ring::deliver;

use std::sync::Arc;
use std::time::Duration;

use hibiki_common::domain::time::Clock;
use hibiki_common::infra::crypto::Keys;
use hibiki_common::infra::jobs::SendJob;
use hibiki_common::infra::storage::Db;
use tokio::sync::Semaphore;

use crate::push::PushClient;
use crate::recorder::{RecordError, Recorder};

const MAX_ATTEMPTS: u32 = 4;
pub use crate::push::MAX_SENDS_IN_FLIGHT;
/// Jobs reading, claiming and encrypting at once: the rest wait their turn instead of
/// crowding the database pool in a burst (they have until their second).
const PREPARING_AT_ONCE: usize = 8;
const REMINDER_TTL: u32 = 4 * 3600;
const TEST_TTL: u32 = 60;
/// After a 413, the message once more with its texts cut to fit this (ids, token and URLs
/// are kept whole, so it cannot be much smaller).
pub const SHORT_PAYLOAD_BYTES: usize = 1024;

pub struct DeliveryContext {
    pub db: Db,
    pub keys: Keys,
    pub client: PushClient,
    pub retry: RetryTiming,
    /// The app's public URL: the notification opens the reminder there.
    pub public_url: String,
    /// What "now" is: pushes go out at their entry's second by it.
    pub clock: Clock,
    /// The operator's Telegram bot and LINE channel (none configured: both off).
    pub bots: Arc<hibiki_common::infra::bots::Bots>,
    /// The queues, for what a delivery hands on (an escalation's email).
    pub queues: Option<hibiki_common::infra::queue::Queues>,
    preparing: Semaphore,
    recorder: Recorder,
}

impl DeliveryContext {
    /// Needs a tokio runtime: it starts the process's recorder task.
    pub fn new(db: Db, keys: Keys, client: PushClient, retry: RetryTiming, public_url: String, clock: Clock) -> DeliveryContext {
        let recorder = Recorder::start(db.clone());
        let bots = Arc::new(hibiki_common::infra::bots::Bots::none());
        DeliveryContext {
            db,
            keys,
            client,
            retry,
            public_url,
            clock,
            bots,
            queues: None,
            preparing: Semaphore::new(PREPARING_AT_ONCE),
            recorder,
        }
    }

    /// The same, handing on to these queues.
    pub fn with_queues(mut self, queues: hibiki_common::infra::queue::Queues) -> DeliveryContext {
        self.queues = Some(queues);
        self
    }

    /// The same, with the operator's bots.
    pub fn with_bots(mut self, bots: Arc<hibiki_common::infra::bots::Bots>) -> DeliveryContext {
        self.bots = bots;
        self
    }
}

/// How long a send that may be retried waits before its next attempt, unless the push service
/// said (Retry-After): `base` × 2^attempt, i.e. 2, 4 and 8 s with the default base of 1 s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryTiming {
    pub base: Duration,
}

impl Default for RetryTiming {
    fn default() -> RetryTiming {
        RetryTiming { base: Duration::from_secs(1) }
    }
}

impl RetryTiming {
    /// The wait after failed attempt `attempt` (1-based).
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let backoff = self.base.saturating_mul(1 << attempt.min(5));
        retry_after.unwrap_or(backoff).clamp(Duration::from_millis(200), Duration::from_secs(60))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DeliveryError {
    #[error(transparent)]
    Store(#[from] hibiki_common::Error),
    #[error(transparent)]
    Record(#[from] RecordError),
}

pub async fn run_job(ctx: &DeliveryContext, job: SendJob) -> Result<(), DeliveryError> {
    match job {
        SendJob::Deliver { log_id } => deliver(ctx, &[log_id]).await,
        SendJob::DeliverBatch { log_ids } => deliver(ctx, &log_ids).await,
        SendJob::Test { user_id } => notices::test(ctx, &user_id).await,
        SendJob::Done { log_id, by } => notices::done(ctx, &log_id, &by).await,
        SendJob::Brief { user_id } => notices::brief(ctx, &user_id).await,
        SendJob::ChannelFallback { log_id, user_id } => channel_jobs::channel_fallback(ctx, &log_id, &user_id).await,
        SendJob::ChannelTest { channel_id } => channel_jobs::channel_test(ctx, &channel_id).await,
        SendJob::BotReply { reply } => {
            // A reply that cannot go is not worth a retry storm: logged and dropped.
            if let Err(e) = crate::bots::reply(&ctx.bots, &reply).await {
                tracing::warn!(error = %e, "could not send a bot reply");
            }
            Ok(())
        }
    }
}

pub type SharedContext = Arc<DeliveryContext>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_unless_told_when() {
        let retry = RetryTiming::default();
        let delays: Vec<_> = (1..MAX_ATTEMPTS).map(|a| retry.delay(a, None)).collect();
        assert_eq!(delays, [Duration::from_secs(2), Duration::from_secs(4), Duration::from_secs(8)]);
        assert_eq!(retry.delay(1, Some(Duration::from_secs(3))), Duration::from_secs(3));
        assert_eq!(retry.delay(1, Some(Duration::ZERO)), Duration::from_millis(200));
        assert_eq!(retry.delay(1, Some(Duration::from_secs(3600))), Duration::from_secs(60));
        let fast = RetryTiming { base: Duration::from_millis(100) };
        assert_eq!(fast.delay(1, None), Duration::from_millis(200));
        assert_eq!(fast.delay(3, None), Duration::from_millis(800));
    }
}
