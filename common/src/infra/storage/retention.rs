//! What Hibiki keeps, and for how long (decisions.md, "Retention"): delivery history 180 days;
//! archived reminders one year after archiving, and at most 1,000 per account (the oldest
//! archived go first).

use jiff::{SignedDuration, Timestamp};
use sqlx::Row;

use super::Db;
use crate::Result;
use crate::domain::ids::{ReminderId, UserId};
use crate::domain::time::to_millis;

pub const DELIVERY_HISTORY: SignedDuration = SignedDuration::from_hours(24 * 180);
pub const ARCHIVE_KEPT: SignedDuration = SignedDuration::from_hours(24 * 365);
pub const ARCHIVED_PER_ACCOUNT: i64 = 1000;
/// Rows one pass removes at most per statement, so a pass never holds a long transaction.
const BATCH: i64 = 1000;

/// What one retention pass removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    pub delivery_entries: u64,
    pub archived_reminders: u64,
}

impl Db {
    pub async fn enforce_retention(&self, now: Timestamp) -> Result<Removed> {
        let now_ms = to_millis(now);
        let mut removed = Removed::default();
        let history_cutoff = now_ms - DELIVERY_HISTORY.as_millis() as i64;
        loop {
            let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM delivery_logs WHERE created_at <= $1 LIMIT $2")
                .bind(history_cutoff)
                .bind(BATCH)
                .fetch_all(&self.pool)
                .await?;
            if ids.is_empty() {
                break;
            }
            let mut tx = self.pool.begin().await?;
            for id in &ids {
                for sql in [
                    "DELETE FROM deliveries WHERE log_id = $1",
                    "DELETE FROM fallbacks WHERE log_id = $1",
                    "DELETE FROM holds WHERE log_id = $1",
                    "DELETE FROM delivery_logs WHERE id = $1",
                ] {
                    sqlx::query(sql).bind(id).execute(&mut *tx).await?;
                }
            }
            tx.commit().await?;
            removed.delivery_entries += ids.len() as u64;
        }

        let archive_cutoff = now_ms - ARCHIVE_KEPT.as_millis() as i64;
        loop {
            let ids: Vec<ReminderId> = sqlx::query_scalar(
                "SELECT id FROM reminders WHERE is_archived = 1 AND archived_at IS NOT NULL AND archived_at <= $1 LIMIT $2",
            )
            .bind(archive_cutoff)
            .bind(BATCH)
            .fetch_all(&self.pool)
            .await?;
            if ids.is_empty() {
                break;
            }
            removed.archived_reminders += self.purge_reminders(&ids).await?;
        }

        let crowded =
            sqlx::query("SELECT user_id, COUNT(*) AS n FROM reminders WHERE is_archived = 1 GROUP BY user_id HAVING COUNT(*) > $1")
                .bind(ARCHIVED_PER_ACCOUNT)
                .fetch_all(&self.pool)
                .await?;
        for row in crowded {
            let user_id: UserId = row.try_get("user_id")?;
            let over: i64 = row.try_get::<i64, _>("n")? - ARCHIVED_PER_ACCOUNT;
            let ids: Vec<ReminderId> = sqlx::query_scalar(
                "SELECT id FROM reminders WHERE user_id = $1 AND is_archived = 1
                 ORDER BY COALESCE(archived_at, updated_at) ASC, id ASC LIMIT $2",
            )
            .bind(user_id)
            .bind(over)
            .fetch_all(&self.pool)
            .await?;
            removed.archived_reminders += self.purge_reminders(&ids).await?;
        }
        // Email fallbacks whose entry or person went another way (a deleted reminder or
        // account; SQLite keeps no foreign keys on them).
        sqlx::query(
            "DELETE FROM fallbacks WHERE NOT EXISTS (SELECT 1 FROM delivery_logs l WHERE l.id = fallbacks.log_id)
                 OR NOT EXISTS (SELECT 1 FROM users u WHERE u.id = fallbacks.user_id)",
        )
        .execute(&self.pool)
        .await?;
        sqlx::query("DELETE FROM holds WHERE NOT EXISTS (SELECT 1 FROM delivery_logs l WHERE l.id = holds.log_id)")
            .execute(&self.pool)
            .await?;
        Ok(removed)
    }

    /// Deletes reminders with their fires and delivery history, in one transaction.
    async fn purge_reminders(&self, ids: &[ReminderId]) -> Result<u64> {
        let mut tx = self.pool.begin().await?;
        let mut n = 0;
        for id in ids {
            n += u64::from(super::lists::delete_reminder_rows(&mut tx, id).await?);
        }
        tx.commit().await?;
        Ok(n)
    }
}
