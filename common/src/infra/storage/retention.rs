//! What Hibiki keeps, and for how long (decisions.md, "Retention"): delivery history 180 days;
//! archived reminders one year after archiving, and at most 1,000 per account (the oldest
//! archived go first). An entry, a reminder or an account goes with every row that belongs
//! to it (storage/children.rs).

use jiff::{SignedDuration, Timestamp};
use sqlx::Row;

use super::Db;
use crate::Result;
use crate::domain::ids::{LogId, ReminderId, UserId};
use crate::domain::time::to_millis;

pub const DELIVERY_HISTORY: SignedDuration = SignedDuration::from_hours(24 * 180);
pub const ARCHIVE_KEPT: SignedDuration = SignedDuration::from_hours(24 * 365);
pub const ARCHIVED_PER_ACCOUNT: i64 = 1000;
/// The daily orphan sweep's lease (a holder named by its instant takes it only once expired).
const ORPHAN_SWEEP: &str = "orphan-sweep";
/// Rows one pass removes at most per statement, so a pass never holds a long transaction.
const BATCH: i64 = 1000;

/// What one retention pass removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Removed {
    pub delivery_entries: u64,
    pub archived_reminders: u64,
    /// Rows whose parent was gone.
    pub orphans: u64,
}

impl Db {
    pub async fn enforce_retention(&self, now: Timestamp) -> Result<Removed> {
        let now_ms = to_millis(now);
        let mut removed = Removed::default();
        let history_cutoff = now_ms - DELIVERY_HISTORY.as_millis() as i64;
        loop {
            let ids: Vec<LogId> = sqlx::query_scalar("SELECT id FROM delivery_logs WHERE created_at <= $1 LIMIT $2")
                .bind(history_cutoff)
                .bind(BATCH)
                .fetch_all(&self.pool)
                .await?;
            if ids.is_empty() {
                break;
            }
            let mut tx = self.pool.begin().await?;
            for id in &ids {
                super::children::remove(&mut tx, super::children::Key::Entry(id)).await?;
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
        // Rows whose parent went another way (storage/children.rs: every leaf child table),
        // once a day: it reads whole tables, and the cascades leave none behind.
        if self.try_lease(ORPHAN_SWEEP, &now_ms.to_string(), now, SignedDuration::from_hours(24)).await? {
            let mut conn = self.pool.acquire().await?;
            removed.orphans = super::children::sweep_orphans(&mut conn).await?;
        }
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
