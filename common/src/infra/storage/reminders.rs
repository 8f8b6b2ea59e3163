//! Reminder rows. Contents are sealed here on the way in and opened on the way out, so no
//! other layer handles ciphertext.

use jiff::Timestamp;
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};

use super::fires::{Forget, PlanFor, apply_plans, forget};
use super::{Db, flag};
use crate::domain::alarms::Alarms;
use crate::domain::ids::{ReminderId, UserId};
use crate::domain::lifecycle::{self, Event, Subject};
use crate::domain::recurrence::Recurrence;
use crate::domain::reminder::{Applied, Contents, FireState, MAX_ACTIVE_REMINDERS, Reminder, ReminderStatus, StatusFilter, Timing};
use crate::domain::time::{from_millis, to_millis};
use crate::infra::crypto::Keys;
use crate::{Error, Result};

fn seal_contents(keys: &Keys, id: &ReminderId, c: &Contents) -> Result<[Option<Vec<u8>>; 4]> {
    let json = |v: &serde_json::Value| serde_json::to_string(v).map_err(Error::from);
    Ok([
        Some(keys.seal_str(&format!("{id}/title"), &c.title)),
        c.description.as_deref().map(|d| keys.seal_str(&format!("{id}/description"), d)),
        match &c.send_to {
            Some(t) => Some(keys.seal_str(&format!("{id}/send_to"), &json(&serde_json::json!(t))?)),
            None => None,
        },
        match &c.metadata {
            Some(m) => Some(keys.seal_str(&format!("{id}/metadata"), &json(m)?)),
            None => None,
        },
    ])
}

pub(super) fn open_json<T: serde::de::DeserializeOwned>(keys: &Keys, context: &str, sealed: Option<Vec<u8>>) -> Result<Option<T>> {
    match sealed {
        None => Ok(None),
        Some(bytes) => {
            let text = keys.open_string(context, &bytes)?;
            serde_json::from_str(&text).map(Some).map_err(|_| Error::Crypto)
        }
    }
}

/// A reminder with what its pending fires say: the snooze, and whether an occurrence is still
/// to come. One column list for every read.
const REMINDER_SELECT: &str = "SELECT r.id, r.user_id, r.title, r.description, r.send_to, r.metadata, r.send_at, r.timezone, r.recurrence,
        r.scheduled_at, r.is_active, r.is_archived, r.created_at, r.updated_at, r.alerts, r.repeat_until_done,
        (SELECT f.fire_at FROM fires f WHERE f.reminder_id = r.id AND f.kind = 'snooze') AS snooze_at,
        (SELECT f.fire_at FROM fires f WHERE f.reminder_id = r.id AND f.kind = 'occurrence') AS next_at
     FROM reminders r";

fn reminder_from_row(keys: &Keys, row: &AnyRow, now: Timestamp) -> Result<Reminder> {
    let id: ReminderId = row.try_get("id")?;
    let title: Vec<u8> = row.try_get("title")?;
    let description: Option<Vec<u8>> = row.try_get("description")?;
    let recurrence: String = row.try_get("recurrence")?;
    let recurrence: Recurrence = serde_json::from_str(&recurrence).unwrap_or(Recurrence::once());
    let is_active = row.try_get::<i64, _>("is_active")? != 0;
    let is_archived = row.try_get::<i64, _>("is_archived")? != 0;
    let stored_next = row.try_get::<Option<i64>, _>("scheduled_at")?.map(from_millis);
    let snooze_at = row.try_get::<Option<i64>, _>("snooze_at")?.map(from_millis);
    let next_at = row.try_get::<Option<i64>, _>("next_at")?.map(from_millis);
    let alarms = Alarms::from_stored(&row.try_get::<String, _>("alerts")?, row.try_get("repeat_until_done")?);
    let state = FireState { is_active, one_time: recurrence.is_one_time(), stored_next, snooze_at, next_at };
    Ok(Reminder {
        title: keys.open_string(&format!("{id}/title"), &title)?,
        description: description.map(|d| keys.open_string(&format!("{id}/description"), &d)).transpose()?,
        send_to: open_json(keys, &format!("{id}/send_to"), row.try_get("send_to")?)?,
        metadata: open_json(keys, &format!("{id}/metadata"), row.try_get("metadata")?)?,
        user_id: row.try_get("user_id")?,
        send_at: from_millis(row.try_get("send_at")?),
        timezone: row.try_get("timezone")?,
        recurrence,
        scheduled_at: state.scheduled_at(),
        snoozed_until: state.snoozed_until(),
        overdue: state.overdue(now),
        alerts: alarms.alerts,
        repeat_until_done: alarms.repeat,
        is_active,
        is_archived,
        status: if is_archived { ReminderStatus::Completed } else { ReminderStatus::Pending },
        created_at: from_millis(row.try_get("created_at")?),
        updated_at: from_millis(row.try_get("updated_at")?),
        id,
    })
}

/// Fails with `ReminderLimit` when the user already has the maximum of active reminders. The
/// user's row is written first: that serializes one user's concurrent creates on both backends
/// (a row lock in PostgreSQL, the write lock in SQLite), so the count cannot be raced.
async fn room_for_one_more(tx: &mut sqlx::Transaction<'_, sqlx::Any>, user_id: &UserId) -> Result<()> {
    sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(user_id).execute(&mut **tx).await?;
    let active: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reminders WHERE user_id = $1 AND is_active = 1")
        .bind(user_id)
        .fetch_one(&mut **tx)
        .await?;
    if active >= MAX_ACTIVE_REMINDERS as i64 {
        return Err(Error::ReminderLimit(MAX_ACTIVE_REMINDERS));
    }
    Ok(())
}

impl Db {
    /// Inserts a reminder unless the user already has the maximum of active ones; its first
    /// occurrence after `now` (and its first alert) become its pending fires.
    pub async fn create_reminder(
        &self,
        keys: &Keys,
        user_id: &UserId,
        contents: &Contents,
        timing: &Timing,
        alarms: &Alarms,
        now: Timestamp,
    ) -> Result<Reminder> {
        let schedule = timing.schedule();
        let next = schedule
            .next_after(now)
            .ok_or_else(|| Error::field("send_at", crate::error::FieldCode::NotInFuture.because("send_at must be in the future")))?;
        let id = ReminderId::generate();
        let [title, description, send_to, metadata] = seal_contents(keys, &id, contents)?;
        let recurrence = serde_json::to_string(&timing.recurrence)?;
        let now_ms = to_millis(now);
        let mut tx = self.pool.begin().await?;
        room_for_one_more(&mut tx, user_id).await?;
        sqlx::query(
            "INSERT INTO reminders (id, user_id, title, description, send_to, metadata, send_at, timezone, recurrence, scheduled_at,
                 is_active, is_archived, created_at, updated_at, alerts, repeat_until_done)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, 0, $11, $11, $12, $13)",
        )
        .bind(id)
        .bind(user_id)
        .bind(title)
        .bind(description)
        .bind(send_to)
        .bind(metadata)
        .bind(to_millis(timing.send_at))
        .bind(&timing.timezone)
        .bind(recurrence)
        .bind(to_millis(next))
        .bind(now_ms)
        .bind(serde_json::to_string(&alarms.alerts)?)
        .bind(alarms.repeat.map(|r| serde_json::to_string(&r)).transpose()?)
        .execute(&mut *tx)
        .await?;
        let plan = lifecycle::plan(Subject { timing, alarms, is_active: true }, Event::Created, now);
        apply_plans(&mut tx, &[PlanFor { reminder_id: &id, user_id, plan: &plan }], now).await?;
        tx.commit().await?;
        self.reminder_changed(&id).await;
        self.get_reminder(keys, user_id, &id, now).await
    }

    pub async fn list_reminders(&self, keys: &Keys, user_id: &UserId, filter: StatusFilter, now: Timestamp) -> Result<Vec<Reminder>> {
        // -1 matches both archived (1) and active (0) rows.
        let archived: i64 = match filter {
            StatusFilter::Active => 0,
            StatusFilter::Archived => 1,
            StatusFilter::All => -1,
        };
        let sql = format!("{REMINDER_SELECT} WHERE r.user_id = $1 AND ($2 = -1 OR r.is_archived = $2)");
        let rows = sqlx::query(AssertSqlSafe(sql)).bind(user_id).bind(archived).fetch_all(&self.pool).await?;
        let mut list = rows.iter().map(|r| reminder_from_row(keys, r, now)).collect::<Result<Vec<_>>>()?;
        // By the next instant each rings (a snooze counts), so this sorts after reading.
        list.sort_by_key(|r| (r.scheduled_at.is_none(), r.scheduled_at, r.created_at));
        Ok(list)
    }

    /// A page of the user's reminders and how many there are in all: active ones by the next
    /// instant each rings, archived ones newest archived first (read a page at a time: an
    /// account may keep 1,000), `All` the active then the archived.
    pub async fn list_reminders_page(
        &self,
        keys: &Keys,
        user_id: &UserId,
        filter: StatusFilter,
        limit: i64,
        offset: i64,
        now: Timestamp,
    ) -> Result<(Vec<Reminder>, i64)> {
        let (limit, offset) = (limit.max(0), offset.max(0));
        let archived_total: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reminders WHERE user_id = $1 AND is_archived = 1")
            .bind(user_id)
            .fetch_one(&self.pool)
            .await?;
        let archived_page = |limit: i64, offset: i64| async move {
            let sql = format!(
                "{REMINDER_SELECT} WHERE r.user_id = $1 AND r.is_archived = 1 ORDER BY COALESCE(r.archived_at, r.updated_at) DESC, r.id LIMIT $2 OFFSET $3"
            );
            let rows = sqlx::query(AssertSqlSafe(sql)).bind(user_id).bind(limit).bind(offset).fetch_all(&self.pool).await?;
            rows.iter().map(|r| reminder_from_row(keys, r, now)).collect::<Result<Vec<_>>>()
        };
        match filter {
            StatusFilter::Archived => Ok((archived_page(limit, offset).await?, archived_total)),
            StatusFilter::Active | StatusFilter::All => {
                let active = self.list_reminders(keys, user_id, StatusFilter::Active, now).await?;
                let active_total = active.len() as i64;
                let mut page: Vec<Reminder> = active.into_iter().skip(offset as usize).take(limit as usize).collect();
                if filter == StatusFilter::Active {
                    return Ok((page, active_total));
                }
                let room = limit - page.len() as i64;
                if room > 0 {
                    let archived_offset = (offset - active_total).max(0);
                    page.extend(archived_page(room, archived_offset).await?);
                }
                Ok((page, active_total + archived_total))
            }
        }
    }

    /// The user's reminder with this id; someone else's is `NotFound` like a missing one.
    pub async fn get_reminder(&self, keys: &Keys, user_id: &UserId, id: &ReminderId, now: Timestamp) -> Result<Reminder> {
        let sql = format!("{REMINDER_SELECT} WHERE r.id = $1 AND r.user_id = $2");
        let row = sqlx::query(AssertSqlSafe(sql)).bind(id).bind(user_id).fetch_optional(&self.pool).await?.ok_or(Error::NotFound)?;
        reminder_from_row(keys, &row, now)
    }

    /// Writes a reminder edited by [`crate::domain::reminder::ReminderPatch::apply_to`], as `applied`
    /// says: a reactivated (completed, then given a new time) reminder counts against the
    /// active limit like a create; changed timing replaces the pending occurrence fire with
    /// the new `scheduled_at`.
    pub async fn save_reminder(&self, keys: &Keys, r: &Reminder, applied: Applied, now: Timestamp) -> Result<Reminder> {
        let Applied { reactivate, timing_changed, alarms_changed } = applied;
        let contents = Contents {
            title: r.title.clone(),
            description: r.description.clone(),
            send_to: r.send_to.clone(),
            metadata: r.metadata.clone(),
        };
        let [title, description, send_to, metadata] = seal_contents(keys, &r.id, &contents)?;
        let recurrence = serde_json::to_string(&r.recurrence)?;
        let mut tx = self.pool.begin().await?;
        if reactivate {
            room_for_one_more(&mut tx, &r.user_id).await?;
        }
        let (is_active, is_archived) = if reactivate { (true, false) } else { (r.is_active, r.is_archived) };
        sqlx::query(
            "UPDATE reminders SET title = $3, description = $4, send_to = $5, metadata = $6, send_at = $7, timezone = $8,
                 recurrence = $9, is_active = $10, is_archived = $11, archived_at = CASE WHEN $11 = 1 THEN archived_at ELSE NULL END,
                 updated_at = $12, alerts = $13, repeat_until_done = $14
             WHERE id = $1 AND user_id = $2",
        )
        .bind(r.id)
        .bind(r.user_id)
        .bind(title)
        .bind(description)
        .bind(send_to)
        .bind(metadata)
        .bind(to_millis(r.send_at))
        .bind(&r.timezone)
        .bind(recurrence)
        .bind(flag(is_active))
        .bind(flag(is_archived))
        .bind(to_millis(now))
        .bind(serde_json::to_string(&r.alerts)?)
        .bind(r.repeat_until_done.map(|x| serde_json::to_string(&x)).transpose()?)
        .execute(&mut *tx)
        .await?;
        let plan = lifecycle::plan(Subject { timing: &r.timing(), alarms: &r.alarms(), is_active }, Event::Edited(applied), now);
        apply_plans(&mut tx, &[PlanFor { reminder_id: &r.id, user_id: &r.user_id, plan: &plan }], now).await?;
        tx.commit().await?;
        if timing_changed || alarms_changed {
            self.reminder_changed(&r.id).await;
        }
        self.get_reminder(keys, &r.user_id, &r.id, now).await
    }

    /// Carries out a plan the person's own act made outside a notification (done early): its
    /// fires, and when it completes the reminder, the pending email fallbacks of its entries.
    pub async fn apply_plan(&self, reminder_id: &ReminderId, user_id: &UserId, plan: &lifecycle::Plan, now: Timestamp) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        self.apply_acted(tx.as_mut(), reminder_id, user_id, plan, plan.archive, now).await?;
        tx.commit().await?;
        self.reminder_changed(reminder_id).await;
        Ok(())
    }

    /// A person's act on a reminder, in the caller's transaction: optionally its entries'
    /// pending email fallbacks go (the person answered), then the plan.
    pub(super) async fn apply_acted(
        &self,
        conn: &mut sqlx::AnyConnection,
        reminder_id: &ReminderId,
        user_id: &UserId,
        plan: &lifecycle::Plan,
        clear_fallbacks: bool,
        now: Timestamp,
    ) -> Result<()> {
        if clear_fallbacks {
            sqlx::query("UPDATE delivery_logs SET fallback_minutes = NULL WHERE fallback_minutes IS NOT NULL AND reminder_id = $1")
                .bind(reminder_id)
                .execute(&mut *conn)
                .await?;
        }
        apply_plans(conn, &[PlanFor { reminder_id, user_id, plan }], now).await?;
        Ok(())
    }

    pub async fn delete_reminder(&self, user_id: &UserId, id: &ReminderId) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        let deleted = sqlx::query("DELETE FROM reminders WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if deleted == 0 {
            return Err(Error::NotFound);
        }
        forget(&mut tx, Forget::Reminder(id)).await?;
        for sql in [
            "DELETE FROM deliveries WHERE log_id IN (SELECT id FROM delivery_logs WHERE reminder_id = $1)",
            "DELETE FROM delivery_logs WHERE reminder_id = $1",
        ] {
            sqlx::query(sql).bind(id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        self.reminder_changed(id).await;
        Ok(())
    }
}
