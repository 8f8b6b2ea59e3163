use std::sync::Arc;

use hibiki_common::domain::time::Clock;
use hibiki_common::infra::config::Config;
use hibiki_common::infra::crypto::Keys;
use hibiki_common::infra::keys::VapidKeys;
use hibiki_common::infra::queue::Queues;
use hibiki_common::infra::status::RuntimeStatus;
use hibiki_common::infra::storage::{Db, Store};

use crate::feeds::FeedCache;
use crate::ratelimit::Limiters;
use crate::recent::Recent;
use crate::routes::health::{Health, StatusSummary};

/// Answers kept for a moment because every caller may ask for them, signed in or not.
pub struct Answers {
    pub health: Recent<(axum::http::StatusCode, Health)>,
    pub status: Recent<StatusSummary>,
}

impl Default for Answers {
    fn default() -> Answers {
        let two_seconds = std::time::Duration::from_secs(2);
        Answers { health: Recent::new(two_seconds), status: Recent::new(two_seconds) }
    }
}

/// Everything a handler may need, cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    /// The database and the keys it is sealed under.
    pub store: Store,
    pub vapid: Arc<VapidKeys>,
    pub queues: Queues,
    pub status: Arc<RuntimeStatus>,
    pub limiters: Arc<Limiters>,
    pub answers: Arc<Answers>,
    pub feeds: Arc<FeedCache>,
    /// What "now" is for every handler (a test steps it).
    pub clock: Clock,
    /// The operator's Telegram bot and LINE channel.
    pub bots: Arc<hibiki_common::infra::bots::Bots>,
}

impl AppState {
    /// What a use case that enqueues works with.
    pub fn use_cases(&self) -> hibiki_common::usecases::Context<'_> {
        hibiki_common::usecases::Context { store: &self.store, queues: &self.queues, bots: &self.bots }
    }

    pub fn new(config: Config, db: Db, keys: Keys, vapid: VapidKeys, queues: Queues, status: Arc<RuntimeStatus>, clock: Clock) -> AppState {
        let limiters = Arc::new(Limiters::new(config.auth_rate_per_minute, config.api_rate_per_minute));
        let bots = Arc::new(hibiki_common::infra::bots::Bots::from_config(&config));
        AppState {
            config: Arc::new(config),
            store: Store { db, keys },
            vapid: Arc::new(vapid),
            queues,
            status,
            limiters,
            answers: Arc::new(Answers::default()),
            feeds: Arc::new(FeedCache::default()),
            clock,
            bots,
        }
    }
}
