//! Claiming due fires, many per transaction: a burst of reminders due in one second is
//! claimed in a few statements per chunk rather than five round trips per reminder.

use std::collections::{HashMap, HashSet};

use jiff::{SignedDuration, Timestamp};
use sqlx::{AssertSqlSafe, Row};

use super::delivery::{Claimed, LATE_WINDOW};
use super::{Db, placeholders, value_rows};
use crate::Result;
use crate::alarms::Alarms;
use crate::ids::{LogId, ReminderId, UserId};
use crate::reminder::Timing;
use crate::states::{EntryStatus, FireKind};
use crate::time::{from_millis, to_millis};

/// Fires claimed in one transaction (and rows per multi-row statement).
pub const CLAIM_CHUNK: usize = 1000;
/// An occurrence this late (but within [`LATE_WINDOW`]) is marked late.
const LATE_AFTER: SignedDuration = SignedDuration::from_secs(5);

/// What the claim knows of a reminder.
struct ReminderRow {
    user_id: UserId,
    timing: Timing,
    alarms: Alarms,
    is_active: bool,
}

/// A claimed fire on its way to becoming a delivery log entry.
struct Entry {
    reminder_id: ReminderId,
    kind: FireKind,
    fire_at: Timestamp,
    log_id: LogId,
    missed: bool,
    late: bool,
    next: Option<Timestamp>,
    /// An alert's or repeat's occurrence.
    occurrence_of: Option<Timestamp>,
    /// The alert or repeat that follows this fire: (kind, when, its occurrence).
    follow_up: Option<(FireKind, Timestamp, Timestamp)>,
}

impl Db {
    /// Claims due fires: deletes each (only one claimer can), writes its delivery log entry
    /// and, for an occurrence of a recurring reminder, schedules the next one; each chunk of
    /// [`CLAIM_CHUNK`] in one transaction. A fire may be claimed when it is due by `until` (at
    /// or after `now`: the scheduler claims a moment ahead so the push is ready at its second;
    /// the worker holds it until the entry's `occurrence_at`). A fire more than
    /// [`LATE_WINDOW`] past is logged as missed instead. Answers in the order asked.
    pub async fn claim_fires(
        &self,
        fires: &[(ReminderId, FireKind)],
        now: Timestamp,
        until: Timestamp,
    ) -> Result<Vec<(ReminderId, Claimed)>> {
        let mut out = Vec::with_capacity(fires.len());
        for chunk in fires.chunks(CLAIM_CHUNK) {
            let claimed = self.claim_chunk(chunk, now, until).await?;
            out.extend(chunk.iter().map(|(id, kind)| (id.clone(), claimed.get(&(id.clone(), *kind)).cloned().unwrap_or(Claimed::Gone))));
        }
        Ok(out)
    }

    /// One fire: see [`Db::claim_fires`].
    pub async fn claim_fire(&self, reminder_id: &ReminderId, kind: FireKind, now: Timestamp) -> Result<Claimed> {
        let claimed = self.claim_fires(&[(reminder_id.clone(), kind)], now, now).await?;
        Ok(claimed.into_iter().next().map(|(_, c)| c).unwrap_or(Claimed::Gone))
    }

    async fn claim_chunk(
        &self,
        chunk: &[(ReminderId, FireKind)],
        now: Timestamp,
        until: Timestamp,
    ) -> Result<HashMap<(ReminderId, FireKind), Claimed>> {
        let mut tx = self.pool.begin().await?;
        let until_ms = to_millis(until.max(now));

        // 1. Take the fires that are still there and due.
        let mut taken: Vec<(ReminderId, FireKind, Timestamp, Timestamp)> = Vec::new();
        for &kind in FireKind::ALL {
            let ids: Vec<&str> =
                chunk.iter().filter(|(_, k)| *k == kind).map(|(id, _)| id.as_str()).collect::<HashSet<_>>().into_iter().collect();
            if ids.is_empty() {
                continue;
            }
            let sql = format!(
                "DELETE FROM fires WHERE kind = $1 AND fire_at <= $2 AND reminder_id IN ({}) RETURNING reminder_id, fire_at, occurrence_at",
                placeholders(3, ids.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(kind.as_str()).bind(until_ms);
            for id in &ids {
                query = query.bind(*id);
            }
            for row in query.fetch_all(&mut *tx).await? {
                taken.push((
                    row.try_get("reminder_id")?,
                    kind,
                    from_millis(row.try_get("fire_at")?),
                    from_millis(row.try_get("occurrence_at")?),
                ));
            }
        }
        if taken.is_empty() {
            tx.commit().await?;
            return Ok(HashMap::new());
        }

        // 2. Their reminders.
        let ids: Vec<&str> = taken.iter().map(|(id, _, _, _)| id.as_str()).collect::<HashSet<_>>().into_iter().collect();
        let sql = format!(
            "SELECT id, user_id, send_at, timezone, recurrence, is_active, alerts, repeat_until_done FROM reminders WHERE id IN ({})",
            placeholders(1, ids.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for id in &ids {
            query = query.bind(*id);
        }
        let mut reminders = HashMap::new();
        for row in query.fetch_all(&mut *tx).await? {
            let recurrence: String = row.try_get("recurrence")?;
            let timing = Timing {
                send_at: from_millis(row.try_get("send_at")?),
                timezone: row.try_get("timezone")?,
                recurrence: serde_json::from_str(&recurrence)?,
            };
            let id: ReminderId = row.try_get("id")?;
            let alarms = Alarms::from_stored(&row.try_get::<String, _>("alerts")?, row.try_get("repeat_until_done")?);
            let is_active = row.try_get::<i64, _>("is_active")? != 0;
            reminders.insert(id, ReminderRow { user_id: row.try_get("user_id")?, timing, alarms, is_active });
        }

        // 3. An entry per fire of an active reminder, and its next occurrence.
        let mut entries = Vec::new();
        for (reminder_id, kind, fire_at, occurrence_at) in taken {
            let Some(reminder) = reminders.get(&reminder_id).filter(|r| r.is_active) else { continue };
            let lateness = now.duration_since(fire_at);
            let missed = lateness > LATE_WINDOW;
            // After a long outage, skip ahead to the future rather than replaying every miss.
            let from = if missed { now } else { fire_at };
            let next = if kind == FireKind::Occurrence { reminder.timing.schedule().next_after(from) } else { None };
            let repeat_after = |occurrence: Timestamp, rang: Timestamp| {
                let repeat = reminder.alarms.repeat.as_ref().filter(|_| !missed)?;
                crate::alarms::next_repeat(repeat, occurrence, rang).map(|at| (FireKind::Repeat, at, occurrence))
            };
            let follow_up = match kind {
                FireKind::Occurrence => repeat_after(fire_at, fire_at),
                FireKind::Repeat => repeat_after(occurrence_at, fire_at),
                FireKind::Alert => crate::alarms::next_alert(&reminder.timing.schedule(), &reminder.alarms.alerts, from, None)
                    .map(|(at, occurrence)| (FireKind::Alert, at, occurrence)),
                FireKind::Snooze => None,
            };
            let occurrence_of = matches!(kind, FireKind::Alert | FireKind::Repeat).then_some(occurrence_at);
            entries.push(Entry {
                reminder_id,
                kind,
                fire_at,
                log_id: LogId::generate(),
                missed,
                late: lateness >= LATE_AFTER,
                next,
                occurrence_of,
                follow_up,
            });
        }
        if entries.is_empty() {
            tx.commit().await?;
            return Ok(HashMap::new());
        }

        let sql = format!(
            "INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind, occurrence_of) VALUES {}
             ON CONFLICT (reminder_id, occurrence_at) DO NOTHING RETURNING id",
            value_rows(1, entries.len(), 9, |c, p| if c == 8 { format!("CAST({p} AS BIGINT)") } else { p })
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for e in &entries {
            query = query
                .bind(&e.log_id)
                .bind(&e.reminder_id)
                .bind(&reminders[&e.reminder_id].user_id)
                .bind(to_millis(e.fire_at))
                .bind(if e.missed { EntryStatus::Missed } else { EntryStatus::Queued }.as_str())
                .bind(i64::from(e.late))
                .bind(to_millis(now))
                .bind(e.kind.as_str())
                .bind(e.occurrence_of.map(to_millis));
        }
        let logged: HashSet<LogId> =
            query.fetch_all(&mut *tx).await?.iter().map(|r| r.try_get("id")).collect::<std::result::Result<_, _>>()?;

        // Each entry to deliver carries its user's email fallback delay (see storage/fallback.rs).
        let to_deliver: Vec<&str> = entries.iter().filter(|e| !e.missed && logged.contains(&e.log_id)).map(|e| e.log_id.as_str()).collect();
        if !to_deliver.is_empty() {
            let sql = format!(
                "UPDATE delivery_logs SET fallback_minutes = (SELECT u.email_fallback_minutes FROM users u WHERE u.id = delivery_logs.user_id) WHERE id IN ({})",
                placeholders(1, to_deliver.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in &to_deliver {
                query = query.bind(*id);
            }
            query.execute(&mut *tx).await?;
        }

        let nexts: Vec<(&str, i64)> = entries.iter().filter_map(|e| Some((e.reminder_id.as_str(), to_millis(e.next?)))).collect();
        let mut scheduled = HashSet::new();
        if !nexts.is_empty() {
            let sql = format!(
                "INSERT INTO fires (reminder_id, kind, fire_at, occurrence_at) VALUES {} ON CONFLICT (reminder_id, kind) DO NOTHING RETURNING reminder_id",
                value_rows(1, nexts.len(), 2, |c, p| if c == 0 {
                    format!("{p}, '{}'", FireKind::Occurrence.as_str())
                } else {
                    format!("{p}, {p}")
                })
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (id, at) in &nexts {
                query = query.bind(*id).bind(*at);
            }
            for row in query.fetch_all(&mut *tx).await? {
                scheduled.insert(row.try_get::<ReminderId, _>("reminder_id")?);
            }
            let sql = format!(
                "UPDATE reminders SET scheduled_at = CAST(v.column2 AS BIGINT) FROM (VALUES {}) AS v WHERE reminders.id = v.column1",
                value_rows(1, nexts.len(), 2, |_, p| p)
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (id, at) in &nexts {
                query = query.bind(*id).bind(*at);
            }
            query.execute(&mut *tx).await?;
        }
        // Each alert or repeat schedules the next (a fire set meanwhile by an edit stays).
        let follow_ups: Vec<(&ReminderId, FireKind, i64, i64)> =
            entries.iter().filter_map(|e| e.follow_up.map(|(k, at, occ)| (&e.reminder_id, k, to_millis(at), to_millis(occ)))).collect();
        for chunk in follow_ups.chunks(CLAIM_CHUNK / 4) {
            let sql = format!(
                "INSERT INTO fires (reminder_id, kind, fire_at, occurrence_at) VALUES {} ON CONFLICT (reminder_id, kind) DO NOTHING",
                value_rows(1, chunk.len(), 4, |c, p| if c >= 2 { format!("CAST({p} AS BIGINT)") } else { p })
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (id, kind, at, occ) in chunk {
                query = query.bind(*id).bind(kind.as_str()).bind(*at).bind(*occ);
            }
            query.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        let announce: HashSet<&ReminderId> = follow_ups.iter().map(|(id, ..)| *id).collect();
        for id in announce {
            self.reminder_changed(id).await;
        }

        Ok(entries
            .into_iter()
            .filter(|e| logged.contains(&e.log_id))
            .map(|e| {
                // On a conflict an edit set the fire meanwhile; its change notice will tell.
                let next = e.next.filter(|_| scheduled.contains(&e.reminder_id));
                let claimed = if e.missed {
                    Claimed::Missed { log_id: e.log_id, next }
                } else {
                    Claimed::Deliver { log_id: e.log_id, late: e.late, next }
                };
                ((e.reminder_id, e.kind), claimed)
            })
            .collect())
    }
}
