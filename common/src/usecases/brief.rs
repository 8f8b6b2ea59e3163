//! A person's daily brief, composed when it is sent.

use jiff::Timestamp;

use crate::Result;
use crate::domain::brief::{self, Brief};
use crate::domain::ids::UserId;
use crate::domain::reminder::StatusFilter;
use crate::domain::settings::Settings;
use crate::infra::storage::Store;

/// What the person's brief says at `now`, with their settings (language, zone, hide content).
pub async fn today(store: &Store, user_id: &UserId, now: Timestamp) -> Result<(Brief, Settings)> {
    let settings = store.db.settings(user_id).await?;
    let reminders = store.list_reminders(user_id, StatusFilter::Active, now).await?;
    Ok((brief::compose(&reminders, user_id, &settings.timezone, now), settings))
}
