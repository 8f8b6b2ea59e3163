//! Delivery state: push subscriptions, the fires the scheduler owes, delivery log entries (one
//! per fired occurrence) and deliveries (one per entry and device). Every step that must happen
//! once is guarded by a key or a conditional statement in the database, so duplicate jobs,
//! restarted workers and two schedulers cannot double it.

use jiff::{SignedDuration, Timestamp};
use serde::Serialize;
use sqlx::{AssertSqlSafe, Row};
use utoipa::ToSchema;

use super::Db;
use crate::Result;
use crate::reminder::ActionEffect;
use crate::states::{DeviceDeliveryStatus, EntryStatus, NotificationAction};
use crate::time::{from_millis, to_millis};

pub const FIRE_OCCURRENCE: &str = "occurrence";
pub const FIRE_SNOOZE: &str = "snooze";
/// An occurrence missed by downtime is still delivered (marked late) within this window.
pub const LATE_WINDOW: SignedDuration = SignedDuration::from_mins(15);

/// A device as `GET /api/notifications/subscriptions` answers it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Subscription {
    pub id: String,
    /// "iPhone · Safari", "Windows · Chrome"; empty when the device said nothing readable.
    pub label: String,
    /// The operating system family ("iPhone", "Android", "Windows", ...), or empty.
    pub platform: String,
    /// The push endpoint: the app finds its own device by it.
    pub endpoint: String,
    #[schema(value_type = Object)]
    pub device_info: serde_json::Value,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    /// When a notification was last shown on it (its service worker acknowledged one).
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_shown_at: Option<Timestamp>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_success_at: Option<Timestamp>,
    pub status: DeviceStatus,
}

/// `failing` when the last push to the device failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeviceStatus {
    Active,
    Failing,
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

    /// Stores a subscription; re-subscribing the same endpoint updates it. An endpoint stored
    /// for another account moves to this one only with the same keys (the same browser signed
    /// in to another account); other keys are someone taking the device over:
    /// `EndpointInUse`, and the first account keeps it.
    pub async fn upsert_subscription(
        &self,
        user_id: &str,
        endpoint: &str,
        p256dh: &str,
        auth: &str,
        device_info: &serde_json::Value,
        now: Timestamp,
    ) -> Result<String> {
        let id = uuid::Uuid::new_v4().to_string();
        let now_ms = to_millis(now);
        let id: Option<String> = sqlx::query_scalar(
            "INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, device_info, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
             ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
                 device_info = excluded.device_info, updated_at = excluded.updated_at
             WHERE push_subscriptions.user_id = excluded.user_id
                OR (push_subscriptions.p256dh = excluded.p256dh AND push_subscriptions.auth = excluded.auth)
             RETURNING id",
        )
        .bind(&id)
        .bind(user_id)
        .bind(endpoint)
        .bind(p256dh)
        .bind(auth)
        .bind(device_info.to_string())
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        id.ok_or(crate::Error::EndpointInUse)
    }

    pub async fn delete_subscription_of_user(&self, user_id: &str, endpoint: &str) -> Result<bool> {
        if endpoint.contains('\0') {
            return Ok(false);
        }
        Ok(sqlx::query("DELETE FROM push_subscriptions WHERE user_id = $1 AND endpoint = $2")
            .bind(user_id)
            .bind(endpoint)
            .execute(&self.pool)
            .await?
            .rows_affected()
            > 0)
    }

    /// A push service said the subscription is gone (404/410).
    pub async fn delete_subscription(&self, id: &str) -> Result<()> {
        sqlx::query("DELETE FROM push_subscriptions WHERE id = $1").bind(id).execute(&self.pool).await?;
        Ok(())
    }

    /// Removes one of the user's devices by id (`NotFound` for anyone else's).
    pub async fn delete_subscription_by_id(&self, user_id: &str, id: &str) -> Result<()> {
        super::reminders::plausible_id(id)?;
        let removed = sqlx::query("DELETE FROM push_subscriptions WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if removed == 0 {
            return Err(crate::Error::NotFound);
        }
        Ok(())
    }

    pub async fn subscriptions(&self, user_id: &str) -> Result<Vec<Subscription>> {
        let rows = sqlx::query(
            "SELECT s.id, s.endpoint, s.device_info, s.created_at, s.last_success_at, s.last_shown_at,
                 (SELECT d.status FROM deliveries d WHERE d.subscription_id = s.id AND d.status <> 'sending' ORDER BY d.updated_at DESC LIMIT 1) AS last_status
             FROM push_subscriptions s WHERE s.user_id = $1 ORDER BY s.created_at",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let info: String = r.try_get("device_info")?;
                let device_info: serde_json::Value = serde_json::from_str(&info).unwrap_or(serde_json::Value::Null);
                let ua = device_info.get("user_agent").and_then(|v| v.as_str()).unwrap_or("");
                let hint = device_info.get("platform").and_then(|v| v.as_str()).unwrap_or("");
                let last_status: Option<String> = r.try_get("last_status")?;
                Ok(Subscription {
                    id: r.try_get("id")?,
                    label: crate::device::label(&device_info),
                    platform: crate::device::platform(ua, hint).to_owned(),
                    endpoint: r.try_get("endpoint")?,
                    created_at: from_millis(r.try_get("created_at")?),
                    last_shown_at: r.try_get::<Option<i64>, _>("last_shown_at")?.map(from_millis),
                    last_success_at: r.try_get::<Option<i64>, _>("last_success_at")?.map(from_millis),
                    status: match last_status.as_deref().and_then(DeviceDeliveryStatus::parse) {
                        Some(DeviceDeliveryStatus::Failed) => DeviceStatus::Failing,
                        _ => DeviceStatus::Active,
                    },
                    device_info,
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
            .map(|r| {
                Ok(SubscriptionKeys {
                    id: r.try_get("id")?,
                    endpoint: r.try_get("endpoint")?,
                    p256dh: r.try_get("p256dh")?,
                    auth: r.try_get("auth")?,
                })
            })
            .collect()
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

    /// A send-now delivery log entry: `queued` for `devices` devices, or `no_devices`. With
    /// the email fallback on it carries the user's delay (0 when there is no device: the
    /// email is due at once).
    pub async fn create_send_now(
        &self,
        reminder_id: &str,
        user_id: &str,
        devices: usize,
        fallback_minutes: Option<i64>,
        now: Timestamp,
    ) -> Result<String> {
        let log_id = uuid::Uuid::new_v4().to_string();
        let (status, fallback) =
            if devices == 0 { (EntryStatus::NoDevices, fallback_minutes.map(|_| 0)) } else { (EntryStatus::Queued, fallback_minutes) };
        sqlx::query(
            "INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind, fallback_minutes)
             VALUES ($1, $2, $3, $4, $5, 0, $4, 'send_now', $6)",
        )
        .bind(&log_id)
        .bind(reminder_id)
        .bind(user_id)
        .bind(to_millis(now))
        .bind(status.as_str())
        .bind(fallback)
        .execute(&self.pool)
        .await?;
        Ok(log_id)
    }

    /// How many devices a reminder goes to: the user's, or those of them `send_to` names.
    pub async fn target_device_count(&self, user_id: &str, send_to: Option<&[String]>) -> Result<usize> {
        let devices = self.subscription_keys(user_id).await?;
        Ok(match send_to.filter(|t| !t.is_empty()) {
            Some(named) => devices.iter().filter(|d| named.contains(&d.id)).count(),
            None => devices.len(),
        })
    }

    pub async fn delivery(&self, log_id: &str) -> Result<Option<PendingDelivery>> {
        if super::reminders::plausible_id(log_id).is_err() {
            return Ok(None);
        }
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

    /// Entries whose job looks lost (a crash between commit and enqueue, a queue that lost its
    /// data, a worker that died): still queued, claimed and due before `older_than`, with no
    /// device claimed by a worker since `in_flight_since`. The scheduler enqueues them again
    /// (only while the queue is empty, so a backlog is not enqueued twice).
    pub async fn stale_queued_deliveries(&self, older_than: Timestamp, in_flight_since: Timestamp, limit: i64) -> Result<Vec<String>> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM delivery_logs l WHERE status = 'queued' AND created_at < $1 AND occurrence_at < $1
                 AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.log_id = l.id AND d.status = 'sending' AND d.updated_at >= $2)
             ORDER BY created_at LIMIT $3",
        )
        .bind(to_millis(older_than))
        .bind(to_millis(in_flight_since))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The service worker showed the notification on a device (on every device the entry
    /// went to, when the endpoint is not named). A shown entry needs no email fallback.
    pub async fn mark_shown(&self, log_id: &str, endpoint: Option<&str>, now: Timestamp) -> Result<()> {
        let now_ms = to_millis(now);
        let mut tx = self.pool.begin().await?;
        // The devices that showed it: the one named, or every device the entry went to.
        let which = if endpoint.is_some() {
            "SELECT id FROM push_subscriptions WHERE endpoint = $3"
        } else {
            "SELECT subscription_id FROM deliveries WHERE log_id = $1"
        };
        for sql in [
            format!("UPDATE deliveries SET shown_at = $2 WHERE log_id = $1 AND shown_at IS NULL AND subscription_id IN ({which})"),
            format!(
                "UPDATE push_subscriptions SET last_shown_at = $2 WHERE (last_shown_at IS NULL OR last_shown_at < $2) AND id IN ({which})
                 AND id IN (SELECT subscription_id FROM deliveries WHERE log_id = $1)"
            ),
        ] {
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(log_id).bind(now_ms);
            if let Some(e) = endpoint {
                query = query.bind(e);
            }
            query.execute(&mut *tx).await?;
        }
        sqlx::query("UPDATE delivery_logs SET fallback_minutes = NULL WHERE id = $1").bind(log_id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records a notification action once: `true` the first time for this entry and action.
    /// The person has the reminder in hand, so no entry of it is emailed any more.
    pub async fn record_action(&self, log_id: &str, action: NotificationAction, now: Timestamp) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        let first = sqlx::query("UPDATE delivery_logs SET action = $2, action_at = $3 WHERE id = $1 AND (action IS NULL OR action <> $2)")
            .bind(log_id)
            .bind(action.as_str())
            .bind(to_millis(now))
            .execute(&mut *tx)
            .await?
            .rows_affected()
            > 0;
        sqlx::query("UPDATE delivery_logs SET fallback_minutes = NULL WHERE fallback_minutes IS NOT NULL AND reminder_id = (SELECT reminder_id FROM delivery_logs WHERE id = $1)")
            .bind(log_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(first)
    }

    /// Records the action on the entry and applies its effect to the reminder, once: `false`
    /// when the same (entry, action) was already recorded and nothing changed.
    pub async fn apply_action(
        &self,
        log_id: &str,
        reminder_id: &str,
        action: NotificationAction,
        effect: ActionEffect,
        now: Timestamp,
    ) -> Result<bool> {
        if !self.record_action(log_id, action, now).await? {
            return Ok(false);
        }
        match effect {
            ActionEffect::Archive => self.archive_reminder(reminder_id, now).await?,
            ActionEffect::ClearSnooze => self.clear_snooze(reminder_id).await?,
            ActionEffect::SnoozeUntil(at) => self.set_fire(reminder_id, FIRE_SNOOZE, at).await?,
        }
        Ok(true)
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
