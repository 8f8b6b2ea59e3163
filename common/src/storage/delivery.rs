//! Delivery state: push subscriptions, the fires the scheduler owes, delivery log entries (one
//! per fired occurrence) and deliveries (one per entry and device). Every step that must happen
//! once is guarded by a key or a conditional statement in the database, so duplicate jobs,
//! restarted workers and two schedulers cannot double it.

use jiff::{SignedDuration, Timestamp};
use serde::Serialize;
use sqlx::Row;
use utoipa::ToSchema;

use super::Db;
use crate::reminder::Timing;
use crate::time::{from_millis, to_millis};
use crate::{Error, Result};

pub const FIRE_OCCURRENCE: &str = "occurrence";
pub const FIRE_SNOOZE: &str = "snooze";
/// An occurrence missed by downtime is still delivered (marked late) within this window.
pub const LATE_WINDOW: SignedDuration = SignedDuration::from_mins(15);

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Subscription {
    pub id: String,
    pub endpoint: String,
    #[schema(value_type = Object)]
    pub device_info: serde_json::Value,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_success_at: Option<Timestamp>,
}

/// What the push worker needs to encrypt for and reach a device.
#[derive(Debug, Clone)]
pub struct SubscriptionKeys {
    pub id: String,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fire {
    pub reminder_id: String,
    pub kind: String,
    pub fire_at: Timestamp,
}

/// The outcome of claiming a due fire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claimed {
    /// Someone else claimed it first, or it changed since it was read.
    Gone,
    /// A delivery log entry to push; `next` is the occurrence fire the claim scheduled.
    Deliver { log_id: String, late: bool, next: Option<Timestamp> },
    /// Too late to deliver; logged as missed.
    Missed { log_id: String, next: Option<Timestamp> },
}

/// The devices of one delivery log entry: still being sent (by this or another worker),
/// received, and when the first received it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceProgress {
    pub in_flight: i64,
    pub sent: i64,
    pub first_sent_at: Option<Timestamp>,
}

/// A delivery log entry with what a push of it needs.
#[derive(Debug, Clone)]
pub struct PendingDelivery {
    pub log_id: String,
    pub reminder_id: String,
    pub user_id: String,
    pub occurrence_at: Timestamp,
    pub kind: String,
    pub late: bool,
    pub status: String,
}

impl Db {
    // Subscriptions

    /// Stores a subscription; re-subscribing the same endpoint updates it (and moves it to
    /// this user: the browser profile signed in as someone else).
    pub async fn upsert_subscription(&self, user_id: &str, endpoint: &str, p256dh: &str, auth: &str, device_info: &serde_json::Value, now: Timestamp) -> Result<String> {
        let id = uuid::Uuid::new_v4().to_string();
        let now_ms = to_millis(now);
        let id: String = sqlx::query_scalar(
            "INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, device_info, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
             ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
                 device_info = excluded.device_info, updated_at = excluded.updated_at
             RETURNING id",
        )
        .bind(&id)
        .bind(user_id)
        .bind(endpoint)
        .bind(p256dh)
        .bind(auth)
        .bind(device_info.to_string())
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    pub async fn delete_subscription_of_user(&self, user_id: &str, endpoint: &str) -> Result<bool> {
        Ok(sqlx::query("DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2").bind(user_id).bind(endpoint).execute(&self.pool).await?.rows_affected() > 0)
    }

    /// A push service said the subscription is gone (404/410).
    pub async fn delete_subscription(&self, id: &str) -> Result<()> {
        sqlx::query("DELETE FROM push_subscriptions WHERE id = $1").bind(id).execute(&self.pool).await?;
        Ok(())
    }

    pub async fn subscriptions(&self, user_id: &str) -> Result<Vec<Subscription>> {
        let rows = sqlx::query("SELECT id, endpoint, device_info, created_at, last_success_at FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at")
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                let info: String = r.try_get("device_info")?;
                Ok(Subscription {
                    id: r.try_get("id")?,
                    endpoint: r.try_get("endpoint")?,
                    device_info: serde_json::from_str(&info).unwrap_or(serde_json::Value::Null),
                    created_at: from_millis(r.try_get("created_at")?),
                    last_success_at: r.try_get::<Option<i64>, _>("last_success_at")?.map(from_millis),
                })
            })
            .collect()
    }

    pub async fn subscription_keys(&self, user_id: &str) -> Result<Vec<SubscriptionKeys>> {
        let rows = sqlx::query("SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at")
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok(SubscriptionKeys { id: r.try_get("id")?, endpoint: r.try_get("endpoint")?, p256dh: r.try_get("p256dh")?, auth: r.try_get("auth")? }))
            .collect()
    }

    pub async fn subscription_succeeded(&self, id: &str, now: Timestamp) -> Result<()> {
        sqlx::query("UPDATE push_subscriptions SET last_success_at = $2 WHERE id = $1").bind(id).bind(to_millis(now)).execute(&self.pool).await?;
        Ok(())
    }

    /// Claims the user's test-push slot: true at most once per `every`.
    pub async fn claim_test_push(&self, user_id: &str, now: Timestamp, every: SignedDuration) -> Result<Option<i64>> {
        let now_ms = to_millis(now);
        let claimed = sqlx::query("UPDATE users SET last_test_push_at = $2 WHERE id = $1 AND last_test_push_at <= $3")
            .bind(user_id)
            .bind(now_ms)
            .bind(now_ms - every.as_millis() as i64)
            .execute(&self.pool)
            .await?
            .rows_affected()
            > 0;
        if claimed {
            return Ok(None);
        }
        let last: i64 = sqlx::query_scalar("SELECT last_test_push_at FROM users WHERE id = $1").bind(user_id).fetch_one(&self.pool).await?;
        Ok(Some(((last + every.as_millis() as i64 - now_ms) as f64 / 1000.0).ceil().max(1.0) as i64))
    }

    // Fires

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

    /// The reminder's pending fires (after a change notice).
    pub async fn fires_of(&self, reminder_id: &str) -> Result<Vec<Fire>> {
        let rows = sqlx::query("SELECT reminder_id, kind, fire_at FROM fires WHERE reminder_id = $1").bind(reminder_id).fetch_all(&self.pool).await?;
        rows.iter().map(fire_from_row).collect()
    }

    /// Every fire due before `until` (the scheduler's horizon), earliest first.
    pub async fn fires_before(&self, until: Timestamp) -> Result<Vec<Fire>> {
        let rows = sqlx::query("SELECT reminder_id, kind, fire_at FROM fires WHERE fire_at < $1 ORDER BY fire_at").bind(to_millis(until)).fetch_all(&self.pool).await?;
        rows.iter().map(fire_from_row).collect()
    }

    /// Claims a due fire: deletes it (only one claimer can), writes its delivery log entry and,
    /// for an occurrence of a recurring reminder, schedules the next one, all in one
    /// transaction. A fire more than [`LATE_WINDOW`] past is logged as missed instead.
    pub async fn claim_fire(&self, reminder_id: &str, kind: &str, now: Timestamp) -> Result<Claimed> {
        self.claim_fire_ahead(reminder_id, kind, now, now).await
    }

    /// As [`Db::claim_fire`], for a fire due up to `until` (at or after `now`): the scheduler
    /// claims a moment ahead so the push is ready at its second; the worker holds it until the
    /// entry's `occurrence_at`.
    pub async fn claim_fire_ahead(&self, reminder_id: &str, kind: &str, now: Timestamp, until: Timestamp) -> Result<Claimed> {
        let mut tx = self.pool.begin().await?;
        let fire_at: Option<i64> = sqlx::query_scalar("DELETE FROM fires WHERE reminder_id = $1 AND kind = $2 AND fire_at <= $3 RETURNING fire_at")
            .bind(reminder_id)
            .bind(kind)
            .bind(to_millis(until.max(now)))
            .fetch_optional(&mut *tx)
            .await?;
        let Some(fire_at) = fire_at else {
            return Ok(Claimed::Gone);
        };
        let fire = Fire { reminder_id: reminder_id.to_owned(), kind: kind.to_owned(), fire_at: from_millis(fire_at) };
        let row = sqlx::query("SELECT user_id, send_at, timezone, recurrence, is_active FROM reminders WHERE id = $1")
            .bind(&fire.reminder_id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else {
            tx.commit().await?;
            return Ok(Claimed::Gone);
        };
        if row.try_get::<i64, _>("is_active")? == 0 {
            tx.commit().await?;
            return Ok(Claimed::Gone);
        }
        let user_id: String = row.try_get("user_id")?;
        let lateness = now.duration_since(fire.fire_at);
        let missed = lateness > LATE_WINDOW;
        let late = lateness >= SignedDuration::from_secs(5);
        let log_id = uuid::Uuid::new_v4().to_string();
        let status = if missed { "missed" } else { "queued" };
        let mut next = None;
        let inserted = sqlx::query(
            "INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (reminder_id, occurrence_at) DO NOTHING",
        )
        .bind(&log_id)
        .bind(&fire.reminder_id)
        .bind(&user_id)
        .bind(to_millis(fire.fire_at))
        .bind(status)
        .bind(i64::from(late))
        .bind(to_millis(now))
        .bind(&fire.kind)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            > 0;
        if fire.kind == FIRE_OCCURRENCE {
            let recurrence: String = row.try_get("recurrence")?;
            let timing = Timing {
                send_at: from_millis(row.try_get("send_at")?),
                timezone: row.try_get("timezone")?,
                recurrence: serde_json::from_str(&recurrence).map_err(|e| Error::Internal(e.to_string()))?,
            };
            // After a long outage, skip ahead to the future rather than replaying every miss.
            let after = if missed { now } else { fire.fire_at };
            if let Some(at) = timing.schedule().next_after(after) {
                let inserted = sqlx::query("INSERT INTO fires (reminder_id, kind, fire_at, occurrence_at) VALUES ($1, $2, $3, $3) ON CONFLICT (reminder_id, kind) DO NOTHING")
                    .bind(&fire.reminder_id)
                    .bind(FIRE_OCCURRENCE)
                    .bind(to_millis(at))
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                    > 0;
                sqlx::query("UPDATE reminders SET scheduled_at = $2 WHERE id = $1").bind(&fire.reminder_id).bind(to_millis(at)).execute(&mut *tx).await?;
                // On a conflict an edit set the fire meanwhile; its change notice will tell.
                next = inserted.then_some(at);
            }
        }
        tx.commit().await?;
        if !inserted {
            return Ok(Claimed::Gone);
        }
        Ok(if missed { Claimed::Missed { log_id, next } } else { Claimed::Deliver { log_id, late, next } })
    }

    /// Takes or keeps the named lease for `ttl`: true while `holder` leads.
    pub async fn try_lease(&self, name: &str, holder: &str, now: Timestamp, ttl: SignedDuration) -> Result<bool> {
        let now_ms = to_millis(now);
        Ok(sqlx::query(
            "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
             WHERE leases.holder = excluded.holder OR leases.expires_at < $4
             RETURNING holder",
        )
        .bind(name)
        .bind(holder)
        .bind(now_ms + ttl.as_millis() as i64)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?
        .is_some())
    }

    pub async fn release_lease(&self, name: &str, holder: &str) -> Result<()> {
        sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2").bind(name).bind(holder).execute(&self.pool).await?;
        Ok(())
    }

    // Delivery log entries and deliveries

    /// A delivery log entry made outside the scheduler (send now, test pushes use none).
    pub async fn create_manual_delivery(&self, reminder_id: &str, user_id: &str, now: Timestamp) -> Result<String> {
        let log_id = uuid::Uuid::new_v4().to_string();
        sqlx::query(
            "INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind) VALUES ($1, $2, $3, $4, 'queued', 0, $4, 'manual')",
        )
        .bind(&log_id)
        .bind(reminder_id)
        .bind(user_id)
        .bind(to_millis(now))
        .execute(&self.pool)
        .await?;
        Ok(log_id)
    }

    pub async fn delivery(&self, log_id: &str) -> Result<Option<PendingDelivery>> {
        let row = sqlx::query("SELECT id, reminder_id, user_id, occurrence_at, kind, late, status FROM delivery_logs WHERE id = $1")
            .bind(log_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(PendingDelivery {
                log_id: r.try_get("id")?,
                reminder_id: r.try_get("reminder_id")?,
                user_id: r.try_get("user_id")?,
                occurrence_at: from_millis(r.try_get("occurrence_at")?),
                kind: r.try_get("kind")?,
                late: r.try_get::<i64, _>("late")? != 0,
                status: r.try_get("status")?,
            })
        })
        .transpose()
    }

    /// Entries still queued after `older_than`: their job was lost (a crash between commit and
    /// enqueue, or a queue that lost its data). The scheduler enqueues them again.
    pub async fn stale_queued_deliveries(&self, older_than: Timestamp) -> Result<Vec<String>> {
        Ok(sqlx::query_scalar("SELECT id FROM delivery_logs WHERE status = 'queued' AND created_at < $1 ORDER BY created_at LIMIT 1000")
            .bind(to_millis(older_than))
            .fetch_all(&self.pool)
            .await?)
    }

    /// Takes the (entry, device) pair for sending. `false` when it was sent already or another
    /// worker is sending it now; a send that has been "in flight" for longer than `stale` (its
    /// worker died) may be taken over.
    pub async fn claim_device_delivery(&self, log_id: &str, subscription_id: &str, now: Timestamp, stale: SignedDuration) -> Result<bool> {
        let now_ms = to_millis(now);
        let claimed = sqlx::query(
            "INSERT INTO deliveries (log_id, subscription_id, status, attempts, updated_at) VALUES ($1, $2, 'sending', 1, $3)
             ON CONFLICT (log_id, subscription_id) DO UPDATE SET status = 'sending', attempts = deliveries.attempts + 1, updated_at = excluded.updated_at
             WHERE deliveries.status = 'retry' OR (deliveries.status = 'sending' AND deliveries.updated_at < $4)
             RETURNING log_id",
        )
        .bind(log_id)
        .bind(subscription_id)
        .bind(now_ms)
        .bind(now_ms - stale.as_millis() as i64)
        .fetch_optional(&self.pool)
        .await?
        .is_some();
        Ok(claimed)
    }

    /// Records the outcome for one device: `sent`, `failed`, `gone` or `retry`.
    pub async fn finish_device_delivery(&self, log_id: &str, subscription_id: &str, status: &str, response: Option<u16>, now: Timestamp) -> Result<()> {
        let now_ms = to_millis(now);
        sqlx::query(
            "UPDATE deliveries SET status = $3, response_status = $4, updated_at = $5, sent_at = CASE WHEN $3 = 'sent' THEN $5 ELSE sent_at END
             WHERE log_id = $1 AND subscription_id = $2",
        )
        .bind(log_id)
        .bind(subscription_id)
        .bind(status)
        .bind(response.map(i64::from))
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Closes a delivery log entry still `queued`: `sent` when some device got it, else
    /// `failed` (or `no_devices`, `cancelled`). True when this call closed it.
    pub async fn finish_delivery(&self, log_id: &str, status: &str, sent_at: Option<Timestamp>) -> Result<bool> {
        let done = sqlx::query("UPDATE delivery_logs SET status = $2, sent_at = COALESCE($3, sent_at) WHERE id = $1 AND status = 'queued'")
            .bind(log_id)
            .bind(status)
            .bind(sent_at.map(to_millis))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Where the devices of a delivery log entry stand.
    pub async fn device_progress(&self, log_id: &str) -> Result<DeviceProgress> {
        let row = sqlx::query(
            "SELECT COUNT(CASE WHEN status = 'sending' THEN 1 END) AS in_flight, COUNT(CASE WHEN status = 'sent' THEN 1 END) AS sent,
                 MIN(sent_at) AS first_sent_at FROM deliveries WHERE log_id = $1",
        )
        .bind(log_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(DeviceProgress {
            in_flight: row.try_get("in_flight")?,
            sent: row.try_get("sent")?,
            first_sent_at: row.try_get::<Option<i64>, _>("first_sent_at")?.map(from_millis),
        })
    }

    /// The service worker showed the notification on a device.
    pub async fn mark_shown(&self, log_id: &str, endpoint: Option<&str>, now: Timestamp) -> Result<()> {
        let now_ms = to_millis(now);
        match endpoint {
            Some(endpoint) => {
                sqlx::query(
                    "UPDATE deliveries SET shown_at = $3 WHERE log_id = $1 AND shown_at IS NULL
                     AND subscription_id IN (SELECT id FROM push_subscriptions WHERE endpoint = $2)",
                )
                .bind(log_id)
                .bind(endpoint)
                .bind(now_ms)
                .execute(&self.pool)
                .await?;
            }
            None => {
                sqlx::query("UPDATE deliveries SET shown_at = $2 WHERE log_id = $1 AND shown_at IS NULL").bind(log_id).bind(now_ms).execute(&self.pool).await?;
            }
        }
        Ok(())
    }

    /// Records a notification action once: `true` the first time for this entry and action.
    pub async fn record_action(&self, log_id: &str, action: &str, now: Timestamp) -> Result<bool> {
        Ok(sqlx::query("UPDATE delivery_logs SET action = $2, action_at = $3 WHERE id = $1 AND (action IS NULL OR action <> $2)")
            .bind(log_id)
            .bind(action)
            .bind(to_millis(now))
            .execute(&self.pool)
            .await?
            .rows_affected()
            > 0)
    }

    pub async fn clear_snooze(&self, reminder_id: &str) -> Result<()> {
        sqlx::query("DELETE FROM fires WHERE reminder_id = $1 AND kind = 'snooze'").bind(reminder_id).execute(&self.pool).await?;
        self.reminder_changed(reminder_id).await;
        Ok(())
    }

    /// Archives a reminder (completed) and drops its fires.
    pub async fn archive_reminder(&self, reminder_id: &str, now: Timestamp) -> Result<()> {
        sqlx::query("UPDATE reminders SET is_active = 0, is_archived = 1, archived_at = $2, updated_at = $2 WHERE id = $1")
            .bind(reminder_id)
            .bind(to_millis(now))
            .execute(&self.pool)
            .await?;
        self.clear_fires(reminder_id).await
    }
}

fn fire_from_row(r: &sqlx::any::AnyRow) -> Result<Fire> {
    Ok(Fire { reminder_id: r.try_get("reminder_id")?, kind: r.try_get("kind")?, fire_at: from_millis(r.try_get("fire_at")?) })
}
