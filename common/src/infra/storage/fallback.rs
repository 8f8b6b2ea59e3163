//! The email fallback: a delivery log entry that none of a person's devices showed within
//! their delay is emailed to them once. Each person an entry rang for has their own pending
//! fallback (a `fallbacks` row: their delay from their settings when it was made; 0 when they
//! had no device to go to), so it survives a restart; their device showing it, their own act
//! (or anyone's Complete) or the email clears it.

use jiff::{SignedDuration, Timestamp};
use sqlx::Row;

use super::{Change, Db};
use crate::Result;
use crate::domain::ids::{LogId, ReminderId, UserId};
use crate::domain::quiet::QuietHours;
use crate::domain::states::{EntryStatus, Language};
use crate::domain::time::{from_millis, to_millis};
use crate::infra::crypto::Keys;
use crate::infra::jobs::MailJob;

/// At most this many fallback emails per user in 24 hours.
pub const FALLBACKS_PER_DAY: i64 = 20;
pub const MAIL_KIND_FALLBACK: &str = "fallback";

/// What a fallback email says, read when it is sent.
#[derive(Debug, Clone)]
pub struct FallbackMail {
    pub reminder_id: ReminderId,
    pub title: String,
    pub description: Option<String>,
    pub occurrence_at: Timestamp,
    pub timezone: crate::domain::zone::Zone,
    pub language: Language,
    pub hide_content: bool,
    /// The person acted on the reminder (or deleted it) since: nothing to send.
    pub settled: bool,
}

/// What claiming a due fallback decided.
#[derive(Debug, Clone, PartialEq)]
pub enum FallbackClaim {
    /// Already taken, shown or acted on meanwhile.
    Gone,
    /// The user had their 20 fallback emails of the day.
    OverCap,
    /// Due in the person's quiet hours: it waits for their end.
    Held,
    Send(MailJob),
}

impl Db {
    /// (entry, person) pairs whose fallback is due at `now`; a fallback "minute" is `minute`
    /// long (tests shorten it).
    pub async fn due_fallbacks(&self, now: Timestamp, minute: SignedDuration, limit: i64) -> Result<Vec<(LogId, UserId)>> {
        let rows = sqlx::query(
            "SELECT f.log_id, f.user_id FROM fallbacks f JOIN delivery_logs l ON l.id = f.log_id
             WHERE f.emailed_at IS NULL AND COALESCE(f.since, l.occurrence_at) + f.minutes * $1 <= $2 ORDER BY l.occurrence_at LIMIT $3",
        )
        .bind(minute.as_millis() as i64)
        .bind(to_millis(now))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get("log_id")?, r.try_get("user_id")?))).collect()
    }

    /// When the next pending fallback falls due.
    pub async fn next_fallback(&self, minute: SignedDuration) -> Result<Option<Timestamp>> {
        let at: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(COALESCE(f.since, l.occurrence_at) + f.minutes * $1) FROM fallbacks f JOIN delivery_logs l ON l.id = f.log_id
                 WHERE f.emailed_at IS NULL",
        )
        .bind(minute.as_millis() as i64)
        .fetch_one(&self.pool)
        .await?;
        Ok(at.map(from_millis))
    }

    /// Takes a person's due fallback of an entry: at most once (their row is stamped
    /// `emailed_at`, or deleted when it is not to be sent, in the same transaction that counts
    /// it against their daily cap). Gone when one of their devices showed it, or the occurrence was
    /// completed (by anyone) or acted on by them. The caller enqueues the returned mail job.
    /// Due in the person's quiet hours (and the reminder does not break through), it waits
    /// for their end instead.
    pub async fn claim_fallback(&self, log_id: &LogId, user_id: &UserId, now: Timestamp) -> Result<FallbackClaim> {
        let quiet = sqlx::query(
            "SELECT u.timezone, u.quiet_start, u.quiet_end, r.break_through FROM fallbacks f JOIN delivery_logs l ON l.id = f.log_id
             JOIN users u ON u.id = f.user_id JOIN reminders r ON r.id = l.reminder_id
             WHERE f.log_id = $1 AND f.user_id = $2 AND u.quiet_start IS NOT NULL AND u.quiet_end IS NOT NULL",
        )
        .bind(log_id)
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?;
        if let Some(row) = quiet
            && row.try_get::<i64, _>("break_through")? == 0
        {
            let hours = QuietHours { start: row.try_get("quiet_start")?, end: row.try_get("quiet_end")? };
            let zone: crate::domain::zone::Zone = row.try_get("timezone")?;
            if let Some(end) = hours.holds_until(&zone, now) {
                sqlx::query("UPDATE fallbacks SET since = $3, minutes = 0 WHERE log_id = $1 AND user_id = $2 AND emailed_at IS NULL")
                    .bind(log_id)
                    .bind(user_id)
                    .bind(to_millis(end))
                    .execute(&self.pool)
                    .await?;
                return Ok(FallbackClaim::Held);
            }
        }
        self.take_fallback(
            log_id,
            user_id,
            now,
            "UPDATE fallbacks SET emailed_at = $3 WHERE log_id = $1 AND user_id = $2 AND emailed_at IS NULL",
        )
        .await
    }

    /// Emails a send-now that found none of the person's devices, at once and once: its row is
    /// made already taken, so the scheduler's fallback pass never races the request for it.
    pub async fn email_now(&self, log_id: &LogId, user_id: &UserId, now: Timestamp) -> Result<FallbackClaim> {
        self.take_fallback(
            log_id,
            user_id,
            now,
            "INSERT INTO fallbacks (log_id, user_id, minutes, emailed_at) VALUES ($1, $2, 0, $3) ON CONFLICT (log_id, user_id) DO NOTHING",
        )
        .await
    }

    /// Takes (log, person) by `take` (which stamps the row `emailed_at`; no row changed: gone),
    /// then checks and counts it as [`Db::claim_fallback`] says.
    async fn take_fallback(&self, log_id: &LogId, user_id: &UserId, now: Timestamp, take: &'static str) -> Result<FallbackClaim> {
        let now_ms = to_millis(now);
        let mut tx = self.pool.begin().await?;
        let taken = sqlx::query(take).bind(log_id).bind(user_id).bind(now_ms).execute(&mut *tx).await?.rows_affected() > 0;
        let entry =
            sqlx::query("SELECT status, action, action_by FROM delivery_logs WHERE id = $1").bind(log_id).fetch_optional(&mut *tx).await?;
        let (true, Some(entry)) = (taken, entry) else {
            tx.commit().await?;
            return Ok(FallbackClaim::Gone);
        };
        let status = EntryStatus::parse(&entry.try_get::<String, _>("status")?);
        let answered = answered_for(entry.try_get("action")?, entry.try_get("action_by")?, user_id);
        // Their devices (a send from before per-person rows named no one: the owner's).
        let shown: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM deliveries WHERE log_id = $1 AND shown_at IS NOT NULL AND (user_id = $2 OR user_id IS NULL)",
        )
        .bind(log_id)
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        let user = sqlx::query("SELECT email, language FROM users WHERE id = $1").bind(user_id).fetch_optional(&mut *tx).await?;
        let not_sent = "DELETE FROM fallbacks WHERE log_id = $1 AND user_id = $2";
        let (Some(user), false, 0, false) = (user, answered, shown, status.is_none_or(EntryStatus::never_delivered)) else {
            sqlx::query(not_sent).bind(log_id).bind(user_id).execute(&mut *tx).await?;
            tx.commit().await?;
            return Ok(FallbackClaim::Gone);
        };
        let email: String = user.try_get("email")?;
        let sent_today: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM mail_log WHERE email = $1 AND kind = $2 AND created_at > $3")
            .bind(&email)
            .bind(MAIL_KIND_FALLBACK)
            .bind(now_ms - 86_400_000)
            .fetch_one(&mut *tx)
            .await?;
        if sent_today >= FALLBACKS_PER_DAY {
            sqlx::query(not_sent).bind(log_id).bind(user_id).execute(&mut *tx).await?;
            tx.commit().await?;
            return Ok(FallbackClaim::OverCap);
        }
        sqlx::query("INSERT INTO mail_log (email, kind, created_at) VALUES ($1, $2, $3)")
            .bind(&email)
            .bind(MAIL_KIND_FALLBACK)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        // The entry went out by email to someone (the admin's counts).
        sqlx::query("UPDATE delivery_logs SET emailed_at = COALESCE(emailed_at, $2) WHERE id = $1")
            .bind(log_id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        let lang = Language::parse(&user.try_get::<String, _>("language")?).unwrap_or(Language::En);
        Ok(FallbackClaim::Send(MailJob::Fallback { user_id: *user_id, log_id: *log_id, lang }))
    }

    /// People an entry found no device of: their fallback (if on) is due at its second.
    pub async fn fallback_now(&self, pairs: &[(LogId, UserId)]) -> Result<()> {
        for (log_id, user_id) in pairs {
            sqlx::query("UPDATE fallbacks SET minutes = 0 WHERE log_id = $1 AND user_id = $2 AND emailed_at IS NULL")
                .bind(log_id)
                .bind(user_id)
                .execute(&self.pool)
                .await?;
        }
        self.announce(Change::Fallback).await;
        Ok(())
    }

    /// The contents of a person's fallback email, in their language (None when the entry or
    /// its reminder is gone).
    pub async fn fallback_mail(&self, keys: &Keys, log_id: &LogId, user_id: &UserId) -> Result<Option<FallbackMail>> {
        let row = sqlx::query(
            "SELECT l.reminder_id, l.occurrence_at, l.action, l.action_by, r.title, r.description, r.timezone, u.language, u.hide_notification_content
             FROM delivery_logs l JOIN reminders r ON r.id = l.reminder_id JOIN users u ON u.id = $2 WHERE l.id = $1",
        )
        .bind(log_id)
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let reminder_id: ReminderId = row.try_get("reminder_id")?;
        let title: Vec<u8> = row.try_get("title")?;
        let description: Option<Vec<u8>> = row.try_get("description")?;
        Ok(Some(FallbackMail {
            title: keys.open_string(&format!("{reminder_id}/title"), &title)?,
            description: description.map(|d| keys.open_string(&format!("{reminder_id}/description"), &d)).transpose()?,
            occurrence_at: from_millis(row.try_get("occurrence_at")?),
            timezone: row.try_get("timezone")?,
            language: Language::parse(&row.try_get::<String, _>("language")?).unwrap_or(Language::En),
            hide_content: row.try_get::<i64, _>("hide_notification_content")? != 0,
            settled: answered_for(row.try_get("action")?, row.try_get("action_by")?, user_id),
            reminder_id,
        }))
    }
}

/// Whether an entry's act answers it for this person: anyone's Complete, or their own act (a
/// snooze is the snoozer's; before per-person acts, an act named no one and answered all).
fn answered_for(action: Option<String>, action_by: Option<UserId>, user_id: &UserId) -> bool {
    match (action.as_deref(), action_by) {
        (None, _) => false,
        (Some("complete"), _) | (Some(_), None) => true,
        (Some(_), Some(by)) => by == *user_id,
    }
}
