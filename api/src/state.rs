use std::sync::Arc;

use hibiki_common::config::Config;
use hibiki_common::crypto::Keys;
use hibiki_common::keys::VapidKeys;
use hibiki_common::queue::Queues;
use hibiki_common::status::RuntimeStatus;
use hibiki_common::storage::Db;

use crate::ratelimit::Limiters;

/// Everything a handler may need, cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub keys: Keys,
    pub vapid: Arc<VapidKeys>,
    pub queues: Queues,
    pub status: Arc<RuntimeStatus>,
    pub limiters: Arc<Limiters>,
}

impl AppState {
    pub fn new(config: Config, db: Db, keys: Keys, vapid: VapidKeys, queues: Queues, status: Arc<RuntimeStatus>) -> AppState {
        let limiters = Arc::new(Limiters::new(config.auth_rate_per_minute, config.api_rate_per_minute));
        AppState { config: Arc::new(config), db, keys, vapid: Arc::new(vapid), queues, status, limiters }
    }
}
