//! Hibiki's workers: Web Push (rings, escalations, notices), mail, channels (ntfy, webhooks,
//! and the operator's Telegram and LINE bots), the daily brief and housekeeping.

pub mod bots;
pub mod brief;
pub mod channels;
pub mod delivery;
pub mod ece;
pub mod housekeeping;
pub mod mail;
pub mod payload;
pub mod push;
pub mod recorder;
pub mod runner;
pub mod texts;

use std::sync::Arc;

use hibiki_common::domain::time::Clock;
use hibiki_common::infra::config::Config;
use hibiki_common::infra::crypto::Keys;
use hibiki_common::infra::keys::VapidKeys;
use hibiki_common::infra::queue::{Queues, Wakers};
use hibiki_common::infra::storage::{Db, Store};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// What the worker takes from the process that runs it.
pub struct WorkerParts {
    pub db: Db,
    pub keys: Keys,
    pub vapid: VapidKeys,
    pub queues: Queues,
    pub wakers: Wakers,
    pub clock: Clock,
    /// The push retries' backoff (tests shorten it).
    pub retry: delivery::RetryTiming,
}

/// Starts the worker's tasks into `tasks`: the push and mail queues' workers, the operator's
/// Telegram bot (its webhook set, or long polling without an https public URL) and the
/// housekeeping schedule. They stop when `shutdown` is cancelled.
pub fn start(config: &Config, parts: WorkerParts, tasks: &mut JoinSet<()>, shutdown: &CancellationToken) -> anyhow::Result<()> {
    let WorkerParts { db, keys, vapid, queues, wakers, clock, retry } = parts;
    let store = Store { db: db.clone(), keys: keys.clone() };
    let client = push::PushClient::new(vapid, config.vapid_subject(), push::PushSettings::from_config(config)?)?;
    let bots = Arc::new(hibiki_common::infra::bots::Bots::from_config(config));
    let push = Arc::new(
        delivery::DeliveryContext::new(db.clone(), keys, client, retry, config.public_url.to_string(), clock.clone())
            .with_bots(bots.clone())
            .with_queues(queues.clone()),
    );
    if bots.telegram_enabled() {
        if config.public_url.scheme() == "https" {
            // Telegram calls the webhook; tell it where.
            let public_url = config.public_url.to_string();
            let bots = bots.clone();
            tasks.spawn(async move {
                if let Err(e) = bots::set_telegram_webhook(&bots, &public_url).await {
                    tracing::error!(error = %e, "could not set the Telegram webhook");
                }
            });
        } else {
            tasks.spawn(bots::poll_telegram(bots.clone(), store.clone(), queues.clone(), clock.clone(), shutdown.clone()));
        }
    }
    let mail = Arc::new(runner::MailContext { mailer: mail::Mailer::from_config(config)?, store });
    tasks.spawn(runner::run(queues.clone(), wakers, push, mail, shutdown.clone()));
    let extras = housekeeping::Extras {
        queues: Some(queues),
        outbox: config.smtp_url.is_none().then(|| hibiki_common::infra::outbox::dir(&config.data_dir)),
    };
    let housekeeping = housekeeping::run(db, extras, housekeeping::EVERY_TEN_MINUTES, clock, shutdown.clone());
    tasks.spawn(async move {
        if let Err(e) = housekeeping.await {
            tracing::error!(error = %e, "housekeeping could not start");
        }
    });
    Ok(())
}
