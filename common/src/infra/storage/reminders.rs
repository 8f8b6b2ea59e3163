//! Reminder rows. Contents are sealed here on the way in and opened on the way out, so no
//! other layer handles ciphertext.

use jiff::Timestamp;
use sqlx::any::AnyRow;
use sqlx::{AssertSqlSafe, Row};

use super::fires::{PlanFor, apply_plans};
use super::{Db, flag};
use crate::domain::alarms::Alarms;
use crate::domain::ids::{ListId, ReminderId, UserId};
use crate::domain::lifecycle::{self, Event, Subject};
use crate::domain::lists::{Placement, fold_for_search, matches_search};
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
        r.list_id, r.created_by, r.assignees, r.rotate, r.break_through,
        (SELECT f.fire_at FROM fires f WHERE f.reminder_id = r.id AND f.kind = 'snooze') AS snooze_at,
        (SELECT f.for_users FROM fires f WHERE f.reminder_id = r.id AND f.kind = 'snooze') AS snooze_for,
        (SELECT f.fire_at FROM fires f WHERE f.reminder_id = r.id AND f.kind = 'occurrence') AS next_at
     FROM reminders r";

/// What `GET /api/reminders` asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReminderQuery {
    pub status: StatusFilter,
    /// Only this list's.
    pub list_id: Option<ListId>,
    /// Only those whose title or description holds this text (as search folds it).
    pub search: Option<String>,
}

/// The reminders `$1` may see: those of every list they belong to.
const VISIBLE_TO: &str = "r.list_id IN (SELECT m.list_id FROM list_members m WHERE m.user_id = $1)";

/// A reminder as `reader` sees it: a snooze is only its snoozer's (each sees their own).
fn reminder_from_row(keys: &Keys, row: &AnyRow, reader: &UserId, now: Timestamp) -> Result<Reminder> {
    let id: ReminderId = row.try_get("id")?;
    let title: Vec<u8> = row.try_get("title")?;
    let description: Option<Vec<u8>> = row.try_get("description")?;
    let recurrence: String = row.try_get("recurrence")?;
    let recurrence: Recurrence = serde_json::from_str(&recurrence).unwrap_or(Recurrence::once());
    let is_active = row.try_get::<i64, _>("is_active")? != 0;
    let is_archived = row.try_get::<i64, _>("is_archived")? != 0;
    let stored_next = row.try_get::<Option<i64>, _>("scheduled_at")?.map(from_millis);
    let snooze_at = match row.try_get::<Option<String>, _>("snooze_for")? {
        Some(people) => {
            let people = super::fires::parse_snoozed_for(&people)?;
            people.get(reader).copied().map(from_millis)
        }
        None => row.try_get::<Option<i64>, _>("snooze_at")?.map(from_millis),
    };
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
        list_id: row.try_get("list_id")?,
        assignees: serde_json::from_str(&row.try_get::<String, _>("assignees")?)
            .map_err(|_| Error::Corrupt("reminder assignees".into()))?,
        rotate: row.try_get::<i64, _>("rotate")? != 0,
        break_through: row.try_get::<i64, _>("break_through")? != 0,
        created_by: row.try_get("created_by")?,
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
    /// How many active reminders count against the person (those of the lists they own).
    pub async fn active_reminder_count(&self, user_id: &UserId) -> Result<i64> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM reminders WHERE user_id = $1 AND is_active = 1")
            .bind(user_id)
            .fetch_one(&self.pool)
            .await?)
    }

    /// Inserts a reminder where `place` says, unless the list's owner already
    /// has the maximum of active ones; its first occurrence after `now` (and its first alert)
    /// become its pending fires.
    pub async fn create_reminder(
        &self,
        keys: &Keys,
        place: &Placement,
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
        room_for_one_more(&mut tx, &place.owner).await?;
        sqlx::query(
            "INSERT INTO reminders (id, user_id, title, description, send_to, metadata, send_at, timezone, recurrence, scheduled_at,
                 is_active, is_archived, created_at, updated_at, alerts, repeat_until_done, list_id, created_by, assignees, rotate,
                 break_through)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, 0, $11, $11, $12, $13, $14, $15, $16, $17, $18)",
        )
        .bind(id)
        .bind(place.owner)
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
        .bind(place.list_id)
        .bind(place.created_by)
        .bind(serde_json::to_string(&place.assignees)?)
        .bind(flag(place.rotate))
        .bind(flag(contents.break_through))
        .execute(&mut *tx)
        .await?;
        let plan = lifecycle::plan(Subject { timing, alarms, is_active: true }, Event::Created, now);
        apply_plans(&mut tx, &[PlanFor::new(&id, &place.owner, &plan)], now).await?;
        tx.commit().await?;
        self.reminder_changed(&id).await;
        self.get_reminder(keys, &place.created_by, &id, now).await
    }

    pub async fn list_reminders(&self, keys: &Keys, user_id: &UserId, filter: StatusFilter, now: Timestamp) -> Result<Vec<Reminder>> {
        self.active_or_all(keys, user_id, filter, None, now).await
    }

    /// The user's reminders (of one list when `list` names one), by the next instant each
    /// rings (a snooze counts).
    async fn active_or_all(
        &self,
        keys: &Keys,
        user_id: &UserId,
        filter: StatusFilter,
        list: Option<&ListId>,
        now: Timestamp,
    ) -> Result<Vec<Reminder>> {
        // -1 matches both archived (1) and active (0) rows.
        let archived: i64 = match filter {
            StatusFilter::Active => 0,
            StatusFilter::Archived => 1,
            StatusFilter::All => -1,
        };
        let of_list = if list.is_some() { " AND r.list_id = $3" } else { "" };
        let sql = format!("{REMINDER_SELECT} WHERE {VISIBLE_TO} AND ($2 = -1 OR r.is_archived = $2){of_list}");
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(user_id).bind(archived);
        if let Some(list) = list {
            query = query.bind(list);
        }
        let rows = query.fetch_all(&self.pool).await?;
        let mut list = rows.iter().map(|r| reminder_from_row(keys, r, user_id, now)).collect::<Result<Vec<_>>>()?;
        list.sort_by_key(|r| (r.scheduled_at.is_none(), r.scheduled_at, r.created_at));
        Ok(list)
    }

    /// The user's archived reminders (of one list when `list` names one), newest archived
    /// first; all of them when `page` is None.
    async fn archived(
        &self,
        keys: &Keys,
        user_id: &UserId,
        list: Option<&ListId>,
        page: Option<(i64, i64)>,
        now: Timestamp,
    ) -> Result<Vec<Reminder>> {
        let of_list = if list.is_some() { " AND r.list_id = $2" } else { "" };
        let (first, next) = if list.is_some() { (3, 4) } else { (2, 3) };
        let paged = if page.is_some() { format!(" LIMIT ${first} OFFSET ${next}") } else { String::new() };
        let sql = format!(
            "{REMINDER_SELECT} WHERE {VISIBLE_TO} AND r.is_archived = 1{of_list} ORDER BY COALESCE(r.archived_at, r.updated_at) DESC, r.id{paged}"
        );
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(user_id);
        if let Some(list) = list {
            query = query.bind(list);
        }
        if let Some((limit, offset)) = page {
            query = query.bind(limit).bind(offset);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter().map(|r| reminder_from_row(keys, r, user_id, now)).collect()
    }

    /// A page of the reminders the query asks for and how many there are in all: active ones
    /// by the next instant each rings, archived ones newest archived first (read a page at a
    /// time: an account may keep 1,000), `All` the active then the archived. A search reads
    /// every candidate (contents are sealed, so it compares after opening them).
    pub async fn list_reminders_page(
        &self,
        keys: &Keys,
        user_id: &UserId,
        query: &ReminderQuery,
        limit: i64,
        offset: i64,
        now: Timestamp,
    ) -> Result<(Vec<Reminder>, i64)> {
        let (limit, offset) = (limit.max(0), offset.max(0));
        let list = query.list_id.as_ref();
        if let Some(search) = query.search.as_deref() {
            let folded = fold_for_search(search.trim());
            let mut all = match query.status {
                StatusFilter::Archived => Vec::new(),
                _ => self.active_or_all(keys, user_id, StatusFilter::Active, list, now).await?,
            };
            if query.status != StatusFilter::Active {
                all.extend(self.archived(keys, user_id, list, None, now).await?);
            }
            all.retain(|r| matches_search(&folded, &r.title, r.description.as_deref()));
            let total = all.len() as i64;
            return Ok((all.into_iter().skip(offset as usize).take(limit as usize).collect(), total));
        }
        let of_list = if list.is_some() { " AND list_id = $2" } else { "" };
        let count_sql = format!("SELECT COUNT(*) FROM reminders r WHERE {VISIBLE_TO} AND is_archived = 1{of_list}");
        let mut count = sqlx::query_scalar::<_, i64>(AssertSqlSafe(count_sql)).bind(user_id);
        if let Some(list) = list {
            count = count.bind(list);
        }
        let archived_total = count.fetch_one(&self.pool).await?;
        match query.status {
            StatusFilter::Archived => Ok((self.archived(keys, user_id, list, Some((limit, offset)), now).await?, archived_total)),
            StatusFilter::Active | StatusFilter::All => {
                let active = self.active_or_all(keys, user_id, StatusFilter::Active, list, now).await?;
                let active_total = active.len() as i64;
                let mut page: Vec<Reminder> = active.into_iter().skip(offset as usize).take(limit as usize).collect();
                if query.status == StatusFilter::Active {
                    return Ok((page, active_total));
                }
                let room = limit - page.len() as i64;
                if room > 0 {
                    let archived_offset = (offset - active_total).max(0);
                    page.extend(self.archived(keys, user_id, list, Some((room, archived_offset)), now).await?);
                }
                Ok((page, active_total + archived_total))
            }
        }
    }

    /// The reminder with this id in a list the user belongs to; any other is `NotFound` like
    /// a missing one.
    pub async fn get_reminder(&self, keys: &Keys, user_id: &UserId, id: &ReminderId, now: Timestamp) -> Result<Reminder> {
        let sql = format!("{REMINDER_SELECT} WHERE {VISIBLE_TO} AND r.id = $2");
        let row = sqlx::query(AssertSqlSafe(sql)).bind(user_id).bind(id).fetch_optional(&self.pool).await?.ok_or(Error::NotFound)?;
        reminder_from_row(keys, &row, user_id, now)
    }

    /// Writes a reminder edited by [`crate::domain::reminder::ReminderPatch::apply_to`], as `applied`
    /// says: a reactivated (completed, then given a new time) reminder counts against the
    /// active limit like a create; changed timing replaces the pending occurrence fire with
    /// the new `scheduled_at`.
    pub async fn save_reminder(
        &self,
        keys: &Keys,
        editor: &UserId,
        previous_owner: &UserId,
        r: &Reminder,
        applied: Applied,
        now: Timestamp,
    ) -> Result<Reminder> {
        let Applied { reactivate, timing_changed, alarms_changed } = applied;
        let contents = Contents {
            title: r.title.clone(),
            description: r.description.clone(),
            send_to: r.send_to.clone(),
            metadata: r.metadata.clone(),
            break_through: r.break_through,
        };
        let [title, description, send_to, metadata] = seal_contents(keys, &r.id, &contents)?;
        let recurrence = serde_json::to_string(&r.recurrence)?;
        let mut tx = self.pool.begin().await?;
        // A reminder moved to a list of another owner counts against that owner's limit. (No
        // read comes before the first write here: in SQLite a transaction that reads first
        // cannot take the write lock while another connection writes.)
        let moved = *previous_owner != r.user_id;
        if reactivate || (moved && r.is_active) {
            room_for_one_more(&mut tx, &r.user_id).await?;
        }
        let (is_active, is_archived) = if reactivate { (true, false) } else { (r.is_active, r.is_archived) };
        // Fires before the reminder's row, the order a claim takes them in: on PostgreSQL an
        // edit that took the row first could deadlock with a claim of the same reminder.
        let plan = lifecycle::plan(Subject { timing: &r.timing(), alarms: &r.alarms(), is_active }, Event::Edited(applied), now);
        apply_plans(&mut tx, &[PlanFor::new(&r.id, &r.user_id, &plan)], now).await?;
        sqlx::query(
            "UPDATE reminders SET title = $3, description = $4, send_to = $5, metadata = $6, send_at = $7, timezone = $8,
                 recurrence = $9, is_active = $10, is_archived = $11, archived_at = CASE WHEN $11 = 1 THEN archived_at ELSE NULL END,
                 updated_at = $12, alerts = $13, repeat_until_done = $14, user_id = $2, list_id = $15, assignees = $16, rotate = $17,
                 break_through = $18
             WHERE id = $1",
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
        .bind(r.list_id)
        .bind(serde_json::to_string(&r.assignees)?)
        .bind(flag(r.rotate))
        .bind(flag(r.break_through))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        if timing_changed || alarms_changed {
            self.reminder_changed(&r.id).await;
        }
        self.get_reminder(keys, editor, &r.id, now).await
    }

    /// Carries out a plan the person's own act made outside a notification (done early): its
    /// fires, and when it completes the reminder, the pending email fallbacks of its entries.
    pub async fn apply_plan(&self, reminder_id: &ReminderId, user_id: &UserId, plan: &lifecycle::Plan, now: Timestamp) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        self.apply_acted(tx.as_mut(), reminder_id, user_id, None, plan, plan.archive, now).await?;
        tx.commit().await?;
        self.reminder_changed(reminder_id).await;
        Ok(())
    }

    /// A person's act on a reminder, in the caller's transaction: optionally its entries'
    /// pending email fallbacks and rings held for quiet hours go (the person answered), then
    /// the plan.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn apply_acted(
        &self,
        conn: &mut sqlx::AnyConnection,
        reminder_id: &ReminderId,
        user_id: &UserId,
        actor: Option<&UserId>,
        plan: &lifecycle::Plan,
        clear_fallbacks: bool,
        now: Timestamp,
    ) -> Result<()> {
        if clear_fallbacks {
            // Anyone's Complete answers everyone; a snooze for one, only them.
            let only = if plan.for_one { actor } else { None };
            sqlx::query("DELETE FROM fallbacks WHERE emailed_at IS NULL AND log_id IN (SELECT id FROM delivery_logs WHERE reminder_id = $1) AND ($2 IS NULL OR user_id = $2)")
                .bind(reminder_id)
                .bind(only)
                .execute(&mut *conn)
                .await?;
            sqlx::query("UPDATE holds SET state = 'dropped' WHERE state = 'held' AND log_id IN (SELECT id FROM delivery_logs WHERE reminder_id = $1) AND ($2 IS NULL OR user_id = $2)")
                .bind(reminder_id)
                .bind(only)
                .execute(&mut *conn)
                .await?;
        }
        apply_plans(conn, &[PlanFor { actor, ..PlanFor::new(reminder_id, user_id, plan) }], now).await?;
        Ok(())
    }

    /// Deletes a reminder of a list the user belongs to, with its fires and history.
    pub async fn delete_reminder(&self, user_id: &UserId, id: &ReminderId) -> Result<()> {
        let mut tx = self.begin_write().await?;
        let sql = format!("SELECT r.id FROM reminders r WHERE {VISIBLE_TO} AND r.id = $2");
        let found: Option<ReminderId> = sqlx::query_scalar(AssertSqlSafe(sql)).bind(user_id).bind(id).fetch_optional(&mut *tx).await?;
        if found.is_none() {
            return Err(Error::NotFound);
        }
        super::lists::delete_reminder_rows(&mut tx, id).await?;
        tx.commit().await?;
        self.reminder_changed(id).await;
        Ok(())
    }
}
