//! Rings held for quiet hours (decisions.md "Reach and rhythm"): a `holds` row per (entry,
//! person) held, and one fire of kind `held` per reminder, due at the earliest end among its
//! holds still waiting. The claim writes them ([`insert_holds`]) and releases them
//! ([`release`]); the worker reads them ([`holds_of`]) to leave held people out until then.

use std::collections::HashMap;

use jiff::Timestamp;
use sqlx::{AnyConnection, AssertSqlSafe, Row};

use super::{Db, placeholders, value_rows};
use crate::Result;
use crate::domain::ids::{LogId, ReminderId, UserId};
use crate::domain::quiet::{Hold, QuietHours};
use crate::domain::time::{from_millis, to_millis};
use crate::domain::zone::Zone;

const ROWS: usize = 250;

/// A person's hold of an entry, as the worker sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoldState {
    /// Still waiting (or merged, or dropped): not theirs to get now.
    Waiting,
    /// Released: it goes to them at `until`, marked held.
    Released(Timestamp),
}

/// People's quiet hours, by person (only those who set them).
pub(super) async fn quiet_hours_of(conn: &mut AnyConnection, people: &[UserId]) -> Result<HashMap<UserId, (QuietHours, Zone)>> {
    let mut out = HashMap::new();
    for chunk in people.chunks(ROWS * 2) {
        let sql = format!(
            "SELECT id, timezone, quiet_start, quiet_end FROM users WHERE quiet_start IS NOT NULL AND quiet_end IS NOT NULL AND id IN ({})",
            placeholders(1, chunk.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for id in chunk {
            query = query.bind(id);
        }
        for row in query.fetch_all(&mut *conn).await? {
            let hours = QuietHours { start: row.try_get("quiet_start")?, end: row.try_get("quiet_end")? };
            out.insert(row.try_get("id")?, (hours, row.try_get("timezone")?));
        }
    }
    Ok(out)
}

/// The rings still held for each (reminder, person, occurrence): until when.
pub(super) async fn held_now(conn: &mut AnyConnection, reminders: &[ReminderId]) -> Result<HashMap<(ReminderId, UserId, i64), Timestamp>> {
    let mut out = HashMap::new();
    for chunk in reminders.chunks(ROWS * 2) {
        let sql = format!(
            "SELECT l.reminder_id, h.user_id, COALESCE(l.occurrence_of, l.occurrence_at) AS occurrence, h.until
             FROM holds h JOIN delivery_logs l ON l.id = h.log_id WHERE h.state = 'held' AND l.reminder_id IN ({})",
            placeholders(1, chunk.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for id in chunk {
            query = query.bind(id);
        }
        for row in query.fetch_all(&mut *conn).await? {
            out.insert(
                (row.try_get("reminder_id")?, row.try_get("user_id")?, row.try_get("occurrence")?),
                from_millis(row.try_get("until")?),
            );
        }
    }
    Ok(out)
}

/// Records holds of logged entries; a held person's email fallback counts from the end of
/// their quiet hours.
pub(super) async fn insert_holds(conn: &mut AnyConnection, holds: &[(LogId, UserId, Hold)]) -> Result<()> {
    for chunk in holds.chunks(ROWS) {
        let sql = format!(
            "INSERT INTO holds (log_id, user_id, until, state) VALUES {} ON CONFLICT (log_id, user_id) DO NOTHING",
            value_rows(1, chunk.len(), 4, |c, p| if c == 2 { format!("CAST({p} AS BIGINT)") } else { p })
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for (log_id, user_id, hold) in chunk {
            query = query.bind(log_id).bind(user_id).bind(to_millis(hold.until())).bind(hold.state());
        }
        query.execute(&mut *conn).await?;
        let sql = format!(
            "UPDATE fallbacks SET since = CAST(v.column3 AS BIGINT) FROM (VALUES {}) AS v
             WHERE fallbacks.log_id = v.column1 AND fallbacks.user_id = v.column2",
            value_rows(1, chunk.len(), 3, |_, p| p)
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for (log_id, user_id, hold) in chunk {
            query = query.bind(log_id).bind(user_id).bind(to_millis(hold.until()));
        }
        query.execute(&mut *conn).await?;
    }
    Ok(())
}

/// Releases the reminder's holds due by `due_by`: answers the entries to deliver again (to
/// the people released; the others' devices have theirs already) and when the next of its
/// holds falls due. An entry completed meanwhile, or of a reminder no longer active, stays as
/// it is (a person's own act dropped their holds already).
pub(super) async fn release(conn: &mut AnyConnection, reminder_id: &ReminderId, due_by: Timestamp) -> Result<(Vec<LogId>, Option<Timestamp>)> {
    let released: Vec<LogId> = sqlx::query_scalar(
        "UPDATE holds SET state = 'released' WHERE state = 'held' AND until <= $2
             AND log_id IN (SELECT id FROM delivery_logs WHERE reminder_id = $1) RETURNING log_id",
    )
    .bind(reminder_id)
    .bind(to_millis(due_by))
    .fetch_all(&mut *conn)
    .await?;
    let mut log_ids = released;
    log_ids.sort_by_key(|l| l.to_string());
    log_ids.dedup();
    let mut deliver = Vec::new();
    for chunk in log_ids.chunks(ROWS) {
        let sql = format!(
            "UPDATE delivery_logs SET status = 'queued' WHERE COALESCE(action, '') <> 'complete' AND status NOT IN ('missed', 'cancelled')
                 AND EXISTS (SELECT 1 FROM reminders r WHERE r.id = delivery_logs.reminder_id AND r.is_active = 1)
                 AND id IN ({}) RETURNING id",
            placeholders(1, chunk.len())
        );
        let mut query = sqlx::query_scalar::<_, LogId>(AssertSqlSafe(sql));
        for id in chunk {
            query = query.bind(id);
        }
        deliver.extend(query.fetch_all(&mut *conn).await?);
    }
    let next: Option<i64> = sqlx::query_scalar(
        "SELECT MIN(h.until) FROM holds h JOIN delivery_logs l ON l.id = h.log_id WHERE l.reminder_id = $1 AND h.state = 'held'",
    )
    .bind(reminder_id)
    .fetch_one(&mut *conn)
    .await?;
    Ok((deliver, next.map(from_millis)))
}

impl Db {
    /// Each entry's holds, by person.
    pub(super) async fn holds_of(&self, log_ids: &[LogId]) -> Result<HashMap<(LogId, UserId), HoldState>> {
        let mut out = HashMap::new();
        for chunk in log_ids.chunks(ROWS * 2) {
            let sql = format!("SELECT log_id, user_id, until, state FROM holds WHERE log_id IN ({})", placeholders(1, chunk.len()));
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                query = query.bind(id);
            }
            for row in query.fetch_all(&self.pool).await? {
                let state = if row.try_get::<String, _>("state")? == "released" {
                    HoldState::Released(from_millis(row.try_get("until")?))
                } else {
                    HoldState::Waiting
                };
                out.insert((row.try_get("log_id")?, row.try_get("user_id")?), state);
            }
        }
        Ok(out)
    }
}
