//! Fires: what the scheduler owes, at most one pending occurrence and one pending snooze per
//! reminder. Claiming a fire is deleting its row (`claims.rs`), so two schedulers can never
//! both fire it.

use jiff::Timestamp;
use sqlx::Row;

use super::Db;
use crate::Result;
use crate::time::{from_millis, to_millis};

pub const FIRE_OCCURRENCE: &str = "occurrence";
pub const FIRE_SNOOZE: &str = "snooze";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fire {
    pub reminder_id: String,
    pub kind: String,
    pub fire_at: Timestamp,
}

impl Db {
    /// Sets (or replaces) one of the reminder's pending fires.
    pub async fn set_fire(&self, reminder_id: &str, kind: &str, fire_at: Timestamp) -> Result<()> {
        sqlx::query(
            "INSERT INTO fires (reminder_id, kind, fire_at, occurrence_at) VALUES ($1, $2, $3, $3)
             ON CONFLICT (reminder_id, kind) DO UPDATE SET fire_at = excluded.fire_at, occurrence_at = excluded.occurrence_at",
        )
        .bind(reminder_id)
        .bind(kind)
        .bind(to_millis(fire_at))
        .execute(&self.pool)
        .await?;
        self.reminder_changed(reminder_id).await;
        Ok(())
    }

    pub async fn clear_fires(&self, reminder_id: &str) -> Result<()> {
        sqlx::query("DELETE FROM fires WHERE reminder_id = $1").bind(reminder_id).execute(&self.pool).await?;
        self.reminder_changed(reminder_id).await;
        Ok(())
    }

    pub async fn clear_snooze(&self, reminder_id: &str) -> Result<()> {
        sqlx::query("DELETE FROM fires WHERE reminder_id = $1 AND kind = 'snooze'").bind(reminder_id).execute(&self.pool).await?;
        self.reminder_changed(reminder_id).await;
        Ok(())
    }

    /// The reminder's pending fires (after a change notice).
    pub async fn fires_of(&self, reminder_id: &str) -> Result<Vec<Fire>> {
        let rows = sqlx::query("SELECT reminder_id, kind, fire_at FROM fires WHERE reminder_id = $1")
            .bind(reminder_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(fire_from_row).collect()
    }

    /// Every fire due before `until` (the scheduler's horizon), earliest first.
    pub async fn fires_before(&self, until: Timestamp) -> Result<Vec<Fire>> {
        let rows = sqlx::query("SELECT reminder_id, kind, fire_at FROM fires WHERE fire_at < $1 ORDER BY fire_at")
            .bind(to_millis(until))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(fire_from_row).collect()
    }
}

fn fire_from_row(r: &sqlx::any::AnyRow) -> Result<Fire> {
    Ok(Fire { reminder_id: r.try_get("reminder_id")?, kind: r.try_get("kind")?, fire_at: from_millis(r.try_get("fire_at")?) })
}
