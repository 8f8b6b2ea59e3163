//! When each person's daily brief is due (`users.brief_next_at`): the scheduler takes a due
//! one by moving it on to the next day in one conditional statement, so it goes out once
//! whatever runs twice.

use jiff::Timestamp;
use sqlx::Row;

use super::Db;
use crate::Result;
use crate::domain::ids::UserId;
use crate::domain::quiet::DailyBrief;
use crate::domain::time::{from_millis, to_millis};
use crate::domain::zone::Zone;

impl Db {
    /// People whose brief is due at `now`, with the instant it was due.
    pub async fn due_briefs(&self, now: Timestamp, limit: i64) -> Result<Vec<(UserId, i64)>> {
        let rows = sqlx::query("SELECT id, brief_next_at FROM users WHERE brief_next_at <= $1 ORDER BY brief_next_at LIMIT $2")
            .bind(to_millis(now))
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok((r.try_get("id")?, r.try_get("brief_next_at")?))).collect()
    }

    /// When the next brief falls due.
    pub async fn next_brief(&self) -> Result<Option<Timestamp>> {
        let at: Option<i64> = sqlx::query_scalar("SELECT MIN(brief_next_at) FROM users").fetch_one(&self.pool).await?;
        Ok(at.map(from_millis))
    }

    /// Takes a person's brief due at `due` (Unix ms): moves it on to its next day and answers
    /// how it goes (None: someone else took it, or it was turned off meanwhile).
    pub async fn claim_brief(&self, user_id: &UserId, due: i64, now: Timestamp) -> Result<Option<String>> {
        let row = sqlx::query("SELECT timezone, brief_time, brief_via FROM users WHERE id = $1 AND brief_next_at = $2")
            .bind(user_id)
            .bind(due)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let (Some(time), Some(via)) = (row.try_get::<Option<String>, _>("brief_time")?, row.try_get::<Option<String>, _>("brief_via")?)
        else {
            return Ok(None);
        };
        let zone: Zone = row.try_get("timezone")?;
        let brief = DailyBrief { time, via };
        let next = brief.next_after(&zone, now.max(from_millis(due)));
        let taken = sqlx::query("UPDATE users SET brief_next_at = $3 WHERE id = $1 AND brief_next_at = $2")
            .bind(user_id)
            .bind(due)
            .bind(to_millis(next))
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok((taken > 0).then_some(brief.via))
    }
}
