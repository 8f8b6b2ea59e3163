//! Claiming due fires, many per transaction: a burst of reminders due in one second is
//! claimed in a few statements per chunk rather than five round trips per reminder. The claim
//! takes, reads, plans and applies: what follows each claimed fire is
//! [`crate::domain::lifecycle`]'s to decide, who its ring is for [`crate::domain::ring`]'s.

use std::collections::{HashMap, HashSet};

use jiff::Timestamp;
use sqlx::{AssertSqlSafe, Row};

use super::delivery::Claimed;
use super::fires::{PlanFor, apply_plans, put_held, put_snoozes, take_due};
use super::holds::{held_now, insert_holds, quiet_hours_of, release};
use super::{Db, placeholders};
use crate::Result;
use crate::domain::alarms::Alarms;
use crate::domain::ids::{ReminderId, UserId};
use crate::domain::lifecycle::{self, Event, Plan, Subject};
use crate::domain::lists;
use crate::domain::quiet::Hold;
use crate::domain::reminder::Timing;
use crate::domain::ring::SnoozedFor;
use crate::domain::ring::{self, ClaimedReminder, entry_people};
use crate::domain::states::{EntryStatus, FireKind};
use crate::domain::time::{from_millis, to_millis};

/// Fires claimed in one transaction (and rows per multi-row statement).
pub const CLAIM_CHUNK: usize = 1000;

impl Db {
    /// Claims due fires: deletes each (only one claimer can), writes its delivery log entry
    /// and what follows it (the next occurrence, alert or repeat), as
    /// [`lifecycle::plan`] says; each chunk of [`CLAIM_CHUNK`] in one transaction. A fire
    /// may be claimed when it is due by `until` (at or after `now`: the scheduler claims a
    /// moment ahead so the push is ready at its second; the worker holds it until the entry's
    /// `occurrence_at`). A fire more than [`lifecycle::LATE_WINDOW`] past is logged as missed
    /// instead. Answers in the order asked.
    pub async fn claim_fires(
        &self,
        fires: &[(ReminderId, FireKind)],
        now: Timestamp,
        until: Timestamp,
    ) -> Result<Vec<(ReminderId, Claimed)>> {
        let mut out = Vec::with_capacity(fires.len());
        for chunk in fires.chunks(CLAIM_CHUNK) {
            let claimed = self.claim_chunk(chunk, now, until).await?;
            out.extend(chunk.iter().map(|(id, kind)| (*id, claimed.get(&(*id, *kind)).cloned().unwrap_or(Claimed::Gone))));
        }
        Ok(out)
    }

    /// One fire: see [`Db::claim_fires`].
    pub async fn claim_fire(&self, reminder_id: &ReminderId, kind: FireKind, now: Timestamp) -> Result<Claimed> {
        let claimed = self.claim_fires(&[(*reminder_id, kind)], now, now).await?;
        Ok(claimed.into_iter().next().map(|(_, c)| c).unwrap_or(Claimed::Gone))
    }

    async fn claim_chunk(
        &self,
        chunk: &[(ReminderId, FireKind)],
        now: Timestamp,
        until: Timestamp,
    ) -> Result<HashMap<(ReminderId, FireKind), Claimed>> {
        let mut tx = self.pool.begin().await?;
        let (held, taken): (Vec<_>, Vec<_>) =
            take_due(&mut tx, chunk, until.max(now)).await?.into_iter().partition(|(_, fire, _)| fire.kind == FireKind::Held);
        if held.is_empty() && taken.is_empty() {
            tx.commit().await?;
            return Ok(HashMap::new());
        }
        // Rings held for quiet hours that end now.
        let mut answers = HashMap::new();
        let mut held_again: Vec<(ReminderId, Timestamp)> = Vec::new();
        let mut released = Vec::new();
        for (id, _, _) in &held {
            let (log_ids, next) = release(&mut tx, id, until.max(now)).await?;
            held_again.extend(next.map(|at| (*id, at)));
            released.push((*id, log_ids));
        }
        let held_next = put_held(&mut tx, &held_again).await?;
        for (id, log_ids) in released {
            answers.insert((id, FireKind::Held), Claimed::Release { log_ids, held_at: held_next.get(&id).copied() });
        }
        if taken.is_empty() {
            tx.commit().await?;
            return Ok(answers);
        }

        // Their reminders.
        let ids: Vec<ReminderId> = taken.iter().map(|(id, _, _)| *id).collect::<HashSet<_>>().into_iter().collect();
        let sql = format!(
            "SELECT id, user_id, send_at, timezone, recurrence, is_active, alerts, repeat_until_done, assignees, rotate, rotation_next,
                 break_through FROM reminders WHERE id IN ({})",
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
            reminders.insert(
                id,
                ClaimedReminder {
                    user_id: row.try_get("user_id")?,
                    timing,
                    alarms,
                    is_active,
                    assignees: serde_json::from_str(&row.try_get::<String, _>("assignees")?)?,
                    rotate: row.try_get::<i64, _>("rotate")? != 0,
                    rotation_next: u64::try_from(row.try_get::<i64, _>("rotation_next")?).unwrap_or(0),
                    break_through: row.try_get::<i64, _>("break_through")? != 0,
                },
            );
        }

        // The people of each reminder's list, in the order they joined.
        let sql = format!(
            "SELECT r.id, m.user_id FROM reminders r JOIN list_members m ON m.list_id = r.list_id WHERE r.id IN ({}) ORDER BY m.joined_at, m.user_id",
            placeholders(1, ids.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for id in &ids {
            query = query.bind(*id);
        }
        let mut members: HashMap<ReminderId, Vec<UserId>> = HashMap::new();
        for row in query.fetch_all(&mut *tx).await? {
            members.entry(row.try_get("id")?).or_default().push(row.try_get("user_id")?);
        }

        // What follows each (a fire of a reminder gone meanwhile is just dropped), and who its
        // entry is for: the people whose snooze is due, or a rotation's turn.
        let mut later_snoozes: Vec<(ReminderId, SnoozedFor)> = Vec::new();
        let mut rotated: Vec<ReminderId> = Vec::new();
        let due_by = crate::domain::time::to_millis(until.max(now));
        let mut planned: Vec<Planned<'_>> = taken
            .into_iter()
            .filter_map(|(id, fire, people)| {
                let row = reminders.get(&id)?;
                let subject = Subject { timing: &row.timing, alarms: &row.alarms, is_active: row.is_active };
                let plan = lifecycle::plan(subject, Event::Claimed(fire), now);
                let who = entry_people(fire.kind, plan.entry.is_some(), people, row, due_by);
                if let Some(later) = who.later {
                    later_snoozes.push((id, later));
                }
                if who.turn_taken {
                    rotated.push(id);
                }
                Some(Planned { id, kind: fire.kind, row, plan, for_users: who.named, holds: Vec::new() })
            })
            .collect();
        // Who each entry rings for: each of them may have an email fallback.
        let recipients: Vec<Vec<UserId>> = planned
            .iter()
            .map(|p| {
                let people = members.get(&p.id).cloned().unwrap_or_else(|| vec![p.row.user_id]);
                lists::recipients(&people, &p.row.assignees, p.for_users.as_deref(), &[])
            })
            .collect();
        hold_for_quiet_hours(&mut tx, &mut planned, &recipients).await?;
        let plans: Vec<PlanFor<'_>> = planned
            .iter()
            .zip(&recipients)
            .map(|(p, to)| PlanFor { for_users: p.for_users.as_deref(), fallback_to: to, ..PlanFor::new(&p.id, &p.row.user_id, &p.plan) })
            .collect();
        let outcomes = apply_plans(&mut tx, &plans, now).await?;
        let mut holds = Vec::new();
        let mut newly_held = Vec::new();
        for (p, outcome) in planned.iter().zip(&outcomes) {
            if let Some(log_id) = outcome.logged {
                holds.extend(p.holds.iter().map(|(person, hold)| (log_id, *person, *hold)));
                newly_held.extend(p.holds.iter().filter(|(_, h)| matches!(h, Hold::Held(_))).map(|(_, h)| (p.id, h.until())));
            }
        }
        insert_holds(&mut tx, &holds).await?;
        let held_fires = put_held(&mut tx, &newly_held).await?;
        let escalations = escalate(&mut tx, &planned, &outcomes, now).await?;
        for (id, people) in &later_snoozes {
            put_snoozes(&mut tx, id, people).await?;
        }
        if !rotated.is_empty() {
            let sql = format!("UPDATE reminders SET rotation_next = rotation_next + 1 WHERE id IN ({})", placeholders(1, rotated.len()));
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in &rotated {
                query = query.bind(*id);
            }
            query.execute(&mut *tx).await?;
        }
        tx.commit().await?;

        // The scheduler learns of the next occurrence from the answer, of the rest by notice.
        let announce: HashSet<&ReminderId> =
            planned.iter().filter(|p| p.plan.sets_follow_up()).map(|p| &p.id).chain(later_snoozes.iter().map(|(id, _)| id)).collect();
        for id in announce {
            self.reminder_changed(id).await;
        }

        answers.extend(planned.iter().zip(outcomes).filter_map(|(Planned { id, kind, plan, holds, .. }, outcome)| {
            // Not set when an edit set the occurrence meanwhile; its change notice will tell.
            let next = plan.next_occurrence().filter(|_| outcome.occurrence_set);
            let held_at = held_fires.get(id).copied();
            let claimed = match (plan.entry, outcome.logged) {
                (Some(entry), Some(log_id)) => match entry.status {
                    EntryStatus::Missed => Claimed::Missed { log_id, next },
                    EntryStatus::Held => Claimed::Held { next, held_at },
                    _ => Claimed::Deliver {
                        log_id,
                        late: entry.late,
                        next,
                        also: escalations.get(&log_id).cloned().unwrap_or_default(),
                        held_at,
                    },
                },
                // Merged into a ring held already: nothing to deliver, but what follows stands.
                (None, _) if !holds.is_empty() => Claimed::Held { next, held_at },
                _ => return None,
            };
            Some(((*id, *kind), claimed))
        }));
        Ok(answers)
    }
}

/// A claimed fire, what follows it, and who its entry is for (None: everyone it rings for).
struct Planned<'a> {
    id: ReminderId,
    kind: FireKind,
    row: &'a ClaimedReminder,
    plan: Plan,
    for_users: Option<Vec<UserId>>,
    /// Its people in quiet hours.
    holds: Vec<(UserId, Hold)>,
}

/// Logs the escalation steps due with each repeat that rings now (not held): an entry of kind
/// `escalation` per step, for the people the repeat rang for, a millisecond apart after it.
async fn escalate(
    conn: &mut sqlx::AnyConnection,
    planned: &[Planned<'_>],
    outcomes: &[super::fires::Outcome],
    now: Timestamp,
) -> Result<HashMap<crate::domain::ids::LogId, Vec<crate::domain::ids::LogId>>> {
    let mut made = HashMap::new();
    for (p, outcome) in planned.iter().zip(outcomes) {
        let (Some(entry), Some(log_id), Some(repeat)) = (p.plan.entry, outcome.logged, p.row.alarms.repeat.as_ref()) else { continue };
        if p.kind != FireKind::Repeat || entry.status != EntryStatus::Queued {
            continue;
        }
        let occurrence = entry.occurrence_of.unwrap_or(entry.occurrence_at);
        for (k, step) in crate::domain::alarms::steps_due(repeat, occurrence, entry.occurrence_at).iter().enumerate() {
            let id = crate::domain::ids::LogId::generate();
            sqlx::query(
                "INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind, occurrence_of, for_users, escalation)
                 VALUES ($1, $2, $3, $4, 'queued', 0, $5, 'escalation', $6, $7, $8) ON CONFLICT (reminder_id, occurrence_at) DO NOTHING",
            )
            .bind(id)
            .bind(p.id)
            .bind(p.row.user_id)
            .bind(to_millis(entry.occurrence_at) + k as i64 + 1)
            .bind(to_millis(now))
            .bind(to_millis(occurrence))
            .bind(p.for_users.as_ref().map(serde_json::to_string).transpose()?)
            .bind(serde_json::to_string(step)?)
            .execute(&mut *conn)
            .await?;
            made.entry(log_id).or_insert_with(Vec::new).push(id);
        }
    }
    Ok(made)
}

/// Decides who of each claimed ring's people it is held for ([`quiet::holds`]), at the
/// ring's own instant. Held for everyone, its entry waits (`held`); merged for everyone into
/// rings held already, it is not logged at all.
async fn hold_for_quiet_hours(conn: &mut sqlx::AnyConnection, planned: &mut [Planned<'_>], recipients: &[Vec<UserId>]) -> Result<()> {
    let people: Vec<UserId> = planned
        .iter()
        .zip(recipients)
        .filter(|(p, _)| ring::may_be_held(&p.plan, p.row))
        .flat_map(|(_, to)| to.iter().copied())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    if people.is_empty() {
        return Ok(());
    }
    let quiet = quiet_hours_of(conn, &people).await?;
    if quiet.is_empty() {
        return Ok(());
    }
    let reminders: Vec<ReminderId> = planned.iter().map(|p| p.id).collect::<HashSet<_>>().into_iter().collect();
    let mut held = held_now(conn, &reminders).await?;
    for (p, to) in planned.iter_mut().zip(recipients) {
        if !ring::may_be_held(&p.plan, p.row) {
            continue;
        }
        let entry = p.plan.entry.expect("may be held: it rings");
        let occurrence = to_millis(entry.occurrence_of.unwrap_or(entry.occurrence_at));
        let (holds, entry) = ring::hold(
            entry,
            p.row,
            to,
            |person, at| quiet.get(person).and_then(|(hours, zone)| hours.holds_until(zone, at)),
            |person| held.get(&(p.id, *person, occurrence)).copied(),
        );
        // A later ring of the same occurrence in this chunk merges into this one's hold.
        for (person, hold) in &holds {
            held.entry((p.id, *person, occurrence)).or_insert(hold.until());
        }
        p.holds = holds;
        p.plan.entry = entry;
    }
    Ok(())
}
