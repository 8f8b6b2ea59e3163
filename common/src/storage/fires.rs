//! Fires: what the scheduler owes, at most one pending occurrence and one pending snooze per
//! reminder. Claiming a fire is deleting its row (`claims.rs`), so two schedulers can never
//! both fire it.

use jiff::Timestamp;
use sqlx::{AnyConnection, Row};

use super::Db;
use crate::ids::ReminderId;
use crate::states::FireKind;
use crate::time::{from_millis, to_millis};
use crate::{Error, Result};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fire {
    pub reminder_id: ReminderId,
    pub kind: FireKind,
    pub fire_at: Timestamp,
}

/// Sets (or replaces) one of the reminder's pending fires; the caller announces the change
/// once its transaction commits.
pub(super) async fn set_fire(conn: &mut AnyConnection, reminder_id: &ReminderId, kind: FireKind, fire_at: Timestamp) -> Result<()> {
    sqlx::query(
        "INSERT INTO fires (reminder_id, kind, fire_at, occurrence_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (reminder_id, kind) DO UPDATE SET fire_at = excluded.fire_at, occurrence_at = excluded.occurrence_at",
    )
    .bind(reminder_id)
    .bind(kind.as_str())
    .bind(to_millis(fire_at))
    .execute(conn)
    .await?;
    Ok(())
}

/// Sets (or replaces) a fire that rings at `fire_at` for the occurrence at `occurrence_at`
/// (an alert before it, a repeat after it).
pub(super) async fn put_fire(
    conn: &mut AnyConnection,
    reminder_id: &ReminderId,
    kind: FireKind,
    fire_at: Timestamp,
    occurrence_at: Timestamp,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO fires (reminder_id, kind, fire_at, occurrence_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (reminder_id, kind) DO UPDATE SET fire_at = excluded.fire_at, occurrence_at = excluded.occurrence_at",
    )
    .bind(reminder_id)
    .bind(kind.as_str())
    .bind(to_millis(fire_at))
    .bind(to_millis(occurrence_at))
    .execute(conn)
    .await?;
    Ok(())
}

/// Drops the reminder's pending fires: all of them, or those of one kind.
pub(super) async fn drop_fires(conn: &mut AnyConnection, reminder_id: &ReminderId, kind: Option<FireKind>) -> Result<()> {
    match kind {
        None => sqlx::query("DELETE FROM fires WHERE reminder_id = $1").bind(reminder_id).execute(conn).await?,
        Some(kind) => {
            sqlx::query("DELETE FROM fires WHERE reminder_id = $1 AND kind = $2")
                .bind(reminder_id)
                .bind(kind.as_str())
                .execute(conn)
                .await?
        }
    };
    Ok(())
}

impl Db {
    /// The reminder's pending fires (after a change notice).
    pub async fn fires_of(&self, reminder_id: &ReminderId) -> Result<Vec<Fire>> {
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
    let kind: String = r.try_get("kind")?;
    let kind = FireKind::parse(&kind).ok_or_else(|| Error::Corrupt(format!("fire kind {kind:?}")))?;
    Ok(Fire { reminder_id: r.try_get("reminder_id")?, kind, fire_at: from_millis(r.try_get("fire_at")?) })
}
