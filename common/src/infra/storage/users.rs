use jiff::Timestamp;
use serde::Serialize;
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::domain::email::Email;
use utoipa::ToSchema;

use super::{Db, flag};
use crate::domain::ids::{SessionId, UserId};
use crate::domain::quiet::{DailyBrief, QuietHours};
use crate::domain::settings::Settings;
use crate::domain::states::Language;
use crate::domain::time::{from_millis, to_millis};
use crate::{Error, Result};

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct User {
    #[schema(value_type = String)]
    pub id: UserId,
    #[schema(value_type = String)]
    pub email: Email,
    pub is_active: bool,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
}

impl User {
    pub(crate) fn from_row(row: &AnyRow) -> Result<User> {
        Ok(User {
            id: row.try_get("id")?,
            email: row.try_get("email")?,
            is_active: row.try_get::<i64, _>("is_active")? != 0,
            created_at: from_millis(row.try_get("created_at")?),
            updated_at: from_millis(row.try_get("updated_at")?),
        })
    }
}

/// How long a session lives: `sliding` after its last use, and never past `absolute` after
/// it began.
#[derive(Debug, Clone, Copy)]
pub struct SessionTtl {
    pub sliding: jiff::SignedDuration,
    pub absolute: jiff::SignedDuration,
}

impl SessionTtl {
    /// The expiry of a session created at `created_ms` and used at `now_ms` (ms).
    pub fn expiry(&self, created_ms: i64, now_ms: i64) -> i64 {
        (now_ms + self.sliding.as_millis() as i64).min(created_ms + self.absolute.as_millis() as i64)
    }
}

/// One of a user's sessions, as listed to them (times in ms).
#[derive(Debug, Clone)]
pub struct SessionRow {
    pub id: SessionId,
    pub label: String,
    pub created_at: i64,
    pub last_used_at: i64,
}

impl Db {
    /// The user with this address, created (with the language hint) when there is none.
    /// Returns whether it was created.
    pub async fn find_or_create_user(&self, email: &Email, lang: Language, now: Timestamp) -> Result<(User, bool)> {
        let id = UserId::generate();
        let now_ms = to_millis(now);
        let inserted = sqlx::query(
            "INSERT INTO users (id, email, language, created_at, updated_at, last_active_at) VALUES ($1, $2, $3, $4, $4, $4)
             ON CONFLICT (email) DO NOTHING RETURNING id",
        )
        .bind(id)
        .bind(email)
        .bind(lang.as_str())
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?
        .is_some();
        if inserted {
            // Its default list from the start, so its first reminders never race to make it.
            let mut conn = self.pool.acquire().await?;
            super::lists::ensure_default_list(&mut conn, &id, now).await?;
        }
        let row = sqlx::query("SELECT id, email, is_active, created_at, updated_at FROM users WHERE email = $1")
            .bind(email)
            .fetch_one(&self.pool)
            .await?;
        Ok((User::from_row(&row)?, inserted))
    }

    pub async fn user_by_id(&self, id: &UserId) -> Result<Option<User>> {
        let row = sqlx::query("SELECT id, email, is_active, created_at, updated_at FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(User::from_row).transpose()
    }

    /// The address and language of an account, if it still exists.
    pub async fn mail_recipient(&self, user_id: &UserId) -> Result<Option<(Email, Option<Language>)>> {
        let row = sqlx::query("SELECT email, language FROM users WHERE id = $1").bind(user_id).fetch_optional(&self.pool).await?;
        row.map(|r| Ok((r.try_get("email")?, r.try_get::<Option<String>, _>("language")?.as_deref().and_then(Language::parse)))).transpose()
    }

    pub async fn user_language(&self, email: &Email) -> Result<Option<Language>> {
        let word: Option<String> =
            sqlx::query_scalar("SELECT language FROM users WHERE email = $1").bind(email).fetch_optional(&self.pool).await?;
        Ok(word.as_deref().and_then(Language::parse))
    }

    /// Sign-ins and notification actions count as use (the 180-day non-use rule).
    pub async fn touch_user(&self, user_id: &UserId, now: Timestamp) -> Result<()> {
        sqlx::query("UPDATE users SET last_active_at = $2 WHERE id = $1").bind(user_id).bind(to_millis(now)).execute(&self.pool).await?;
        Ok(())
    }

    pub async fn settings(&self, user_id: &UserId) -> Result<Settings> {
        let row = sqlx::query(
            "SELECT timezone, language, default_snooze_minutes, speak_titles, hide_notification_content, email_fallback_minutes,
                 morning_time, evening_time, quiet_start, quiet_end, brief_time, brief_via FROM users WHERE id = $1",
        )
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(Error::NotFound)?;
        Ok(Settings {
            timezone: row.try_get("timezone")?,
            language: Language::parse(&row.try_get::<String, _>("language")?).unwrap_or(Language::En),
            default_snooze_minutes: row.try_get("default_snooze_minutes")?,
            speak_titles: row.try_get::<i64, _>("speak_titles")? != 0,
            hide_notification_content: row.try_get::<i64, _>("hide_notification_content")? != 0,
            email_fallback_minutes: row.try_get("email_fallback_minutes")?,
            morning_time: row.try_get("morning_time")?,
            evening_time: row.try_get("evening_time")?,
            quiet_hours: match (row.try_get::<Option<String>, _>("quiet_start")?, row.try_get::<Option<String>, _>("quiet_end")?) {
                (Some(start), Some(end)) => Some(QuietHours { start, end }),
                _ => None,
            },
            daily_brief: match (row.try_get::<Option<String>, _>("brief_time")?, row.try_get::<Option<String>, _>("brief_via")?) {
                (Some(time), Some(via)) => Some(DailyBrief { time, via }),
                _ => None,
            },
        })
    }

    /// Saves the settings; the next daily brief is due at its next minute from `now`.
    pub async fn save_settings(&self, user_id: &UserId, s: &Settings, now: Timestamp) -> Result<()> {
        let quiet = s.quiet_hours.as_ref();
        let brief = s.daily_brief.as_ref();
        sqlx::query(
            "UPDATE users SET timezone = $2, language = $3, default_snooze_minutes = $4, speak_titles = $5,
             hide_notification_content = $6, updated_at = $7, email_fallback_minutes = $8, morning_time = $9, evening_time = $10,
             quiet_start = $11, quiet_end = $12, brief_time = $13, brief_via = $14, brief_next_at = $15 WHERE id = $1",
        )
        .bind(user_id)
        .bind(&s.timezone)
        .bind(s.language.as_str())
        .bind(s.default_snooze_minutes)
        .bind(flag(s.speak_titles))
        .bind(flag(s.hide_notification_content))
        .bind(to_millis(now))
        .bind(s.email_fallback_minutes)
        .bind(&s.morning_time)
        .bind(&s.evening_time)
        .bind(quiet.map(|q| q.start.as_str()))
        .bind(quiet.map(|q| q.end.as_str()))
        .bind(brief.map(|b| b.time.as_str()))
        .bind(brief.map(|b| b.via.as_str()))
        .bind(brief.map(|b| to_millis(b.next_after(&s.timezone, now))))
        .execute(&self.pool)
        .await?;
        if brief.is_some() {
            // The scheduler's timed pass learns when it is next due.
            self.announce(super::Change::Fallback).await;
        }
        Ok(())
    }

    /// Removes the user and every row that names them or their address, in one transaction.
    pub async fn delete_user(&self, user: &User) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        // Everything their id names (storage/children.rs), then what their address names.
        super::children::remove_children_of(&mut tx, super::children::Key::Person(&user.id)).await?;
        for sql in [
            "DELETE FROM otp_codes WHERE email = $1",
            "DELETE FROM auth_failures WHERE email = $1",
            "DELETE FROM mail_log WHERE email = $1",
        ] {
            sqlx::query(sql).bind(&user.email).execute(&mut *tx).await?;
        }
        sqlx::query("DELETE FROM users WHERE id = $1").bind(user.id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    // Sessions: only a hash of the token is stored. A session slides `ttl` with use, within
    // `absolute` of its creation.

    pub async fn create_session(
        &self,
        token_hash: &[u8],
        user_id: &UserId,
        label: &str,
        now: Timestamp,
        ttl: SessionTtl,
    ) -> Result<SessionId> {
        let now_ms = to_millis(now);
        let id = SessionId::generate();
        sqlx::query(
            "INSERT INTO sessions (token_hash, id, user_id, label, created_at, last_used_at, expires_at) VALUES ($1, $2, $3, $4, $5, $5, $6)",
        )
        .bind(token_hash.to_vec())
        .bind(id)
        .bind(user_id)
        .bind(label)
        .bind(now_ms)
        .bind(ttl.expiry(now_ms, now_ms))
        .execute(&self.pool)
        .await?;
        Ok(id)
    }

    /// The active user of a live session, and the session's id. The expiry slides forward with
    /// use (never past the absolute end), written at most once a minute so that reads do not
    /// turn into a write each.
    pub async fn session_user(&self, token_hash: &[u8], now: Timestamp, ttl: SessionTtl) -> Result<Option<(User, SessionId)>> {
        let now_ms = to_millis(now);
        let row = sqlx::query(
            "SELECT u.id, u.email, u.is_active, u.created_at, u.updated_at, s.id AS session_id, s.created_at AS session_created_at, s.last_used_at
             FROM sessions s JOIN users u ON u.id = s.user_id
             WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.created_at > $3 AND u.is_active = 1",
        )
        .bind(token_hash.to_vec())
        .bind(now_ms)
        .bind(now_ms - ttl.absolute.as_millis() as i64)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let last_used: i64 = row.try_get("last_used_at")?;
        let created: i64 = row.try_get("session_created_at")?;
        if now_ms - last_used > 60_000 {
            sqlx::query("UPDATE sessions SET last_used_at = $2, expires_at = $3 WHERE token_hash = $1")
                .bind(token_hash.to_vec())
                .bind(now_ms)
                .bind(ttl.expiry(created, now_ms))
                .execute(&self.pool)
                .await?;
        }
        Ok(Some((User::from_row(&row)?, row.try_get("session_id")?)))
    }

    pub async fn delete_session(&self, token_hash: &[u8]) -> Result<()> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(token_hash.to_vec()).execute(&self.pool).await?;
        Ok(())
    }

    /// The user's live sessions, most recently used first.
    pub async fn sessions_of(&self, user_id: &UserId, now: Timestamp, ttl: SessionTtl) -> Result<Vec<SessionRow>> {
        let now_ms = to_millis(now);
        let rows = sqlx::query(
            "SELECT id, label, created_at, last_used_at FROM sessions
             WHERE user_id = $1 AND expires_at > $2 AND created_at > $3 ORDER BY last_used_at DESC, created_at DESC",
        )
        .bind(user_id)
        .bind(now_ms)
        .bind(now_ms - ttl.absolute.as_millis() as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(SessionRow {
                    id: r.try_get("id")?,
                    label: r.try_get("label")?,
                    created_at: r.try_get("created_at")?,
                    last_used_at: r.try_get("last_used_at")?,
                })
            })
            .collect()
    }

    /// Ends one of the user's sessions; false when it is not theirs (or gone).
    pub async fn end_session(&self, user_id: &UserId, id: &SessionId) -> Result<bool> {
        Ok(sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id = $2")
            .bind(user_id)
            .bind(id)
            .execute(&self.pool)
            .await?
            .rows_affected()
            > 0)
    }

    /// Ends every session of the user.
    pub async fn end_all_sessions(&self, user_id: &UserId) -> Result<u64> {
        Ok(sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&self.pool).await?.rows_affected())
    }

    /// One-time reminders delivered `after` ago and never acted on are archived (the spec:
    /// "stays pending (shown as overdue) and is archived automatically 7 days later").
    pub async fn archive_unanswered(&self, now: Timestamp, after: jiff::SignedDuration) -> Result<u64> {
        let now_ms = to_millis(now);
        let cutoff = now_ms - after.as_millis() as i64;
        Ok(sqlx::query(
            "UPDATE reminders SET is_active = 0, is_archived = 1, archived_at = $1, updated_at = $1
             WHERE is_active = 1 AND recurrence = '{\"kind\":\"none\"}' AND scheduled_at < $2
               AND NOT EXISTS (SELECT 1 FROM fires f WHERE f.reminder_id = reminders.id AND f.kind IN ('occurrence', 'snooze'))",
        )
        .bind(now_ms)
        .bind(cutoff)
        .execute(&self.pool)
        .await?
        .rows_affected())
    }

    /// The 180-day rule: accounts without sign-in or notification interaction for `after` have
    /// their active reminders archived and their push subscriptions removed; nothing else.
    pub async fn retire_unused(&self, now: Timestamp, after: jiff::SignedDuration) -> Result<u64> {
        let now_ms = to_millis(now);
        let cutoff = now_ms - after.as_millis() as i64;
        let mut tx = self.pool.begin().await?;
        super::fires::forget(&mut tx, super::fires::Forget::ActiveOfUnusedSince(cutoff)).await?;
        let archived = sqlx::query(
            "UPDATE reminders SET is_active = 0, is_archived = 1, archived_at = $1, updated_at = $1
             WHERE is_active = 1 AND user_id IN (SELECT id FROM users WHERE last_active_at < $2)",
        )
        .bind(now_ms)
        .bind(cutoff)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        sqlx::query("DELETE FROM push_subscriptions WHERE user_id IN (SELECT id FROM users WHERE last_active_at < $1)")
            .bind(cutoff)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(archived)
    }

    /// Expired codes, sessions and old mail-log rows (housekeeping).
    pub async fn prune_expired(&self, now: Timestamp) -> Result<u64> {
        let now_ms = to_millis(now);
        let mut removed = 0;
        removed += sqlx::query("DELETE FROM sessions WHERE expires_at <= $1 OR created_at <= $2")
            .bind(now_ms)
            .bind(now_ms - crate::domain::access::SESSION_ABSOLUTE.as_millis() as i64)
            .execute(&self.pool)
            .await?
            .rows_affected();
        removed += sqlx::query("DELETE FROM otp_codes WHERE expires_at <= $1").bind(now_ms).execute(&self.pool).await?.rows_affected();
        removed +=
            sqlx::query("DELETE FROM mail_log WHERE created_at <= $1").bind(now_ms - 86_400_000).execute(&self.pool).await?.rows_affected();
        // Failure counts and blocks are kept 90 days after the last failure: forgetting them
        // sooner would let guessing start over inside a 30-day window.
        removed += sqlx::query("DELETE FROM auth_failures WHERE updated_at <= $1 AND blocked_until <= $2")
            .bind(now_ms - 90 * 86_400_000)
            .bind(now_ms)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(removed)
    }
}
