//! Claiming due fires, many per transaction: a burst of reminders due in one second is
//! claimed in a few statements per chunk rather than five round trips per reminder. The claim
//! takes, reads, plans and applies: what follows each claimed fire is
//! [`crate::domain::lifecycle`]'s to decide, who its ring is for [`crate::domain::ring`]'s.

use std::collections::{HashMap, HashSet};

use jiff::Timestamp;
use sqlx::{AssertSqlSafe, Row};

use super::delivery::Claimed;
use super::fires::{Outcome, PlanFor, apply_plans, put_held, put_snoozes, take_due};
use super::holds::{held_now, insert_holds, quiet_hours_of, release};
use super::{Db, placeholders};
use crate::Result;
use crate::domain::alarms::Alarms;
use crate::domain::ids::{LogId, ReminderId};
use crate::domain::quiet::Hold;
use crate::domain::reminder::Timing;
use crate::domain::ring::{self, ClaimFacts, ClaimedReminder, RingPlan, TakenFire};
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
            take_due(&mut tx, chunk, until.max(now)).await?.into_iter().partition(|t| t.fire.kind == FireKind::Held);
        if held.is_empty() && taken.is_empty() {
            tx.commit().await?;
            return Ok(HashMap::new());
        }
        // Rings held for quiet hours that end now.
        let mut answers = HashMap::new();
        let mut held_again: Vec<(ReminderId, Timestamp)> = Vec::new();
        let mut released = Vec::new();
        for TakenFire { reminder_id: id, .. } in &held {
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

        let facts = read_facts(&mut tx, &taken).await?;
        let planned = ring::plan_claims(taken, &facts, now, until.max(now));
        let applied = apply_ring_plans(&mut tx, &planned, now).await?;
        tx.commit().await?;

        // The scheduler learns of the next occurrence from the answer, of the rest by notice.
        let announce: HashSet<&ReminderId> =
            planned.iter().filter(|p| p.plan.sets_follow_up() || p.later.is_some()).map(|p| &p.reminder_id).collect();
        for id in announce {
            self.reminder_changed(id).await;
        }

        let Applied { outcomes, held_fires, escalations } = applied;
        answers.extend(planned.iter().zip(outcomes).filter_map(|(RingPlan { reminder_id: id, kind, plan, holds, .. }, outcome)| {
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

/// Reads what [`ring::plan_claims`] needs for the taken fires: their reminders, their lists'
/// people, those people's quiet hours, and (when someone has them) the rings held now.
async fn read_facts(conn: &mut sqlx::AnyConnection, taken: &[TakenFire]) -> Result<ClaimFacts> {
    let ids: Vec<ReminderId> = taken.iter().map(|t| t.reminder_id).collect::<HashSet<_>>().into_iter().collect();
    let sql = format!(
        "SELECT id, user_id, send_at, timezone, recurrence, is_active, alerts, repeat_until_done, assignees, rotate, rotation_next,
             break_through FROM reminders WHERE id IN ({})",
        placeholders(1, ids.len())
    );
    let mut query = sqlx::query(AssertSqlSafe(sql));
    for id in &ids {
        query = query.bind(*id);
    }
    let mut facts = ClaimFacts::default();
    for row in query.fetch_all(&mut *conn).await? {
        let recurrence: String = row.try_get("recurrence")?;
        let timing = Timing {
            send_at: from_millis(row.try_get("send_at")?),
            timezone: row.try_get("timezone")?,
            recurrence: serde_json::from_str(&recurrence)?,
        };
        let alarms = Alarms::from_stored(&row.try_get::<String, _>("alerts")?, row.try_get("repeat_until_done")?);
        facts.reminders.insert(
            row.try_get("id")?,
            ClaimedReminder {
                user_id: row.try_get("user_id")?,
                timing,
                alarms,
                is_active: row.try_get::<i64, _>("is_active")? != 0,
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
    for row in query.fetch_all(&mut *conn).await? {
        facts.members.entry(row.try_get("id")?).or_default().push(row.try_get("user_id")?);
    }

    facts.quiet = quiet_hours_of(conn, &facts.people()).await?;
    if !facts.quiet.is_empty() {
        facts.held = held_now(conn, &ids).await?;
    }
    Ok(facts)
}

/// What applying a chunk's ring plans did.
struct Applied {
    /// Per plan, in order.
    outcomes: Vec<Outcome>,
    /// The held fire each reminder has now, when its rings are held.
    held_fires: HashMap<ReminderId, Timestamp>,
    /// The escalation entries logged after each entry.
    escalations: HashMap<LogId, Vec<LogId>>,
}

/// Applies the ring plans in the claim's transaction: the lifecycle's plans (entries, fires,
/// pending email fallbacks for their recipients), then, for each entry logged, its people's
/// holds and held fire and its escalation entries; the snoozes put back and the turns taken.
async fn apply_ring_plans(conn: &mut sqlx::AnyConnection, planned: &[RingPlan], now: Timestamp) -> Result<Applied> {
    let plans: Vec<PlanFor<'_>> = planned
        .iter()
        .map(|p| PlanFor {
            for_users: p.for_users.as_deref(),
            fallback_to: &p.recipients,
            ..PlanFor::new(&p.reminder_id, &p.owner, &p.plan)
        })
        .collect();
    let outcomes = apply_plans(conn, &plans, now).await?;

    // What follows an entry only once it is logged: its people's holds and its escalation entries.
    let logged: Vec<(&RingPlan, LogId)> = planned.iter().zip(&outcomes).filter_map(|(p, o)| Some((p, o.logged?))).collect();
    let mut holds = Vec::new();
    let mut newly_held = Vec::new();
    for (p, log_id) in &logged {
        for &(person, hold) in &p.holds {
            holds.push((*log_id, person, hold));
            if let Hold::Held(until) = hold {
                newly_held.push((p.reminder_id, until));
            }
        }
    }
    insert_holds(conn, &holds).await?;
    let held_fires = put_held(conn, &newly_held).await?;

    let mut escalations: HashMap<LogId, Vec<LogId>> = HashMap::new();
    for (p, log_id) in &logged {
        for step in &p.escalations {
            let id = LogId::generate();
            sqlx::query(
                "INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind, occurrence_of, for_users, escalation)
                 VALUES ($1, $2, $3, $4, 'queued', 0, $5, 'escalation', $6, $7, $8) ON CONFLICT (reminder_id, occurrence_at) DO NOTHING",
            )
            .bind(id)
            .bind(p.reminder_id)
            .bind(p.owner)
            .bind(to_millis(step.occurrence_at))
            .bind(to_millis(now))
            .bind(to_millis(step.occurrence_of))
            .bind(p.for_users.as_ref().map(serde_json::to_string).transpose()?)
            .bind(serde_json::to_string(&step.step)?)
            .execute(&mut *conn)
            .await?;
            escalations.entry(*log_id).or_default().push(id);
        }
    }

    for p in planned {
        if let Some(later) = &p.later {
            put_snoozes(conn, &p.reminder_id, later).await?;
        }
    }
    let rotated: Vec<ReminderId> = planned.iter().filter(|p| p.turn_taken).map(|p| p.reminder_id).collect();
    if !rotated.is_empty() {
        let sql = format!("UPDATE reminders SET rotation_next = rotation_next + 1 WHERE id IN ({})", placeholders(1, rotated.len()));
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for id in &rotated {
            query = query.bind(*id);
        }
        query.execute(&mut *conn).await?;
    }
    Ok(Applied { outcomes, held_fires, escalations })
}
