//! Sign-in state: codes, failure counters and the mail log. Every check that must hold under
//! concurrency is a single conditional statement, so the database decides the race.

use jiff::Timestamp;
use sqlx::Row;

use super::Db;
use crate::Result;
use crate::domain::email::Email;
use crate::domain::states::Language;
use crate::domain::time::to_millis;

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || text.len() > 128 {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

#[derive(Debug, Clone)]
pub struct OtpRow {
    pub code_hash: Vec<u8>,
    /// The code a resend replaced (a guess of it is told to use the newest email).
    pub replaced_code_hash: Option<Vec<u8>>,
    pub attempts: i64,
    pub expires_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreOtp {
    Stored,
    /// A code was sent less than the cooldown ago; retry after this many ms.
    Cooldown {
        retry_after_ms: i64,
    },
}

impl Db {
    /// Replaces the address's code unless the current one is younger than `cooldown_ms`.
    #[allow(clippy::too_many_arguments)]
    pub async fn store_otp(
        &self,
        email: &Email,
        code_hash: &[u8],
        link_hash: &[u8],
        mail_secret: &[u8],
        lang: Language,
        now: Timestamp,
        ttl_ms: i64,
        cooldown_ms: i64,
    ) -> Result<StoreOtp> {
        let now_ms = to_millis(now);
        let stored = sqlx::query(
            "INSERT INTO otp_codes (email, code_hash, link_hash, lang, attempts, created_at, expires_at, mail_secret)
             VALUES ($1, $2, $3, $4, 0, $5, $6, $8)
             ON CONFLICT (email) DO UPDATE SET replaced_code_hash = otp_codes.code_hash, code_hash = excluded.code_hash, link_hash = excluded.link_hash,
                 lang = excluded.lang, attempts = 0, created_at = excluded.created_at, expires_at = excluded.expires_at,
                 mail_secret = excluded.mail_secret
             WHERE otp_codes.created_at <= $7
             RETURNING email",
        )
        .bind(email)
        .bind(code_hash.to_vec())
        .bind(link_hash.to_vec())
        .bind(lang.as_str())
        .bind(now_ms)
        .bind(now_ms + ttl_ms)
        .bind(now_ms - cooldown_ms)
        .bind(mail_secret.to_vec())
        .fetch_optional(&self.pool)
        .await?
        .is_some();
        if stored {
            return Ok(StoreOtp::Stored);
        }
        let created: i64 = sqlx::query_scalar("SELECT created_at FROM otp_codes WHERE email = $1")
            .bind(email)
            .fetch_optional(&self.pool)
            .await?
            .unwrap_or(now_ms - cooldown_ms);
        Ok(StoreOtp::Cooldown { retry_after_ms: (created + cooldown_ms - now_ms).max(1) })
    }

    pub async fn otp_row(&self, email: &Email) -> Result<Option<OtpRow>> {
        let row = sqlx::query("SELECT code_hash, replaced_code_hash, attempts, expires_at FROM otp_codes WHERE email = $1")
            .bind(email)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(OtpRow {
                code_hash: r.try_get("code_hash")?,
                replaced_code_hash: r.try_get("replaced_code_hash")?,
                attempts: r.try_get("attempts")?,
                expires_at: r.try_get("expires_at")?,
            })
        })
        .transpose()
    }

    /// Spends the code (and with it the link) if it is still the live, unexpired, unburned
    /// code. Of concurrent callers exactly one gets `Some(lang)`.
    pub async fn consume_code(&self, email: &Email, code_hash: &[u8], now: Timestamp, max_attempts: i64) -> Result<Option<Language>> {
        let lang: Option<String> = sqlx::query_scalar(
            "DELETE FROM otp_codes WHERE email = $1 AND code_hash = $2 AND expires_at > $3 AND attempts < $4 RETURNING lang",
        )
        .bind(email)
        .bind(code_hash.to_vec())
        .bind(to_millis(now))
        .bind(max_attempts)
        .fetch_optional(&self.pool)
        .await?;
        Ok(lang.map(|l| Language::from_hint(Some(&l))))
    }

    /// Counts one wrong guess against the live code; `None` when it was already burned (or
    /// gone). The guard keeps the count at `max_attempts` however many guesses race.
    pub async fn count_wrong_code(&self, email: &Email, max_attempts: i64) -> Result<Option<i64>> {
        Ok(sqlx::query_scalar("UPDATE otp_codes SET attempts = attempts + 1 WHERE email = $1 AND attempts < $2 RETURNING attempts")
            .bind(email)
            .bind(max_attempts)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Spends a sign-in link: `Some((email, lang))` once, for an unexpired link.
    pub async fn consume_link(&self, link_hash: &[u8], now: Timestamp) -> Result<Option<(Email, Language)>> {
        let row = sqlx::query("DELETE FROM otp_codes WHERE link_hash = $1 AND expires_at > $2 RETURNING email, lang")
            .bind(link_hash.to_vec())
            .bind(to_millis(now))
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get("email")?, Language::from_hint(r.try_get::<Option<String>, _>("lang")?.as_deref())))).transpose()
    }

    /// The address and sealed mail secret of a pending sign-in (by its reference, the link
    /// hash in hex) that is live and not yet mailed.
    pub async fn sign_in_mail(&self, reference: &str, now: Timestamp) -> Result<Option<(Email, Vec<u8>)>> {
        let Some(link_hash) = from_hex(reference) else { return Ok(None) };
        let row =
            sqlx::query("SELECT email, mail_secret FROM otp_codes WHERE link_hash = $1 AND expires_at > $2 AND mail_secret IS NOT NULL")
                .bind(link_hash)
                .bind(to_millis(now))
                .fetch_optional(&self.pool)
                .await?;
        row.map(|r| Ok((r.try_get("email")?, r.try_get("mail_secret")?))).transpose()
    }

    pub async fn forget_sign_in_mail(&self, reference: &str) -> Result<()> {
        let Some(link_hash) = from_hex(reference) else { return Ok(()) };
        sqlx::query("UPDATE otp_codes SET mail_secret = NULL WHERE link_hash = $1").bind(link_hash).execute(&self.pool).await?;
        Ok(())
    }

    /// The address a live sign-in link belongs to, spending nothing.
    pub async fn link_email(&self, link_hash: &[u8], now: Timestamp) -> Result<Option<Email>> {
        Ok(sqlx::query_scalar("SELECT email FROM otp_codes WHERE link_hash = $1 AND expires_at > $2")
            .bind(link_hash.to_vec())
            .bind(to_millis(now))
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Until when code sign-in is blocked for this address (ms), if it is.
    pub async fn code_blocked_until(&self, email: &Email, now: Timestamp) -> Result<Option<i64>> {
        let until: Option<i64> =
            sqlx::query_scalar("SELECT blocked_until FROM auth_failures WHERE email = $1").bind(email).fetch_optional(&self.pool).await?;
        Ok(until.filter(|u| *u > to_millis(now)))
    }

    /// Counts a failed code sign-in; the `threshold`-th consecutive one blocks code sign-in
    /// (`first_block_ms` the first time, doubling with each block after, until a successful
    /// sign-in clears the row) and starts the count again.
    pub async fn record_code_failure(&self, email: &Email, now: Timestamp, threshold: i64, first_block_ms: i64) -> Result<()> {
        let now_ms = to_millis(now);
        let row = sqlx::query(
            "INSERT INTO auth_failures (email, failures, blocked_until, updated_at, blocks) VALUES ($1, 1, 0, $2, 0)
             ON CONFLICT (email) DO UPDATE SET failures = auth_failures.failures + 1, updated_at = excluded.updated_at
             RETURNING failures, blocks",
        )
        .bind(email)
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        let (failures, blocks): (i64, i64) = (row.try_get("failures")?, row.try_get("blocks")?);
        if failures >= threshold {
            // Conditional, so two failures racing past the threshold block once.
            sqlx::query(
                "UPDATE auth_failures SET failures = 0, blocks = blocks + 1, blocked_until = $2 WHERE email = $1 AND failures >= $3",
            )
            .bind(email)
            .bind(now_ms + crate::domain::access::block_length_ms(first_block_ms, blocks))
            .bind(threshold)
            .execute(&self.pool)
            .await?;
        }
        Ok(())
    }

    pub async fn clear_code_failures(&self, email: &Email) -> Result<()> {
        sqlx::query("DELETE FROM auth_failures WHERE email = $1").bind(email).execute(&self.pool).await?;
        Ok(())
    }

    /// How many mails of `kind` went to `email` since `since`, and the oldest one's time.
    pub async fn mail_sent_since(&self, email: &Email, kind: &str, since: Timestamp) -> Result<(i64, Option<i64>)> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM mail_log WHERE email = $1 AND kind = $2 AND created_at > $3")
                .bind(email)
                .bind(kind)
                .bind(to_millis(since))
                .fetch_one(&self.pool)
                .await?;
        Ok((row.try_get("n")?, row.try_get("oldest")?))
    }

    pub async fn log_mail(&self, email: &Email, kind: &str, now: Timestamp) -> Result<()> {
        sqlx::query("INSERT INTO mail_log (email, kind, created_at) VALUES ($1, $2, $3)")
            .bind(email)
            .bind(kind)
            .bind(to_millis(now))
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
