//! `hibiki rekey`: every sealed value opened under the keys it was sealed with and sealed
//! again under the current one. Values already under the current key are left as they are,
//! so a rekey that was cut off can simply run again.

use sqlx::Row;

use super::Db;
use crate::Result;
use crate::infra::crypto::Keys;

const BATCH: i64 = 500;
/// Every sealed column, by table: a value's context is `{row id}/{column}`.
const SEALED: [(&str, &[&str]); 2] = [("reminders", &["title", "description", "send_to", "metadata"]), ("lists", &["name"])];

impl Db {
    /// Re-seals every sealed value under `keys`' current key; returns how many were re-sealed.
    pub async fn reseal_all(&self, keys: &Keys) -> Result<u64> {
        let mut resealed = 0;
        for (table, fields) in SEALED {
            resealed += self.reseal_table(keys, table, fields).await?;
        }
        // Pending sign-ins end: their codes are hashed under the old key, so they could not
        // be checked any more (and their unsent mails are sealed under it).
        sqlx::query("DELETE FROM otp_codes").execute(&self.pool).await?;
        Ok(resealed)
    }

    async fn reseal_table(&self, keys: &Keys, table: &str, fields: &[&str]) -> Result<u64> {
        let mut resealed = 0;
        let mut after = String::new();
        // The table and column names are the constants above, never input.
        let select = format!("SELECT id, {} FROM {table} WHERE id > $1 ORDER BY id LIMIT $2", fields.join(", "));
        loop {
            let rows = sqlx::query(sqlx::AssertSqlSafe(select.clone())).bind(&after).bind(BATCH).fetch_all(&self.pool).await?;
            let Some(last) = rows.last() else { break };
            after = last.try_get("id")?;
            let mut tx = self.pool.begin().await?;
            for row in &rows {
                let id: String = row.try_get("id")?;
                for field in fields {
                    let Some(sealed) = row.try_get::<Option<Vec<u8>>, _>(*field)? else { continue };
                    if keys.sealed_by_current(&sealed) {
                        continue;
                    }
                    let context = format!("{id}/{field}");
                    let plain = keys.open(&context, &sealed)?;
                    let again = keys.seal(&context, &plain);
                    sqlx::query(sqlx::AssertSqlSafe(format!("UPDATE {table} SET {field} = $1 WHERE id = $2")))
                        .bind(again)
                        .bind(&id)
                        .execute(&mut *tx)
                        .await?;
                    resealed += 1;
                }
            }
            tx.commit().await?;
        }
        Ok(resealed)
    }
}

impl Db {
    /// A consistent copy of the embedded database at `path` while Hibiki runs (SQLite's
    /// `VACUUM INTO`); `Ok(false)` on PostgreSQL, whose backups are `pg_dump`'s job.
    pub async fn backup_into(&self, path: &std::path::Path) -> Result<bool> {
        if self.backend != super::Backend::Sqlite {
            return Ok(false);
        }
        let path = path.to_str().ok_or_else(|| crate::Error::Corrupt("the backup path is not UTF-8".into()))?;
        sqlx::query("VACUUM INTO $1").bind(path).execute(&self.pool).await?;
        Ok(true)
    }
}
