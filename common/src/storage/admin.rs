//! Aggregates for the admin views and the status page. Never reminder contents.

use jiff::Timestamp;
use serde::Serialize;
use sqlx::Row;
use utoipa::ToSchema;

use super::Db;
use crate::Result;
use crate::time::{from_millis, to_millis};

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AdminStats {
    pub users: i64,
    pub active_reminders: i64,
    pub deliveries_24h: i64,
    pub failures_24h: i64,
    pub queue_depth: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AdminUser {
    pub id: String,
    pub email: String,
    pub is_active: bool,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub last_active_at: Timestamp,
    pub active_reminders: i64,
    pub archived_reminders: i64,
}

#[derive(Debug, Clone, Copy, Default, Serialize, ToSchema)]
pub struct DeliveryCounts {
    pub sent: i64,
    pub failed: i64,
}

impl Db {
    pub async fn admin_stats(&self, now: Timestamp, queue_depth: i64) -> Result<AdminStats> {
        let since = to_millis(now) - 86_400_000;
        let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(&self.pool).await?;
        let active: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reminders WHERE is_active = 1").fetch_one(&self.pool).await?;
        let counts = self.delivery_counts_since(from_millis(since)).await?;
        Ok(AdminStats { users, active_reminders: active, deliveries_24h: counts.sent, failures_24h: counts.failed, queue_depth })
    }

    pub async fn delivery_counts_since(&self, since: Timestamp) -> Result<DeliveryCounts> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS total, COUNT(CASE WHEN status = 'failed' THEN 1 END) AS failed FROM delivery_logs WHERE created_at > $1",
        )
        .bind(to_millis(since))
        .fetch_one(&self.pool)
        .await?;
        let total: i64 = row.try_get("total")?;
        let failed: i64 = row.try_get("failed")?;
        Ok(DeliveryCounts { sent: total - failed, failed })
    }

    /// Delivery lateness (sent minus due) in ms for deliveries since `since`, ascending.
    pub async fn lateness_since(&self, since: Timestamp) -> Result<Vec<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT sent_at - occurrence_at FROM delivery_logs WHERE created_at > $1 AND sent_at IS NOT NULL ORDER BY sent_at - occurrence_at LIMIT 100000",
        )
        .bind(to_millis(since))
        .fetch_all(&self.pool)
        .await?)
    }

    /// One page of users (1-based), newest first, and the total count.
    pub async fn admin_users(&self, page: i64, per_page: i64) -> Result<(Vec<AdminUser>, i64)> {
        let total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(&self.pool).await?;
        let rows = sqlx::query(
            "SELECT u.id, u.email, u.is_active, u.created_at, u.last_active_at,
                 (SELECT COUNT(*) FROM reminders r WHERE r.user_id = u.id AND r.is_active = 1) AS active_reminders,
                 (SELECT COUNT(*) FROM reminders r WHERE r.user_id = u.id AND r.is_archived = 1) AS archived_reminders
             FROM users u ORDER BY u.created_at DESC, u.id LIMIT $1 OFFSET $2",
        )
        .bind(per_page)
        .bind((page - 1) * per_page)
        .fetch_all(&self.pool)
        .await?;
        let users = rows
            .iter()
            .map(|r| {
                Ok(AdminUser {
                    id: r.try_get("id")?,
                    email: r.try_get("email")?,
                    is_active: r.try_get::<i64, _>("is_active")? != 0,
                    created_at: from_millis(r.try_get("created_at")?),
                    last_active_at: from_millis(r.try_get("last_active_at")?),
                    active_reminders: r.try_get("active_reminders")?,
                    archived_reminders: r.try_get("archived_reminders")?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((users, total))
    }
}
