//! Delivery log entries (one per fired occurrence, send-now included) and what the person and
//! their devices did with them (deliveries: one per entry and device). Every step that must happen
//! once is guarded by a key or a conditional statement in the database, so duplicate jobs,
//! restarted workers and two schedulers cannot double it.

use jiff::Timestamp;
use serde::Serialize;
use sqlx::{AssertSqlSafe, Row};
use utoipa::ToSchema;

use super::Db;
use crate::domain::ids::{LogId, ReminderId, SubscriptionId, UserId};
use crate::domain::lifecycle::Plan;
use crate::domain::states::{DeviceDeliveryStatus, EntryKind, EntryStatus, NotificationAction};
use crate::domain::time::{from_millis, to_millis};
use crate::{Error, Result};

pub use crate::domain::lifecycle::LATE_WINDOW;

/// The outcome of claiming a due fire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claimed {
    /// Someone else claimed it first, or it changed since it was read.
    Gone,
    /// A delivery log entry to push; `next` is the occurrence fire the claim scheduled;
    /// `also`: escalation entries its repeat made, to deliver with it; `held_at`: when the
    /// reminder's `held` fire is due, when some of its people are in quiet hours.
    Deliver { log_id: LogId, late: bool, next: Option<Timestamp>, also: Vec<LogId>, held_at: Option<Timestamp> },
    /// Too late to deliver; logged as missed.
    Missed { log_id: LogId, next: Option<Timestamp> },
    /// Held for quiet hours: delivered when its `held` fire (due `held_at`) releases it.
    Held { next: Option<Timestamp>, held_at: Option<Timestamp> },
    /// Held rings released at the end of quiet hours: entries to deliver (to the people
    /// released); the next of the reminder's holds is due `held_at`.
    Release { log_ids: Vec<LogId>, held_at: Option<Timestamp> },
}

/// A delivery log entry with what a push of it needs.
#[derive(Debug, Clone)]
pub struct PendingDelivery {
    pub log_id: LogId,
    pub reminder_id: ReminderId,
    pub user_id: UserId,
    pub occurrence_at: Timestamp,
    pub kind: EntryKind,
    pub late: bool,
    pub status: EntryStatus,
    /// An alert's or repeat's occurrence.
    pub occurrence_of: Option<Timestamp>,
}

impl PendingDelivery {
    /// The occurrence this entry belongs to (itself, unless it is an alert or a repeat).
    pub fn occurrence(&self) -> Timestamp {
        self.occurrence_of.unwrap_or(self.occurrence_at)
    }
}

impl Db {
    /// Seconds until the person may send a reminder now again, if they must wait: at most one
    /// send-now per 10 s and 30 per hour per person (each is a push to every device).
    pub async fn send_now_wait(&self, user_id: &UserId, now: Timestamp, every_ms: i64) -> Result<Option<i64>> {
        let now_ms = to_millis(now);
        let rows: Vec<i64> = sqlx::query_scalar(
            "SELECT created_at FROM delivery_logs WHERE kind = 'send_now' AND for_users = $1 AND created_at > $2 ORDER BY created_at DESC",
        )
        .bind(serde_json::to_string(&[user_id])?)
        .bind(now_ms - 3_600_000)
        .fetch_all(&self.pool)
        .await?;
        Ok(crate::domain::reminder::send_now_wait(&rows, now_ms, every_ms))
    }

    /// A ring-now delivery log entry (send now, a trigger) of a reminder (of `owner`'s list)
    /// for the person who asked (`sender`): `queued` for `devices` devices, or `no_devices`. With devices and
    /// their email fallback on it carries their delay; with none, the caller emails it at once
    /// ([`Db::email_now`]).
    #[allow(clippy::too_many_arguments)]
    pub async fn create_ring_now(
        &self,
        reminder_id: &ReminderId,
        owner: &UserId,
        sender: &UserId,
        kind: EntryKind,
        devices: usize,
        fallback_minutes: Option<i64>,
        now: Timestamp,
    ) -> Result<LogId> {
        let log_id = LogId::generate();
        let (status, fallback) = if devices == 0 { (EntryStatus::NoDevices, None) } else { (EntryStatus::Queued, fallback_minutes) };
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind, for_users)
             VALUES ($1, $2, $3, $4, $5, 0, $4, $6, $7)",
        )
        .bind(log_id)
        .bind(reminder_id)
        .bind(owner)
        .bind(to_millis(now))
        .bind(status.as_str())
        .bind(kind.as_str())
        .bind(serde_json::to_string(&[sender])?)
        .execute(&mut *tx)
        .await?;
        if let Some(minutes) = fallback {
            sqlx::query("INSERT INTO fallbacks (log_id, user_id, minutes) VALUES ($1, $2, $3)")
                .bind(log_id)
                .bind(sender)
                .bind(minutes)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(log_id)
    }

    pub async fn delivery(&self, log_id: &LogId) -> Result<Option<PendingDelivery>> {
        let row = sqlx::query(
            "SELECT id, reminder_id, user_id, occurrence_at, kind, late, status, occurrence_of FROM delivery_logs WHERE id = $1",
        )
        .bind(log_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(PendingDelivery {
                log_id: r.try_get("id")?,
                reminder_id: r.try_get("reminder_id")?,
                user_id: r.try_get("user_id")?,
                occurrence_at: from_millis(r.try_get("occurrence_at")?),
                kind: stored_word(&r, "kind", EntryKind::parse)?,
                late: r.try_get::<i64, _>("late")? != 0,
                status: stored_word(&r, "status", EntryStatus::parse)?,
                occurrence_of: r.try_get::<Option<i64>, _>("occurrence_of")?.map(from_millis),
            })
        })
        .transpose()
    }

    /// Entries whose job looks lost (a crash between commit and enqueue, a queue that lost its
    /// data, a worker that died): still queued, claimed and due before `older_than`, with no
    /// device claimed by a worker since `in_flight_since`. The scheduler enqueues them again
    /// (only while the queue is empty, so a backlog is not enqueued twice).
    pub async fn stale_queued_deliveries(&self, older_than: Timestamp, in_flight_since: Timestamp, limit: i64) -> Result<Vec<LogId>> {
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

    /// The service worker showed the notification on a device: the one named by its
    /// endpoint, or, when none is named, every device of `whose` the entry went to (the
    /// person whose action token it was). A shown entry needs no email fallback.
    pub async fn mark_shown(&self, log_id: &LogId, endpoint: Option<&str>, whose: &UserId, now: Timestamp) -> Result<()> {
        let now_ms = to_millis(now);
        let mut tx = self.pool.begin().await?;
        let which = if endpoint.is_some() {
            "SELECT id FROM push_subscriptions WHERE endpoint = $3"
        } else {
            "SELECT id FROM push_subscriptions WHERE user_id = $3"
        };
        for sql in [
            format!("UPDATE deliveries SET shown_at = $2 WHERE log_id = $1 AND shown_at IS NULL AND subscription_id IN ({which})"),
            format!(
                "UPDATE push_subscriptions SET last_shown_at = $2 WHERE (last_shown_at IS NULL OR last_shown_at < $2) AND id IN ({which})
                 AND id IN (SELECT subscription_id FROM deliveries WHERE log_id = $1)"
            ),
        ] {
            let query = sqlx::query(AssertSqlSafe(sql)).bind(log_id).bind(now_ms);
            let query = match endpoint {
                Some(e) => query.bind(e),
                None => query.bind(whose),
            };
            query.execute(&mut *tx).await?;
        }
        // Whose device showed it needs no email of it.
        let sql = format!(
            "DELETE FROM fallbacks WHERE log_id = $1 AND emailed_at IS NULL AND user_id IN (SELECT user_id FROM push_subscriptions WHERE id IN ({which}))"
        );
        let query = sqlx::query(AssertSqlSafe(sql)).bind(log_id).bind(now_ms);
        let query = match endpoint {
            Some(e) => query.bind(e),
            None => query.bind(whose),
        };
        query.execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records the action on the entry and applies its plan ([`crate::domain::lifecycle`]'s
    /// `Event::Acted`) to the reminder, once and in one transaction: `false` when the same
    /// (entry, action) was already recorded and nothing changed. The person has the reminder
    /// in hand, so no entry of it is emailed any more.
    ///
    /// `user_id` is the reminder's (its list owner's), `actor` who acted: each person's snooze
    /// of a shared reminder counts, a second Complete does not.
    #[allow(clippy::too_many_arguments)]
    pub async fn apply_action(
        &self,
        log_id: &LogId,
        reminder_id: &ReminderId,
        user_id: &UserId,
        actor: &UserId,
        action: NotificationAction,
        plan: &Plan,
        now: Timestamp,
    ) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        let first = sqlx::query(
            "UPDATE delivery_logs SET action = $2, action_at = $3, action_by = $4 WHERE id = $1
                 AND (action IS NULL OR action <> $2 OR ($2 = 'snooze' AND COALESCE(action_by, '') <> $4))",
        )
        .bind(log_id)
        .bind(action.as_str())
        .bind(to_millis(now))
        .bind(actor)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            > 0;
        if !first {
            tx.commit().await?;
            return Ok(false);
        }
        self.apply_acted(tx.as_mut(), reminder_id, user_id, Some(actor), plan, true, now).await?;
        tx.commit().await?;
        self.reminder_changed(reminder_id).await;
        Ok(true)
    }
}

/// A delivery log entry as `GET /api/reminders/{id}/logs` answers it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeliveryLog {
    #[schema(value_type = String)]
    pub id: LogId,
    pub kind: EntryKind,
    #[schema(value_type = String, format = DateTime)]
    pub occurrence_at: Timestamp,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub sent_at: Option<Timestamp>,
    /// `shown` once a device acknowledged it.
    pub status: EntryStatus,
    /// When a device first showed it.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub shown_at: Option<Timestamp>,
    /// When it went out by email instead (the email fallback), to the person reading.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub emailed_at: Option<Timestamp>,
    /// Held for the reader's quiet hours: delivered to them at this instant.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub held_until: Option<Timestamp>,
    pub late: bool,
    pub action: Option<NotificationAction>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub action_at: Option<Timestamp>,
    /// Who acted (in a shared list, any of its people).
    #[schema(value_type = Option<String>)]
    pub action_by: Option<UserId>,
    pub devices: Vec<DeviceDelivery>,
}

/// What one device did with an entry.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DeviceDelivery {
    #[schema(value_type = String)]
    pub subscription_id: SubscriptionId,
    /// The device's label; null once the device was removed.
    pub label: Option<String>,
    pub status: DeviceDeliveryStatus,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub shown_at: Option<Timestamp>,
    /// Whose device it is (in a shared list, each person's own).
    #[schema(value_type = Option<String>)]
    pub user_id: Option<UserId>,
}

impl Db {
    /// The latest entry of each active reminder that rang for the person since `since` and
    /// that no one acted on (not one still held for their quiet hours): what "snooze all"
    /// snoozes.
    pub async fn ringing_for(&self, user_id: &UserId, since: Timestamp) -> Result<Vec<(ReminderId, LogId)>> {
        let rows = sqlx::query(
            "SELECT l.id, l.reminder_id, l.for_users, r.assignees FROM delivery_logs l JOIN reminders r ON r.id = l.reminder_id
             JOIN list_members m ON m.list_id = r.list_id AND m.user_id = $1
             WHERE l.occurrence_at >= $2 AND r.is_active = 1 AND l.status IN ('queued', 'sent', 'shown', 'failed', 'no_devices')
                 AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.log_id = l.id AND h.user_id = $1 AND h.state IN ('held', 'merged'))
                 AND NOT EXISTS (SELECT 1 FROM delivery_logs later WHERE later.reminder_id = l.reminder_id AND later.occurrence_at > l.occurrence_at)
                 AND l.action IS NULL
             ORDER BY l.occurrence_at",
        )
        .bind(user_id)
        .bind(to_millis(since))
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::new();
        for row in rows {
            let named: Option<Vec<UserId>> =
                row.try_get::<Option<String>, _>("for_users")?.map(|s| serde_json::from_str(&s)).transpose()?;
            let assignees: Vec<UserId> = serde_json::from_str(&row.try_get::<String, _>("assignees")?)?;
            // Rings for them: everyone's, theirs by name, or theirs by turn.
            if !crate::domain::lists::recipients(&[*user_id], &assignees, named.as_deref(), &[]).is_empty() {
                out.push((row.try_get("reminder_id")?, row.try_get("id")?));
            }
        }
        Ok(out)
    }

    pub async fn delivery_logs(&self, user_id: &UserId, reminder_id: &ReminderId) -> Result<Vec<DeliveryLog>> {
        let rows = sqlx::query(
            "SELECT id, kind, occurrence_at, sent_at, status, late, action, action_at, action_by,
                 COALESCE((SELECT f.emailed_at FROM fallbacks f WHERE f.log_id = l.id AND f.user_id = $2),
                          CASE WHEN l.user_id = $2 AND NOT EXISTS (SELECT 1 FROM fallbacks f WHERE f.log_id = l.id AND f.emailed_at IS NOT NULL)
                               THEN l.emailed_at END) AS emailed_at,
                 (SELECT h.until FROM holds h WHERE h.log_id = l.id AND h.user_id = $2) AS held_until
             FROM delivery_logs l
             WHERE reminder_id = $1 AND reminder_id IN (SELECT r.id FROM reminders r JOIN list_members m ON m.list_id = r.list_id WHERE m.user_id = $2)
             ORDER BY occurrence_at DESC, created_at DESC LIMIT 200",
        )
        .bind(reminder_id)
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        // Only the devices of the entries shown (at most 200 × 20), never the whole history's.
        let device_rows = sqlx::query(
            "SELECT d.log_id, d.subscription_id, d.status, d.shown_at, COALESCE(d.user_id, s.user_id) AS user_id, s.device_info FROM deliveries d
             LEFT JOIN push_subscriptions s ON s.id = d.subscription_id
             WHERE d.log_id IN (SELECT id FROM delivery_logs WHERE reminder_id = $1
                                  AND reminder_id IN (SELECT r.id FROM reminders r JOIN list_members m ON m.list_id = r.list_id WHERE m.user_id = $2)
                                ORDER BY occurrence_at DESC, created_at DESC LIMIT 200)
             ORDER BY d.subscription_id",
        )
        .bind(reminder_id)
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?;
        let mut devices: std::collections::HashMap<LogId, Vec<DeviceDelivery>> = std::collections::HashMap::new();
        for r in &device_rows {
            let info: Option<String> = r.try_get("device_info")?;
            devices.entry(r.try_get("log_id")?).or_default().push(DeviceDelivery {
                subscription_id: r.try_get("subscription_id")?,
                label: info.map(|i| crate::domain::device::label(&serde_json::from_str(&i).unwrap_or_default())),
                status: DeviceDeliveryStatus::parse(&r.try_get::<String, _>("status")?).unwrap_or(DeviceDeliveryStatus::Failed),
                shown_at: r.try_get::<Option<i64>, _>("shown_at")?.map(from_millis),
                user_id: r.try_get("user_id")?,
            });
        }
        rows.iter()
            .map(|r| {
                let id: LogId = r.try_get("id")?;
                let devices = devices.remove(&id).unwrap_or_default();
                let shown_at = devices.iter().filter_map(|d| d.shown_at).min();
                let stored = EntryStatus::parse(&r.try_get::<String, _>("status")?).unwrap_or(EntryStatus::Failed);
                // An acknowledgement may come before the entry is settled: shown wins.
                let status = stored.as_seen(shown_at.is_some());
                Ok(DeliveryLog {
                    kind: EntryKind::parse(&r.try_get::<String, _>("kind")?).unwrap_or(EntryKind::Occurrence),
                    occurrence_at: from_millis(r.try_get("occurrence_at")?),
                    sent_at: r.try_get::<Option<i64>, _>("sent_at")?.map(from_millis),
                    status,
                    shown_at,
                    emailed_at: r.try_get::<Option<i64>, _>("emailed_at")?.map(from_millis),
                    held_until: r.try_get::<Option<i64>, _>("held_until")?.map(from_millis),
                    late: r.try_get::<i64, _>("late")? != 0,
                    action: r.try_get::<Option<String>, _>("action")?.as_deref().and_then(NotificationAction::parse),
                    action_at: r.try_get::<Option<i64>, _>("action_at")?.map(from_millis),
                    action_by: r.try_get("action_by")?,
                    devices,
                    id,
                })
            })
            .collect()
    }
}

/// A state column read back into its enum; a word this version does not write is an error.
fn stored_word<T>(row: &sqlx::any::AnyRow, column: &str, parse: fn(&str) -> Option<T>) -> Result<T> {
    let word: String = row.try_get(column)?;
    parse(&word).ok_or_else(|| Error::Corrupt(format!("{column} {word:?}")))
}
