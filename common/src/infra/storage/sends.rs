//! The push worker's statements, each for many delivery log entries at once: a job carries a
//! chunk of a second's entries, and a burst is a few statements per chunk, not several per push.
//!
//! Entries are found by id. `COALESCE(status, '') = 'queued'` keeps PostgreSQL from reaching
//! them through the index on `status` instead: right after a burst its statistics still say
//! few entries are queued, and it would scan all 100,000 of them for each chunk (measured:
//! seconds per statement).

use std::collections::{HashMap, HashSet};

use jiff::{SignedDuration, Timestamp};
use sqlx::{AssertSqlSafe, Row};

use super::holds::HoldState;
use super::reminders::open_json;
use super::subscriptions::SubscriptionKeys;
use super::{Db, placeholders, value_rows};
use crate::Result;
use crate::domain::ids::{LogId, ReminderId, SubscriptionId, UserId};
use crate::domain::lists;
use crate::domain::states::{DeviceDeliveryStatus, EntryKind, EntryStatus, Language};
use crate::domain::time::{from_millis, to_millis};
use crate::infra::crypto::Keys;

/// A send "in flight" longer than this belongs to a dead worker and may be taken over.
pub const STALE_SEND: SignedDuration = SignedDuration::from_secs(60);

/// Rows per statement (SQLite and PostgreSQL both take this many parameters comfortably).
const ROWS: usize = 500;

/// A delivery log entry still to be pushed, with what its notification says.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub log_id: LogId,
    pub reminder_id: ReminderId,
    pub kind: EntryKind,
    pub user_id: UserId,
    pub occurrence_at: Timestamp,
    pub late: bool,
    /// None when the reminder was deleted since it fell due.
    pub content: Option<OutgoingContent>,
    /// An escalation entry's step.
    pub escalation: Option<crate::domain::alarms::EscalationStep>,
}

#[derive(Debug, Clone)]
pub struct OutgoingContent {
    pub title: String,
    pub description: Option<String>,
    /// The devices the reminder goes to; empty or None: all of each recipient's (a
    /// recipient none of whose devices it names gets it on all of theirs).
    pub send_to: Option<Vec<SubscriptionId>>,
    /// Who it rings for now, each under their own settings (decisions.md "Households"):
    /// not those it is held for until their quiet hours end.
    pub recipients: Vec<Recipient>,
    /// The people it was held for and is released to: it goes to them at that instant,
    /// marked held.
    pub released: HashMap<UserId, Timestamp>,
}

/// One person an entry rings for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipient {
    pub user_id: UserId,
    pub language: Language,
    pub hide_content: bool,
    /// Their zone: a held ring says in it when it was due.
    pub timezone: crate::domain::zone::Zone,
}

/// What a `done` message says and where it goes.
#[derive(Debug, Clone)]
pub struct DoneMessage {
    pub reminder_id: ReminderId,
    pub title: String,
    /// Who completed it: their address.
    pub by: String,
    /// The others' devices that got a ring of the occurrence, with their owners' settings.
    pub targets: Vec<(SubscriptionKeys, Recipient)>,
}

/// The answer for one (entry, device): `sent`, `failed` or `gone`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceResult {
    pub log_id: LogId,
    pub subscription_id: SubscriptionId,
    pub status: DeviceDeliveryStatus,
    pub response: Option<u16>,
    pub at: Timestamp,
}

/// An entry closed by [`Db::settle_deliveries`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    pub log_id: LogId,
    pub status: EntryStatus,
    pub kind: EntryKind,
    pub occurrence_at: Timestamp,
    pub sent_at: Option<Timestamp>,
}

impl Db {
    /// The entries among `log_ids` that are still `queued`, with their reminders' contents
    /// opened and who each rings for ([`lists::recipients`]) with their notification settings.
    pub async fn outgoing(&self, keys: &Keys, log_ids: &[LogId]) -> Result<Vec<Outgoing>> {
        let mut out = Vec::with_capacity(log_ids.len());
        for chunk in log_ids.chunks(ROWS) {
            let sql = format!(
                "SELECT l.id, l.reminder_id, l.user_id, l.occurrence_at, l.late, l.kind, l.for_users, l.escalation, r.id AS found, r.title, r.description,
                     r.send_to, r.list_id, r.assignees
                 FROM delivery_logs l
                 LEFT JOIN reminders r ON r.id = l.reminder_id AND r.user_id = l.user_id
                 WHERE COALESCE(l.status, '') = 'queued' AND l.id IN ({})",
                placeholders(1, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                query = query.bind(id);
            }
            let rows = query.fetch_all(&self.pool).await?;
            let list_ids: Vec<String> = rows
                .iter()
                .filter_map(|r| r.try_get::<Option<String>, _>("list_id").ok().flatten())
                .collect::<HashSet<_>>()
                .into_iter()
                .collect();
            let members = self.list_people(&list_ids).await?;
            let repeats: Vec<ReminderId> = rows
                .iter()
                .filter(|r| r.try_get::<String, _>("kind").is_ok_and(|k| k == EntryKind::Repeat.as_str()))
                .filter_map(|r| r.try_get("reminder_id").ok())
                .collect();
            let snoozing = self.snoozing(&repeats).await?;
            let ids: Vec<LogId> = rows.iter().filter_map(|r| r.try_get("id").ok()).collect();
            let holds = self.holds_of(&ids).await?;
            for row in rows {
                let reminder_id: ReminderId = row.try_get("reminder_id")?;
                let user_id: UserId = row.try_get("user_id")?;
                let content = match row.try_get::<Option<String>, _>("found")? {
                    Some(_) => {
                        let title: Vec<u8> = row.try_get("title")?;
                        let description: Option<Vec<u8>> = row.try_get("description")?;
                        let named: Option<Vec<UserId>> = open_list(row.try_get("for_users")?)?;
                        let assignees: Vec<UserId> = open_list(Some(row.try_get("assignees")?))?.unwrap_or_default();
                        // Every reminder is in a list (migration 0010 put the older ones in their owner's).
                        let list: Option<String> = row.try_get("list_id")?;
                        let people: &[Recipient] = list.and_then(|l| members.get(&l)).map(Vec::as_slice).unwrap_or_default();
                        let ids: Vec<UserId> = people.iter().map(|p| p.user_id).collect();
                        let snoozed = snoozing.get(&reminder_id).map(Vec::as_slice).unwrap_or_default();
                        let to = lists::recipients(&ids, &assignees, named.as_deref(), snoozed);
                        let log_id: LogId = row.try_get("id")?;
                        let mut released = HashMap::new();
                        let to: Vec<UserId> = to
                            .into_iter()
                            .filter(|person| match holds.get(&(log_id, *person)) {
                                None => true,
                                Some(HoldState::Waiting) => false,
                                Some(HoldState::Released(at)) => {
                                    released.insert(*person, *at);
                                    true
                                }
                            })
                            .collect();
                        Some(OutgoingContent {
                            title: keys.open_string(&format!("{reminder_id}/title"), &title)?,
                            description: description.map(|d| keys.open_string(&format!("{reminder_id}/description"), &d)).transpose()?,
                            send_to: open_json(keys, &format!("{reminder_id}/send_to"), row.try_get("send_to")?)?,
                            recipients: people.iter().filter(|p| to.contains(&p.user_id)).cloned().collect(),
                            released,
                        })
                    }
                    None => None,
                };
                out.push(Outgoing {
                    log_id: row.try_get("id")?,
                    kind: EntryKind::parse(&row.try_get::<String, _>("kind")?).unwrap_or(EntryKind::Occurrence),
                    user_id,
                    occurrence_at: from_millis(row.try_get("occurrence_at")?),
                    late: row.try_get::<i64, _>("late")? != 0,
                    reminder_id,
                    content,
                    escalation: row.try_get::<Option<String>, _>("escalation")?.and_then(|s| serde_json::from_str(&s).ok()),
                });
            }
        }
        Ok(out)
    }

    /// One person's notification settings (None: the account is gone).
    pub async fn recipient(&self, user_id: &UserId) -> Result<Option<Recipient>> {
        let row = sqlx::query("SELECT id AS user_id, language, hide_notification_content, timezone FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(recipient_of).transpose()
    }

    /// The members of each list with their notification settings, in the order they joined.
    async fn list_people(&self, list_ids: &[String]) -> Result<HashMap<String, Vec<Recipient>>> {
        let mut people: HashMap<String, Vec<Recipient>> = HashMap::new();
        for chunk in list_ids.chunks(ROWS) {
            let sql = format!(
                "SELECT m.list_id, m.user_id, u.language, u.hide_notification_content, u.timezone FROM list_members m JOIN users u ON u.id = m.user_id
                 WHERE m.list_id IN ({}) ORDER BY m.joined_at, m.user_id",
                placeholders(1, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                query = query.bind(id);
            }
            for row in query.fetch_all(&self.pool).await? {
                people.entry(row.try_get("list_id")?).or_default().push(recipient_of(&row)?);
            }
        }
        Ok(people)
    }

    /// Who has a snooze pending on each reminder (their repeats are left out for them).
    async fn snoozing(&self, reminder_ids: &[ReminderId]) -> Result<HashMap<ReminderId, Vec<UserId>>> {
        let mut snoozing = HashMap::new();
        for chunk in reminder_ids.chunks(ROWS) {
            let sql = format!(
                "SELECT reminder_id, for_users FROM fires WHERE kind = 'snooze' AND for_users IS NOT NULL AND reminder_id IN ({})",
                placeholders(1, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                query = query.bind(id);
            }
            for row in query.fetch_all(&self.pool).await? {
                let people = super::fires::parse_snoozed_for(&row.try_get::<String, _>("for_users")?)?;
                snoozing.insert(row.try_get("reminder_id")?, people.into_keys().collect());
            }
        }
        Ok(snoozing)
    }

    /// The `done` message for an occurrence that `by` completed from entry `log_id` (None
    /// when the entry or its reminder is gone).
    pub async fn done_message(&self, keys: &Keys, log_id: &LogId, by: &UserId) -> Result<Option<DoneMessage>> {
        let Some(row) = sqlx::query(
            "SELECT l.reminder_id, COALESCE(l.occurrence_of, l.occurrence_at) AS occurrence, r.title, u.email FROM delivery_logs l
             JOIN reminders r ON r.id = l.reminder_id JOIN users u ON u.id = $2 WHERE l.id = $1",
        )
        .bind(log_id)
        .bind(by)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let reminder_id: ReminderId = row.try_get("reminder_id")?;
        let occurrence: i64 = row.try_get("occurrence")?;
        let devices = sqlx::query(
            "SELECT DISTINCT s.id, s.endpoint, s.p256dh, s.auth, u.id AS user_id, u.language, u.hide_notification_content, u.timezone
             FROM deliveries d JOIN delivery_logs l ON l.id = d.log_id JOIN push_subscriptions s ON s.id = d.subscription_id
             JOIN users u ON u.id = s.user_id
             WHERE l.reminder_id = $1 AND COALESCE(l.occurrence_of, l.occurrence_at) = $2 AND d.status = 'sent' AND s.user_id <> $3
             ORDER BY s.id",
        )
        .bind(reminder_id)
        .bind(occurrence)
        .bind(by)
        .fetch_all(&self.pool)
        .await?;
        let targets = devices
            .iter()
            .map(|r| {
                let keys = SubscriptionKeys {
                    id: r.try_get("id")?,
                    endpoint: r.try_get("endpoint")?,
                    p256dh: r.try_get("p256dh")?,
                    auth: r.try_get("auth")?,
                };
                Ok((keys, recipient_of(r)?))
            })
            .collect::<Result<Vec<_>>>()?;
        let title: Vec<u8> = row.try_get("title")?;
        Ok(Some(DoneMessage {
            title: keys.open_string(&format!("{reminder_id}/title"), &title)?,
            by: row.try_get("email")?,
            reminder_id,
            targets,
        }))
    }

    /// The newest delivery log entry of a reminder.
    pub async fn latest_entry(&self, reminder_id: &ReminderId) -> Result<Option<LogId>> {
        Ok(sqlx::query_scalar("SELECT id FROM delivery_logs WHERE reminder_id = $1 ORDER BY occurrence_at DESC, created_at DESC LIMIT 1")
            .bind(reminder_id)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Each user's overdue reminders at `at` (one-time, fired, no action yet): the app badge.
    pub async fn overdue_counts(&self, user_ids: &[UserId], at: Timestamp) -> Result<HashMap<UserId, u32>> {
        let mut counts = HashMap::new();
        for chunk in user_ids.chunks(ROWS) {
            let sql = format!(
                "SELECT m.user_id, COUNT(*) AS n FROM list_members m JOIN reminders r ON r.list_id = m.list_id
                 WHERE r.is_active = 1 AND r.recurrence = '{{\"kind\":\"none\"}}' AND r.scheduled_at <= $1
                   AND NOT EXISTS (SELECT 1 FROM fires f WHERE f.reminder_id = r.id AND f.kind IN ('occurrence', 'snooze')) AND m.user_id IN ({})
                 GROUP BY m.user_id",
                placeholders(2, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(to_millis(at));
            for id in chunk {
                query = query.bind(id);
            }
            for row in query.fetch_all(&self.pool).await? {
                counts.insert(row.try_get("user_id")?, u32::try_from(row.try_get::<i64, _>("n")?).unwrap_or(u32::MAX));
            }
        }
        Ok(counts)
    }

    /// The devices of each user, oldest first.
    pub async fn devices_of(&self, user_ids: &[UserId]) -> Result<HashMap<UserId, Vec<SubscriptionKeys>>> {
        let mut devices: HashMap<UserId, Vec<SubscriptionKeys>> = HashMap::new();
        for chunk in user_ids.chunks(ROWS) {
            let sql = format!(
                "SELECT id, user_id, endpoint, p256dh, auth FROM push_subscriptions WHERE user_id IN ({}) ORDER BY created_at, id",
                placeholders(1, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                query = query.bind(id);
            }
            for r in query.fetch_all(&self.pool).await? {
                devices.entry(r.try_get("user_id")?).or_default().push(SubscriptionKeys {
                    id: r.try_get("id")?,
                    endpoint: r.try_get("endpoint")?,
                    p256dh: r.try_get("p256dh")?,
                    auth: r.try_get("auth")?,
                });
            }
        }
        Ok(devices)
    }

    /// Takes (entry, device) pairs for sending; answers the pairs taken. A pair is not taken
    /// when it was sent already or another worker is sending it now; a send that has been "in
    /// flight" for longer than `stale` (its worker died) is taken over.
    ///
    /// Each pair comes with its entry's second: a claim made ahead counts from that second, as
    /// the worker holds the push until then.
    pub async fn claim_devices(
        &self,
        pairs: &[(LogId, SubscriptionId, UserId, Timestamp)],
        now: Timestamp,
        stale: SignedDuration,
    ) -> Result<HashSet<(LogId, SubscriptionId)>> {
        let now_ms = to_millis(now);
        // One statement may not touch a row twice (PostgreSQL refuses).
        let mut seen = HashSet::new();
        let unique: Vec<&(LogId, SubscriptionId, UserId, Timestamp)> = pairs.iter().filter(|(l, s, ..)| seen.insert((l, s))).collect();
        let mut taken = HashSet::new();
        for chunk in unique.chunks(ROWS) {
            let sql = format!(
                "INSERT INTO deliveries (log_id, subscription_id, user_id, status, attempts, updated_at) VALUES {}
                 ON CONFLICT (log_id, subscription_id) DO UPDATE SET status = 'sending', attempts = deliveries.attempts + 1, updated_at = excluded.updated_at
                 WHERE deliveries.status = 'retry' OR (deliveries.status = 'sending' AND deliveries.updated_at < $1)
                 RETURNING log_id, subscription_id",
                value_rows(2, chunk.len(), 4, |c, p| match c {
                    2 => format!("{p}, 'sending', 1"),
                    3 => format!("CAST({p} AS BIGINT)"),
                    _ => p,
                })
            );
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(now_ms - stale.as_millis() as i64);
            for (log_id, subscription_id, user_id, second) in chunk {
                query = query.bind(log_id).bind(subscription_id).bind(user_id).bind(to_millis(*second).max(now_ms));
            }
            for row in query.fetch_all(&self.pool).await? {
                taken.insert((row.try_get("log_id")?, row.try_get("subscription_id")?));
            }
        }
        Ok(taken)
    }

    /// Records the answers of sends claimed with [`Db::claim_devices`].
    pub async fn record_device_results(&self, results: &[DeviceResult]) -> Result<()> {
        for chunk in results.chunks(ROWS) {
            let sql = format!(
                "UPDATE deliveries SET status = v.column3, response_status = CAST(v.column4 AS BIGINT), updated_at = CAST(v.column5 AS BIGINT),
                     sent_at = CASE WHEN v.column3 = 'sent' THEN CAST(v.column5 AS BIGINT) ELSE deliveries.sent_at END
                 FROM (VALUES {}) AS v WHERE deliveries.log_id = v.column1 AND deliveries.subscription_id = v.column2",
                value_rows(1, chunk.len(), 5, |_, p| p)
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for r in chunk {
                query = query
                    .bind(r.log_id)
                    .bind(r.subscription_id)
                    .bind(r.status.as_str())
                    .bind(r.response.map(i64::from))
                    .bind(to_millis(r.at));
            }
            query.execute(&self.pool).await?;
        }
        Ok(())
    }

    /// Closes each entry still `queued` whose devices are all done: `sent` when some device
    /// got it (with the first answer's time), else `failed`. An entry with a device still in
    /// flight stays open: the worker sending that device closes it. Answers the entries closed.
    pub async fn settle_deliveries(&self, log_ids: &[LogId]) -> Result<Vec<Settled>> {
        let mut settled = Vec::new();
        for chunk in log_ids.chunks(ROWS) {
            let sql = format!(
                "UPDATE delivery_logs SET
                     status = CASE WHEN EXISTS (SELECT 1 FROM deliveries d WHERE d.log_id = delivery_logs.id AND d.shown_at IS NOT NULL) THEN 'shown'
                         WHEN EXISTS (SELECT 1 FROM deliveries d WHERE d.log_id = delivery_logs.id AND d.status = 'sent') THEN 'sent' ELSE 'failed' END,
                     sent_at = COALESCE((SELECT MIN(d.sent_at) FROM deliveries d WHERE d.log_id = delivery_logs.id AND d.status = 'sent'), sent_at)
                 WHERE COALESCE(status, '') = 'queued' AND id IN ({})
                     AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.log_id = delivery_logs.id AND d.status = 'sending')
                 RETURNING id, status, kind, occurrence_at, sent_at",
                placeholders(1, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                query = query.bind(id);
            }
            for row in query.fetch_all(&self.pool).await? {
                settled.push(Settled {
                    log_id: row.try_get("id")?,
                    status: EntryStatus::parse(&row.try_get::<String, _>("status")?).unwrap_or(EntryStatus::Failed),
                    kind: EntryKind::parse(&row.try_get::<String, _>("kind")?).unwrap_or(EntryKind::Occurrence),
                    occurrence_at: from_millis(row.try_get("occurrence_at")?),
                    sent_at: row.try_get::<Option<i64>, _>("sent_at")?.map(from_millis),
                });
            }
        }
        Ok(settled)
    }

    /// Closes entries still `queued` that have nothing to send: `cancelled` (the reminder is
    /// gone) or `no_devices`.
    pub async fn close_deliveries(&self, log_ids: &[LogId], status: EntryStatus) -> Result<()> {
        for chunk in log_ids.chunks(ROWS) {
            let sql = format!(
                "UPDATE delivery_logs SET status = $1 WHERE COALESCE(status, '') = 'queued' AND id IN ({})",
                placeholders(2, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(status.as_str());
            for id in chunk {
                query = query.bind(id);
            }
            query.execute(&self.pool).await?;
        }
        Ok(())
    }

    /// Devices that received a push (their last success feeds the 180-day rule and the health
    /// view).
    pub async fn devices_succeeded(&self, ids: &[SubscriptionId], now: Timestamp) -> Result<()> {
        for chunk in ids.chunks(ROWS) {
            let sql = format!("UPDATE push_subscriptions SET last_success_at = $1 WHERE id IN ({})", placeholders(2, chunk.len()));
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(to_millis(now));
            for id in chunk {
                query = query.bind(id);
            }
            query.execute(&self.pool).await?;
        }
        Ok(())
    }
}

fn recipient_of(row: &sqlx::any::AnyRow) -> Result<Recipient> {
    Ok(Recipient {
        user_id: row.try_get("user_id")?,
        language: Language::parse(&row.try_get::<String, _>("language")?).unwrap_or(Language::En),
        hide_content: row.try_get::<Option<i64>, _>("hide_notification_content")?.unwrap_or(0) != 0,
        timezone: row.try_get("timezone")?,
    })
}

/// A stored JSON list of user ids.
fn open_list(stored: Option<String>) -> Result<Option<Vec<UserId>>> {
    stored.map(|s| serde_json::from_str(&s).map_err(|_| crate::Error::Corrupt("user id list".into()))).transpose()
}
