//! The email fallback: a delivery log entry that no device showed within the user's delay
//! (`fallback_minutes` on the entry, copied from the settings when it was made; 0 when it had
//! no device to go to) is emailed once. The pending fallback lives on the entry, so it
//! survives a restart; showing, acting on or emailing the entry clears it.

use jiff::{SignedDuration, Timestamp};
use sqlx::Row;

use super::{Change, Db};
use crate::Result;
use crate::domain::ids::{LogId, ReminderId, UserId};
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
    Send(MailJob),
}

impl Db {
    /// Entries whose fallback is due at `now`; a fallback "minute" is `minute` long (tests
    /// shorten it).
    pub async fn due_fallbacks(&self, now: Timestamp, minute: SignedDuration, limit: i64) -> Result<Vec<LogId>> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM delivery_logs WHERE fallback_minutes IS NOT NULL AND occurrence_at + fallback_minutes * $1 <= $2
             ORDER BY occurrence_at LIMIT $3",
        )
        .bind(minute.as_millis() as i64)
        .bind(to_millis(now))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// When the next pending fallback falls due.
    pub async fn next_fallback(&self, minute: SignedDuration) -> Result<Option<Timestamp>> {
        let at: Option<i64> =
            sqlx::query_scalar("SELECT MIN(occurrence_at + fallback_minutes * $1) FROM delivery_logs WHERE fallback_minutes IS NOT NULL")
                .bind(minute.as_millis() as i64)
                .fetch_one(&self.pool)
                .await?;
        Ok(at.map(from_millis))
    }

    /// Takes a due fallback: at most once (the pending mark is cleared in the same
    /// transaction that counts it against the daily cap and stamps `emailed_at`). The caller
    /// enqueues the returned mail job.
    pub async fn claim_fallback(&self, log_id: &LogId, now: Timestamp) -> Result<FallbackClaim> {
        let now_ms = to_millis(now);
        let mut tx = self.pool.begin().await?;
        let Some(row) = sqlx::query(
            "UPDATE delivery_logs SET fallback_minutes = NULL WHERE id = $1 AND fallback_minutes IS NOT NULL
             RETURNING user_id, reminder_id, status, action",
        )
        .bind(log_id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            tx.commit().await?;
            return Ok(FallbackClaim::Gone);
        };
        let user_id: UserId = row.try_get("user_id")?;
        let status = EntryStatus::parse(&row.try_get::<String, _>("status")?);
        let action: Option<String> = row.try_get("action")?;
        let shown: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM deliveries WHERE log_id = $1 AND shown_at IS NOT NULL")
            .bind(log_id)
            .fetch_one(&mut *tx)
            .await?;
        let user = sqlx::query("SELECT email, language FROM users WHERE id = $1").bind(user_id).fetch_optional(&mut *tx).await?;
        let (Some(user), None, 0, false) = (user, action, shown, status.is_none_or(EntryStatus::never_delivered)) else {
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
            tx.commit().await?;
            return Ok(FallbackClaim::OverCap);
        }
        sqlx::query("INSERT INTO mail_log (email, kind, created_at) VALUES ($1, $2, $3)")
            .bind(&email)
            .bind(MAIL_KIND_FALLBACK)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE delivery_logs SET emailed_at = $2 WHERE id = $1").bind(log_id).bind(now_ms).execute(&mut *tx).await?;
        tx.commit().await?;
        let lang = Language::parse(&user.try_get::<String, _>("language")?).unwrap_or(Language::En);
        Ok(FallbackClaim::Send(MailJob::Fallback { user_id, log_id: *log_id, lang }))
    }

    /// Entries that found no device to go to: their fallback (if on) is due at their second.
    pub async fn fallback_now(&self, log_ids: &[LogId]) -> Result<()> {
        for id in log_ids {
            sqlx::query("UPDATE delivery_logs SET fallback_minutes = 0 WHERE id = $1 AND fallback_minutes IS NOT NULL")
                .bind(id)
                .execute(&self.pool)
                .await?;
        }
        self.announce(Change::Fallback).await;
        Ok(())
    }

    /// The contents of a fallback email (None when the entry or its reminder is gone).
    pub async fn fallback_mail(&self, keys: &Keys, log_id: &LogId) -> Result<Option<FallbackMail>> {
        let row = sqlx::query(
            "SELECT l.reminder_id, l.occurrence_at, l.action, r.title, r.description, r.timezone, u.language, u.hide_notification_content
             FROM delivery_logs l JOIN reminders r ON r.id = l.reminder_id JOIN users u ON u.id = l.user_id WHERE l.id = $1",
        )
        .bind(log_id)
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
            settled: row.try_get::<Option<String>, _>("action")?.is_some(),
            reminder_id,
        }))
    }
}
