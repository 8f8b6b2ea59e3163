//! The calendar feed's secret: one per user, stored as a hash.

use super::Db;
use crate::Result;
use crate::domain::ids::UserId;
use crate::infra::storage::User;

impl Db {
    /// Sets (or replaces, so the earlier URL stops working) the user's feed token hash; None
    /// revokes the feed.
    pub async fn set_calendar_token(&self, user_id: &UserId, token_hash: Option<&[u8]>) -> Result<()> {
        sqlx::query("UPDATE users SET calendar_token_hash = $2 WHERE id = $1")
            .bind(user_id)
            .bind(token_hash.map(<[u8]>::to_vec))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// What the user's feed is made of changes when this does: the active reminders of their
    /// lists (how many, and when each last changed) and the settings the feed reads.
    pub async fn feed_fingerprint(&self, user_id: &UserId) -> Result<String> {
        use sqlx::Row;
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, COALESCE(MAX(updated_at), 0) AS newest, CAST(COALESCE(SUM(updated_at % 1000003), 0) AS BIGINT) AS spread
             FROM reminders WHERE list_id IN (SELECT list_id FROM list_members WHERE user_id = $1) AND is_active = 1 AND is_archived = 0",
        )
        .bind(user_id)
        .fetch_one(&self.pool)
        .await?;
        let (n, newest, spread): (i64, i64, i64) = (row.try_get("n")?, row.try_get("newest")?, row.try_get("spread")?);
        Ok(format!("{n}:{newest}:{spread}"))
    }

    /// The active user whose feed token hashes to this.
    pub async fn calendar_user(&self, token_hash: &[u8]) -> Result<Option<User>> {
        let row =
            sqlx::query("SELECT id, email, is_active, created_at, updated_at FROM users WHERE calendar_token_hash = $1 AND is_active = 1")
                .bind(token_hash.to_vec())
                .fetch_optional(&self.pool)
                .await?;
        row.as_ref().map(User::from_row).transpose()
    }
}
