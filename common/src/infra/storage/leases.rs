//! Leases: leader election among schedulers (and a housekeeping pass among workers).

use jiff::{SignedDuration, Timestamp};

use super::Db;
use crate::Result;
use crate::domain::time::to_millis;

impl Db {
    /// Takes or keeps the named lease for `ttl`: true while `holder` leads.
    pub async fn try_lease(&self, name: &str, holder: &str, now: Timestamp, ttl: SignedDuration) -> Result<bool> {
        let now_ms = to_millis(now);
        Ok(sqlx::query(
            "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
             WHERE leases.holder = excluded.holder OR leases.expires_at < $4
             RETURNING holder",
        )
        .bind(name)
        .bind(holder)
        .bind(now_ms + ttl.as_millis() as i64)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?
        .is_some())
    }

    pub async fn release_lease(&self, name: &str, holder: &str) -> Result<()> {
        sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2").bind(name).bind(holder).execute(&self.pool).await?;
        Ok(())
    }
}
