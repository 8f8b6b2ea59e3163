//! Aggregates for the admin views and the status page. Never reminder contents.

use jiff::{SignedDuration, Timestamp};
use serde::Serialize;
use sqlx::{AssertSqlSafe, Row};
use utoipa::ToSchema;

use super::Db;
use crate::Result;
use crate::domain::time::{from_millis, to_millis};

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AdminStats {
    pub users: i64,
    pub active_reminders: i64,
    pub deliveries_24h: i64,
    pub failures_24h: i64,
    pub queue_depth: i64,
    /// Deliveries per hour over the last 24 hours, oldest first.
    pub timeline_24h: Vec<TimelineBucket>,
}

/// Deliveries made in one time bucket (by when the delivery log entry was made).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct TimelineBucket {
    #[schema(value_type = String, format = DateTime)]
    pub start: Timestamp,
    pub sent: i64,
    pub failed: i64,
    /// p99 of (push-service answer − due time) of the bucket's deliveries; null when none.
    pub lateness_p99_ms: Option<i64>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AdminUser {
    #[schema(value_type = String)]
    pub id: crate::domain::ids::UserId,
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
    /// Entries that reached the person: a push service accepted them for a device, or they
    /// were emailed (the fallback).
    pub sent: i64,
    /// Entries that reached no device and were not emailed.
    pub failed: i64,
}

/// An entry that reached the person: pushed to a device, or emailed.
const DELIVERED: &str = "(status = 'sent' OR emailed_at IS NOT NULL)";
/// An entry no push service took and no email carried.
const UNDELIVERED: &str = "(status = 'failed' AND emailed_at IS NULL)";

impl Db {
    pub async fn admin_stats(&self, now: Timestamp, queue_depth: i64) -> Result<AdminStats> {
        let since = to_millis(now) - 86_400_000;
        let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(&self.pool).await?;
        let active: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reminders WHERE is_active = 1").fetch_one(&self.pool).await?;
        let counts = self.delivery_counts_since(from_millis(since)).await?;
        let timeline_24h = self.delivery_timeline(now, SignedDuration::from_hours(1), 24).await?;
        Ok(AdminStats {
            users,
            active_reminders: active,
            deliveries_24h: counts.sent,
            failures_24h: counts.failed,
            queue_depth,
            timeline_24h,
        })
    }

    /// `buckets` buckets of `width`, aligned to multiples of `width`, the last one holding
    /// `now`; oldest first. Counts are grouped in SQL; lateness is read only for short spans.
    pub async fn delivery_timeline(&self, now: Timestamp, width: SignedDuration, buckets: usize) -> Result<Vec<TimelineBucket>> {
        Ok(self.delivery_timeline_with_lateness(now, width, buckets).await?.0)
    }

    /// As [`Db::delivery_timeline`], with the lateness samples it read (creation time and
    /// lateness in ms, for spans of at most an hour), so a caller needing both reads once.
    pub async fn delivery_timeline_with_lateness(
        &self,
        now: Timestamp,
        width: SignedDuration,
        buckets: usize,
    ) -> Result<(Vec<TimelineBucket>, Vec<(i64, i64)>)> {
        let width_ms = width.as_millis() as i64;
        let end = (to_millis(now) / width_ms + 1) * width_ms;
        let start = end - width_ms * buckets as i64;
        let mut timeline: Vec<TimelineBucket> = (0..buckets)
            .map(|i| TimelineBucket { start: from_millis(start + width_ms * i as i64), sent: 0, failed: 0, lateness_p99_ms: None })
            .collect();
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT (created_at - $1) / $2 AS bucket, COUNT(CASE WHEN {DELIVERED} THEN 1 END) AS sent,
                 COUNT(CASE WHEN {UNDELIVERED} THEN 1 END) AS failed
             FROM delivery_logs WHERE created_at >= $1 AND created_at < $3 GROUP BY (created_at - $1) / $2"
        )))
        .bind(start)
        .bind(width_ms)
        .bind(end)
        .fetch_all(&self.pool)
        .await?;
        for row in rows {
            let index: i64 = row.try_get("bucket")?;
            if let Some(b) = usize::try_from(index).ok().and_then(|i| timeline.get_mut(i)) {
                b.sent = row.try_get("sent")?;
                b.failed = row.try_get("failed")?;
            }
        }
        let mut samples = Vec::new();
        if buckets as i64 * width_ms <= 3_600_000 {
            let mut lateness: Vec<Vec<i64>> = vec![Vec::new(); buckets];
            let rows = sqlx::query(
                "SELECT created_at, sent_at - occurrence_at AS lateness FROM delivery_logs
                 WHERE created_at >= $1 AND created_at < $2 AND sent_at IS NOT NULL LIMIT 100000",
            )
            .bind(start)
            .bind(end)
            .fetch_all(&self.pool)
            .await?;
            for row in rows {
                let at: i64 = row.try_get("created_at")?;
                let late = row.try_get::<i64, _>("lateness")?.max(0);
                if let Some(v) = lateness.get_mut(((at - start) / width_ms) as usize) {
                    v.push(late);
                }
                samples.push((at, late));
            }
            for (bucket, mut values) in timeline.iter_mut().zip(lateness) {
                values.sort_unstable();
                bucket.lateness_p99_ms = crate::infra::status::percentile(&values, 99.0);
            }
        }
        Ok((timeline, samples))
    }

    /// When the named lease runs out (Unix ms), if anyone holds it.
    pub async fn lease_expiry(&self, name: &str) -> Result<Option<i64>> {
        Ok(sqlx::query_scalar("SELECT expires_at FROM leases WHERE name = $1").bind(name).fetch_optional(&self.pool).await?)
    }

    pub async fn delivery_counts_since(&self, since: Timestamp) -> Result<DeliveryCounts> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT COUNT(CASE WHEN {DELIVERED} THEN 1 END) AS sent, COUNT(CASE WHEN {UNDELIVERED} THEN 1 END) AS failed
             FROM delivery_logs WHERE created_at > $1"
        )))
        .bind(to_millis(since))
        .fetch_one(&self.pool)
        .await?;
        Ok(DeliveryCounts { sent: row.try_get("sent")?, failed: row.try_get("failed")? })
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
