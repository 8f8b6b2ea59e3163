//! Fires: what the scheduler owes, at most one pending fire of each kind per reminder. This
//! module is the only writer of the `fires` table: [`apply_plans`] carries out the plans of
//! [`crate::domain::lifecycle`], [`take_due`] claims (deleting a row is claiming it, so two
//! schedulers can never both fire it), and [`forget`] drops the fires of reminders that go.

use std::collections::{HashMap, HashSet};

use jiff::Timestamp;
use sqlx::{AnyConnection, AssertSqlSafe, Row};

use super::{Db, placeholders, value_rows};
use crate::domain::ids::{LogId, ReminderId, UserId};
use crate::domain::lifecycle::{FireChange, Plan, PlannedEntry, PlannedFire};
use crate::domain::ring::TakenFire;
use crate::domain::states::{EntryKind, EntryStatus, FireKind};
use crate::domain::time::{from_millis, to_millis};
use crate::{Error, Result};

/// Rows per multi-row statement (four parameters each).
const ROWS_PER_STATEMENT: usize = 250;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fire {
    pub reminder_id: ReminderId,
    pub kind: FireKind,
    pub fire_at: Timestamp,
}

/// A plan for one reminder.
pub(super) struct PlanFor<'a> {
    pub reminder_id: &'a ReminderId,
    pub user_id: &'a UserId,
    pub plan: &'a Plan,
    /// Who acted, when a person's act made the plan: a snooze it puts is theirs.
    pub actor: Option<&'a UserId>,
    /// The people the plan's entry is for (a personal snooze, a rotation's turn); None:
    /// everyone the reminder rings for.
    pub for_users: Option<&'a [UserId]>,
    /// Who the entry rings for: each of them with the email fallback on gets a pending one.
    pub fallback_to: &'a [UserId],
}

impl<'a> PlanFor<'a> {
    pub fn new(reminder_id: &'a ReminderId, user_id: &'a UserId, plan: &'a Plan) -> PlanFor<'a> {
        PlanFor { reminder_id, user_id, plan, actor: None, for_users: None, fallback_to: &[] }
    }
}

// Who a pending snooze rings for, each at their own instant (Unix ms): one row per reminder,
// due at the earliest. NULL in the table (a snooze from before sharing): everyone.
pub(super) use crate::domain::ring::SnoozedFor;

/// What applying a plan did.
#[derive(Debug, Clone, Default)]
pub(super) struct Outcome {
    /// The entry, when it was logged (not there already).
    pub logged: Option<LogId>,
    /// The occurrence fire the plan put or moved took effect (an edit's fire set meanwhile
    /// wins over a claim's).
    pub occurrence_set: bool,
}

/// Applies plans in the caller's transaction, in one pass of multi-row statements (a claim
/// applies up to a thousand): archives, entries, then each plan's drops and moves, then its
/// puts. A reminder's `scheduled_at` follows the occurrence fire its plan sets. Answers an
/// outcome per plan, in order. The caller announces the change once it commits.
pub(super) async fn apply_plans(conn: &mut AnyConnection, plans: &[PlanFor<'_>], now: Timestamp) -> Result<Vec<Outcome>> {
    let mut outcomes = vec![Outcome::default(); plans.len()];
    for p in plans.iter().filter(|p| p.plan.archive) {
        sqlx::query("UPDATE reminders SET is_active = 0, is_archived = 1, archived_at = $2, updated_at = $2 WHERE id = $1")
            .bind(p.reminder_id)
            .bind(to_millis(now))
            .execute(&mut *conn)
            .await?;
    }
    log_entries(conn, plans, now, &mut outcomes).await?;

    for (i, p) in plans.iter().enumerate() {
        for change in &p.plan.fires {
            match *change {
                FireChange::DropAll => {
                    sqlx::query("DELETE FROM fires WHERE reminder_id = $1").bind(p.reminder_id).execute(&mut *conn).await?;
                }
                FireChange::Drop(kind) => {
                    sqlx::query("DELETE FROM fires WHERE reminder_id = $1 AND kind = $2")
                        .bind(p.reminder_id)
                        .bind(kind.as_str())
                        .execute(&mut *conn)
                        .await?;
                }
                FireChange::DropFor { kind, occurrence_at } => {
                    sqlx::query("DELETE FROM fires WHERE reminder_id = $1 AND kind = $2 AND occurrence_at = $3")
                        .bind(p.reminder_id)
                        .bind(kind.as_str())
                        .bind(to_millis(occurrence_at))
                        .execute(&mut *conn)
                        .await?;
                }
                FireChange::MoveOccurrence { from, to } => {
                    let moved = sqlx::query(
                        "UPDATE fires SET fire_at = $3, occurrence_at = $3 WHERE reminder_id = $1 AND kind = 'occurrence' AND fire_at = $2",
                    )
                    .bind(p.reminder_id)
                    .bind(to_millis(from))
                    .bind(to_millis(to))
                    .execute(&mut *conn)
                    .await?
                    .rows_affected();
                    outcomes[i].occurrence_set |= moved > 0;
                }
                FireChange::Put(_) | FireChange::PutIfAbsent(_) => {}
            }
        }
    }

    // Puts that replace: the last of a reminder's kind wins (one statement cannot upsert a
    // row twice).
    let mut replacing: HashMap<(&ReminderId, FireKind), (usize, PlannedFire)> = HashMap::new();
    for (i, p) in plans.iter().enumerate() {
        for change in &p.plan.fires {
            match (change, p.actor) {
                // A person's snooze joins the others' pending snoozes of the reminder.
                (FireChange::Put(f), Some(actor)) if f.kind == FireKind::Snooze => {
                    let mut people = snoozed_for(conn, p.reminder_id).await?.unwrap_or_default();
                    people.insert(*actor, to_millis(f.fire_at));
                    put_snoozes(conn, p.reminder_id, &people).await?;
                }
                (FireChange::Put(f), _) => {
                    replacing.insert((p.reminder_id, f.kind), (i, *f));
                }
                _ => {}
            }
        }
    }
    let replacing: Vec<(&ReminderId, usize, PlannedFire)> = replacing.into_iter().map(|((id, _), (i, f))| (id, i, f)).collect();
    for chunk in replacing.chunks(ROWS_PER_STATEMENT) {
        insert_fires(
            conn,
            chunk.iter().map(|(id, _, f)| (*id, f)),
            "DO UPDATE SET fire_at = excluded.fire_at, occurrence_at = excluded.occurrence_at, for_users = NULL",
        )
        .await?;
    }
    for (_, i, f) in &replacing {
        outcomes[*i].occurrence_set |= f.kind == FireKind::Occurrence;
    }

    let keeping: Vec<(&ReminderId, usize, PlannedFire)> = plans
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            p.plan.fires.iter().filter_map(move |c| match c {
                FireChange::PutIfAbsent(f) => Some((p.reminder_id, i, *f)),
                _ => None,
            })
        })
        .collect();
    let mut inserted: HashSet<(ReminderId, FireKind)> = HashSet::new();
    for chunk in keeping.chunks(ROWS_PER_STATEMENT) {
        inserted.extend(insert_fires(conn, chunk.iter().map(|(id, _, f)| (*id, f)), "DO NOTHING").await?);
    }
    for (id, i, f) in &keeping {
        if f.kind == FireKind::Occurrence && inserted.contains(&(*(*id), FireKind::Occurrence)) {
            outcomes[*i].occurrence_set = true;
        }
    }

    // `scheduled_at` follows the occurrence fire that was set.
    let scheduled: Vec<(&ReminderId, i64)> = plans
        .iter()
        .zip(&outcomes)
        .filter(|(_, o)| o.occurrence_set)
        .filter_map(|(p, _)| Some((p.reminder_id, to_millis(p.plan.next_occurrence()?))))
        .collect();
    for chunk in scheduled.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "UPDATE reminders SET scheduled_at = CAST(v.column2 AS BIGINT) FROM (VALUES {}) AS v WHERE reminders.id = v.column1",
            value_rows(1, chunk.len(), 2, |_, p| p)
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for (id, at) in chunk {
            query = query.bind(*id).bind(*at);
        }
        query.execute(&mut *conn).await?;
    }
    Ok(outcomes)
}

/// Inserts fires with this conflict rule; answers those written.
async fn insert_fires<'a>(
    conn: &mut AnyConnection,
    fires: impl Iterator<Item = (&'a ReminderId, &'a PlannedFire)>,
    on_conflict: &str,
) -> Result<Vec<(ReminderId, FireKind)>> {
    let fires: Vec<_> = fires.collect();
    if fires.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "INSERT INTO fires (reminder_id, kind, fire_at, occurrence_at) VALUES {} ON CONFLICT (reminder_id, kind) {on_conflict} RETURNING reminder_id, kind",
        value_rows(1, fires.len(), 4, |c, p| if c >= 2 { format!("CAST({p} AS BIGINT)") } else { p })
    );
    let mut query = sqlx::query(AssertSqlSafe(sql));
    for (id, f) in &fires {
        query = query.bind(*id).bind(f.kind.as_str()).bind(to_millis(f.fire_at)).bind(to_millis(f.occurrence_at));
    }
    query
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| {
            let kind: String = row.try_get("kind")?;
            let kind = FireKind::parse(&kind).ok_or_else(|| Error::Corrupt(format!("fire kind {kind:?}")))?;
            Ok((row.try_get("reminder_id")?, kind))
        })
        .collect()
}

/// Puts each reminder's `held` fire at the instant given, or keeps it where it is when that is
/// earlier: it is due at the first end of quiet hours among the rings it holds. Answers when
/// each is due now (the scheduler puts them in its wheel from the answer: a notice per held
/// reminder would cost PostgreSQL a round trip each in a burst).
pub(super) async fn put_held(conn: &mut AnyConnection, fires: &[(ReminderId, Timestamp)]) -> Result<HashMap<ReminderId, Timestamp>> {
    // One statement may not upsert a row twice: the earliest per reminder.
    let mut earliest: HashMap<ReminderId, Timestamp> = HashMap::new();
    for (id, at) in fires {
        earliest.entry(*id).and_modify(|e| *e = (*e).min(*at)).or_insert(*at);
    }
    let fires: Vec<(ReminderId, Timestamp)> = earliest.into_iter().collect();
    let mut due = HashMap::new();
    for chunk in fires.chunks(ROWS_PER_STATEMENT) {
        let sql = format!(
            "INSERT INTO fires (reminder_id, kind, fire_at, occurrence_at) VALUES {}
             ON CONFLICT (reminder_id, kind) DO UPDATE SET
                 fire_at = CASE WHEN excluded.fire_at < fires.fire_at THEN excluded.fire_at ELSE fires.fire_at END,
                 occurrence_at = CASE WHEN excluded.fire_at < fires.fire_at THEN excluded.fire_at ELSE fires.fire_at END
             RETURNING reminder_id, fire_at",
            value_rows(1, chunk.len(), 3, |c, p| match c {
                0 => format!("{p}, 'held'"),
                _ => format!("CAST({p} AS BIGINT)"),
            })
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for (id, at) in chunk {
            query = query.bind(*id).bind(to_millis(*at)).bind(to_millis(*at));
        }
        for row in query.fetch_all(&mut *conn).await? {
            due.insert(row.try_get("reminder_id")?, from_millis(row.try_get("fire_at")?));
        }
    }
    Ok(due)
}

/// Reads a snooze fire's stored people.
pub(super) fn parse_snoozed_for(stored: &str) -> Result<SnoozedFor> {
    serde_json::from_str(stored).map_err(|_| Error::Corrupt("snooze people".into()))
}

/// The people of the reminder's pending snooze (None: no snooze, or one for everyone).
pub(super) async fn snoozed_for(conn: &mut AnyConnection, reminder_id: &ReminderId) -> Result<Option<SnoozedFor>> {
    let stored: Option<Option<String>> = sqlx::query_scalar("SELECT for_users FROM fires WHERE reminder_id = $1 AND kind = 'snooze'")
        .bind(reminder_id)
        .fetch_optional(&mut *conn)
        .await?;
    stored.flatten().as_deref().map(parse_snoozed_for).transpose()
}

/// Sets the reminder's snooze fire to ring each person at their instant: due at the earliest
/// (none left: no snooze).
pub(super) async fn put_snoozes(conn: &mut AnyConnection, reminder_id: &ReminderId, people: &SnoozedFor) -> Result<()> {
    let Some(&first) = people.values().min() else {
        sqlx::query("DELETE FROM fires WHERE reminder_id = $1 AND kind = 'snooze'").bind(reminder_id).execute(&mut *conn).await?;
        return Ok(());
    };
    sqlx::query(
        "INSERT INTO fires (reminder_id, kind, fire_at, occurrence_at, for_users) VALUES ($1, 'snooze', $2, $2, $3)
         ON CONFLICT (reminder_id, kind) DO UPDATE SET fire_at = excluded.fire_at, occurrence_at = excluded.occurrence_at, for_users = excluded.for_users",
    )
    .bind(reminder_id)
    .bind(first)
    .bind(serde_json::to_string(people)?)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Logs the plans' entries (an entry already logged for the same occurrence stays, and this
/// one is not). An occurrence to deliver carries its user's email fallback delay (see
/// fallback.rs); its alerts, repeats and snoozes never do: one email per occurrence at most.
async fn log_entries(conn: &mut AnyConnection, plans: &[PlanFor<'_>], now: Timestamp, outcomes: &mut [Outcome]) -> Result<()> {
    let entries: Vec<(usize, LogId, PlannedEntry)> =
        plans.iter().enumerate().filter_map(|(i, p)| Some((i, LogId::generate(), p.plan.entry?))).collect();
    for chunk in entries.chunks(super::claims::CLAIM_CHUNK) {
        let sql = format!(
            "INSERT INTO delivery_logs (id, reminder_id, user_id, occurrence_at, status, late, created_at, kind, occurrence_of, for_users) VALUES {}
             ON CONFLICT (reminder_id, occurrence_at) DO NOTHING RETURNING id",
            value_rows(1, chunk.len(), 10, |c, p| if c == 8 { format!("CAST({p} AS BIGINT)") } else { p })
        );
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for (i, log_id, e) in chunk {
            let p = &plans[*i];
            query = query
                .bind(log_id)
                .bind(p.reminder_id)
                .bind(p.user_id)
                .bind(to_millis(e.occurrence_at))
                .bind(e.status.as_str())
                .bind(i64::from(e.late))
                .bind(to_millis(now))
                .bind(e.kind.as_str())
                .bind(e.occurrence_of.map(to_millis))
                .bind(p.for_users.map(serde_json::to_string).transpose()?);
        }
        let logged: HashSet<LogId> =
            query.fetch_all(&mut *conn).await?.iter().map(|r| r.try_get("id")).collect::<std::result::Result<_, _>>()?;
        let mut with_fallback: Vec<(&LogId, &UserId)> = Vec::new();
        for (i, log_id, e) in chunk {
            if logged.contains(log_id) {
                outcomes[*i].logged = Some(*log_id);
                if e.status != EntryStatus::Missed && e.kind == EntryKind::Occurrence {
                    with_fallback.extend(plans[*i].fallback_to.iter().map(|u| (log_id, u)));
                }
            }
        }
        // Each person's own delay, if their fallback is on.
        for pairs in with_fallback.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO fallbacks (log_id, user_id, minutes)
                 SELECT v.column1, v.column2, u.email_fallback_minutes FROM (VALUES {}) AS v JOIN users u ON u.id = v.column2
                 WHERE u.email_fallback_minutes IS NOT NULL",
                value_rows(1, pairs.len(), 2, |_, p| p)
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for (log_id, user_id) in pairs {
                query = query.bind(*log_id).bind(*user_id);
            }
            query.execute(&mut *conn).await?;
        }
    }
    Ok(())
}

/// Takes the fires of `chunk` that are still there and due by `until`: deleting each claims
/// it. Answers each fire taken.
pub(super) async fn take_due(conn: &mut AnyConnection, chunk: &[(ReminderId, FireKind)], until: Timestamp) -> Result<Vec<TakenFire>> {
    let mut taken = Vec::new();
    for &kind in FireKind::ALL {
        let ids: Vec<ReminderId> =
            chunk.iter().filter(|(_, k)| *k == kind).map(|(id, _)| *id).collect::<HashSet<_>>().into_iter().collect();
        if ids.is_empty() {
            continue;
        }
        let sql = format!(
            "DELETE FROM fires WHERE kind = $1 AND fire_at <= $2 AND reminder_id IN ({}) RETURNING reminder_id, fire_at, occurrence_at, for_users",
            placeholders(3, ids.len())
        );
        let mut query = sqlx::query(AssertSqlSafe(sql)).bind(kind.as_str()).bind(to_millis(until));
        for id in &ids {
            query = query.bind(*id);
        }
        for row in query.fetch_all(&mut *conn).await? {
            let fire = PlannedFire {
                kind,
                fire_at: from_millis(row.try_get("fire_at")?),
                occurrence_at: from_millis(row.try_get("occurrence_at")?),
            };
            let people: Option<String> = row.try_get("for_users")?;
            let people = people.as_deref().map(parse_snoozed_for).transpose()?;
            taken.push(TakenFire { reminder_id: row.try_get("reminder_id")?, fire, snoozed: people });
        }
    }
    Ok(taken)
}

/// Whose fires go with their reminders.
pub(super) enum Forget<'a> {
    /// The reminders `ids` selects (SQL binding `key` as `$1`), being deleted: a cascade of
    /// `storage/children.rs`.
    Of { ids: &'a str, key: super::children::Key<'a> },
    /// The active reminders of accounts unused since this instant (Unix ms), being archived.
    ActiveOfUnusedSince(i64),
}

/// Drops the fires of reminders that are deleted or archived in the caller's transaction.
pub(super) async fn forget(conn: &mut AnyConnection, whose: Forget<'_>) -> Result<()> {
    match whose {
        Forget::Of { ids, key } => {
            super::children::execute(conn, format!("DELETE FROM fires WHERE reminder_id IN ({ids})"), key).await?;
        }
        Forget::ActiveOfUnusedSince(cutoff) => {
            sqlx::query(
                "DELETE FROM fires WHERE reminder_id IN
                     (SELECT r.id FROM reminders r JOIN users u ON u.id = r.user_id WHERE u.last_active_at < $1 AND r.is_active = 1)",
            )
            .bind(cutoff)
            .execute(conn)
            .await?;
        }
    }
    Ok(())
}

impl Db {
    /// The reminder's pending fires (after a change notice).
    pub async fn fires_of(&self, reminder_id: &ReminderId) -> Result<Vec<Fire>> {
        let rows = sqlx::query("SELECT reminder_id, kind, fire_at FROM fires WHERE reminder_id = $1")
            .bind(reminder_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(fire_from_row).collect()
    }

    /// The reminder's pending fires as the lifecycle plans them (with the occurrence each is for).
    pub async fn pending_fires(&self, reminder_id: &ReminderId) -> Result<Vec<PlannedFire>> {
        let rows = sqlx::query("SELECT kind, fire_at, occurrence_at FROM fires WHERE reminder_id = $1")
            .bind(reminder_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                let kind: String = r.try_get("kind")?;
                Ok(PlannedFire {
                    kind: FireKind::parse(&kind).ok_or_else(|| Error::Corrupt(format!("fire kind {kind:?}")))?,
                    fire_at: from_millis(r.try_get("fire_at")?),
                    occurrence_at: from_millis(r.try_get("occurrence_at")?),
                })
            })
            .collect()
    }

    /// Every fire due before `until` (the scheduler's horizon), earliest first.
    pub async fn fires_before(&self, until: Timestamp) -> Result<Vec<Fire>> {
        let rows = sqlx::query("SELECT reminder_id, kind, fire_at FROM fires WHERE fire_at < $1 ORDER BY fire_at")
            .bind(to_millis(until))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(fire_from_row).collect()
    }
}

fn fire_from_row(r: &sqlx::any::AnyRow) -> Result<Fire> {
    let kind: String = r.try_get("kind")?;
    let kind = FireKind::parse(&kind).ok_or_else(|| Error::Corrupt(format!("fire kind {kind:?}")))?;
    Ok(Fire { reminder_id: r.try_get("reminder_id")?, kind, fire_at: from_millis(r.try_get("fire_at")?) })
}

#[cfg(test)]
mod tests {
    /// The rule this module's header states, kept: no other source writes the table.
    #[test]
    fn only_this_module_writes_fires() {
        fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("infra/storage/fires.rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for write in ["INTO fires", "UPDATE fires", "DELETE FROM fires"] {
                        if text.contains(write) {
                            found.push(format!("{}: {write}", path.display()));
                        }
                    }
                }
            }
        }
        let mut found = Vec::new();
        walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
        assert!(found.is_empty(), "fires written outside storage/fires.rs: {found:?}");
    }
}
