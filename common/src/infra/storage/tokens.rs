//! Personal API tokens and trigger links: only the SHA-256 of each secret is stored (both are
//! 256-bit random), so a database reader cannot use them.

use jiff::Timestamp;
use sqlx::Row;

use super::{Db, User};
use crate::domain::ids::{ApiTokenId, ReminderId, TriggerId, UserId};
use crate::domain::time::{from_millis, to_millis};
use crate::domain::tokens::{ApiToken, MAX_TOKENS, Scopes, TokenRequest};
use crate::domain::triggers::{MAX_TRIGGERS, Trigger};
use crate::{Error, Result};

/// `last_used_at` is written at most this often per token or trigger: reads do not each turn
/// into a write.
const TOUCH_EVERY_MS: i64 = 60_000;

/// The person behind a valid API token, and what it may do.
#[derive(Debug, Clone)]
pub struct TokenUser {
    pub user: User,
    pub token_id: ApiTokenId,
    pub scopes: Scopes,
}

/// A trigger link's reminder and maker.
#[derive(Debug, Clone, Copy)]
pub struct TriggerTarget {
    pub id: TriggerId,
    pub reminder_id: ReminderId,
    pub user_id: UserId,
}

fn token_of(row: &sqlx::any::AnyRow) -> Result<ApiToken> {
    Ok(ApiToken {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        scopes: Scopes::from_stored(&row.try_get::<String, _>("scopes")?).to_vec(),
        created_at: from_millis(row.try_get("created_at")?),
        last_used_at: row.try_get::<Option<i64>, _>("last_used_at")?.map(from_millis),
        expires_at: row.try_get::<Option<i64>, _>("expires_at")?.map(from_millis),
    })
}

impl Db {
    /// Adds a token; `TokenLimit` past [`MAX_TOKENS`] (the person's row is locked first, so two
    /// at once cannot both pass the count).
    pub async fn create_token(&self, user_id: &UserId, request: &TokenRequest, token_hash: &[u8], now: Timestamp) -> Result<ApiToken> {
        let id = ApiTokenId::generate();
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM api_tokens WHERE user_id = $1").bind(user_id).fetch_one(&mut *tx).await?;
        if count >= MAX_TOKENS {
            return Err(Error::TokenLimit(MAX_TOKENS));
        }
        sqlx::query(
            "INSERT INTO api_tokens (id, user_id, name, scopes, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(user_id)
        .bind(&request.name)
        .bind(request.scopes.stored())
        .bind(token_hash.to_vec())
        .bind(to_millis(now))
        .bind(request.expires_at.map(to_millis))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(ApiToken {
            id,
            name: request.name.clone(),
            scopes: request.scopes.to_vec(),
            created_at: now,
            last_used_at: None,
            expires_at: request.expires_at,
        })
    }

    /// The person's tokens, newest first (expired ones too: they say so).
    pub async fn tokens(&self, user_id: &UserId) -> Result<Vec<ApiToken>> {
        sqlx::query(
            "SELECT id, name, scopes, created_at, last_used_at, expires_at FROM api_tokens WHERE user_id = $1 ORDER BY created_at DESC, id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(token_of)
        .collect()
    }

    pub async fn delete_token(&self, user_id: &UserId, id: &ApiTokenId) -> Result<()> {
        let gone = sqlx::query("DELETE FROM api_tokens WHERE user_id = $1 AND id = $2").bind(user_id).bind(id).execute(&self.pool).await?;
        if gone.rows_affected() == 0 { Err(Error::NotFound) } else { Ok(()) }
    }

    /// The active person a live token belongs to; its use is noted (at most once a minute).
    pub async fn token_user(&self, token_hash: &[u8], now: Timestamp) -> Result<Option<TokenUser>> {
        let now_ms = to_millis(now);
        let row = sqlx::query(
            "SELECT u.id, u.email, u.is_active, u.created_at, u.updated_at, t.id AS token_id, t.scopes, t.last_used_at
             FROM api_tokens t JOIN users u ON u.id = t.user_id
             WHERE t.token_hash = $1 AND (t.expires_at IS NULL OR t.expires_at > $2) AND u.is_active = 1",
        )
        .bind(token_hash.to_vec())
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let token_id: ApiTokenId = row.try_get("token_id")?;
        if row.try_get::<Option<i64>, _>("last_used_at")?.is_none_or(|at| now_ms - at >= TOUCH_EVERY_MS) {
            sqlx::query("UPDATE api_tokens SET last_used_at = $2 WHERE id = $1").bind(token_id).bind(now_ms).execute(&self.pool).await?;
        }
        Ok(Some(TokenUser { user: User::from_row(&row)?, token_id, scopes: Scopes::from_stored(&row.try_get::<String, _>("scopes")?) }))
    }

    /// Adds a trigger link to a reminder the person can see; `TriggerLimit` past
    /// [`MAX_TRIGGERS`] on the reminder (its row is locked first).
    pub async fn create_trigger(
        &self,
        user_id: &UserId,
        reminder_id: &ReminderId,
        secret_hash: &[u8],
        now: Timestamp,
    ) -> Result<TriggerId> {
        let id = TriggerId::generate();
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE reminders SET updated_at = updated_at WHERE id = $1").bind(reminder_id).execute(&mut *tx).await?;
        let count: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM triggers WHERE reminder_id = $1").bind(reminder_id).fetch_one(&mut *tx).await?;
        if count >= MAX_TRIGGERS {
            return Err(Error::TriggerLimit(MAX_TRIGGERS));
        }
        sqlx::query("INSERT INTO triggers (id, reminder_id, user_id, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(id)
            .bind(reminder_id)
            .bind(user_id)
            .bind(secret_hash.to_vec())
            .bind(to_millis(now))
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// A reminder's trigger links, oldest first.
    pub async fn triggers(&self, reminder_id: &ReminderId) -> Result<Vec<Trigger>> {
        let rows = sqlx::query("SELECT id, created_at, last_used_at FROM triggers WHERE reminder_id = $1 ORDER BY created_at, id")
            .bind(reminder_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(Trigger {
                    id: r.try_get("id")?,
                    created_at: from_millis(r.try_get("created_at")?),
                    last_used_at: r.try_get::<Option<i64>, _>("last_used_at")?.map(from_millis),
                })
            })
            .collect()
    }

    pub async fn delete_trigger(&self, reminder_id: &ReminderId, id: &TriggerId) -> Result<()> {
        let gone =
            sqlx::query("DELETE FROM triggers WHERE reminder_id = $1 AND id = $2").bind(reminder_id).bind(id).execute(&self.pool).await?;
        if gone.rows_affected() == 0 { Err(Error::NotFound) } else { Ok(()) }
    }

    /// The trigger a secret names.
    pub async fn trigger_by_secret(&self, secret_hash: &[u8]) -> Result<Option<TriggerTarget>> {
        let row = sqlx::query("SELECT id, reminder_id, user_id FROM triggers WHERE secret_hash = $1")
            .bind(secret_hash.to_vec())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok(TriggerTarget { id: r.try_get("id")?, reminder_id: r.try_get("reminder_id")?, user_id: r.try_get("user_id")? }))
            .transpose()
    }

    /// Notes a trigger's use (a POST that acted).
    pub async fn touch_trigger(&self, id: &TriggerId, now: Timestamp) -> Result<()> {
        sqlx::query("UPDATE triggers SET last_used_at = $2 WHERE id = $1").bind(id).bind(to_millis(now)).execute(&self.pool).await?;
        Ok(())
    }
}
