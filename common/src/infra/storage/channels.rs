//! The channels people link, and each send to one (`channel_sends`: a ring or a fallback goes
//! to a channel once). Addresses and secrets are sealed at rest like reminder contents.

use std::collections::{HashMap, HashSet};

use jiff::Timestamp;
use sqlx::{AssertSqlSafe, Row};

use super::{Db, flag, placeholders};
use crate::domain::channels::{
    Channel, ChannelKind, ChannelPatch, ChannelStatus, ChannelUse, FAILING_AFTER, MAX_CHANNELS, MAX_LABEL_CHARS, TEST_EVERY_SECS,
};
use crate::domain::ids::{ChannelId, LogId, UserId};
use crate::domain::time::{from_millis, to_millis};
use crate::infra::crypto::Keys;
use crate::{Error, Result};

/// What a send needs of a channel: where and how (opened).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelTarget {
    pub id: ChannelId,
    pub user_id: UserId,
    pub kind: ChannelKind,
    /// A topic or webhook URL, a chat or user id.
    pub address: String,
    /// An ntfy token, a webhook secret.
    pub secret: Option<String>,
}

/// What a channel is sent for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Ring,
    Fallback,
    Test,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::Ring => "ring",
            Purpose::Fallback => "fallback",
            Purpose::Test => "test",
        }
    }
}

/// A new channel as stored.
pub struct NewChannelRow<'a> {
    pub kind: ChannelKind,
    pub label: &'a str,
    pub status: ChannelStatus,
    pub address: Option<&'a str>,
    pub secret: Option<&'a str>,
    /// The keyed hash of a pending channel's link code.
    pub link_code: Option<&'a str>,
}

const COLUMNS: &str = "id, kind, label, status, use_rings, use_fallback, created_at";

fn channel_of(row: &sqlx::any::AnyRow) -> Result<Channel> {
    let kind: String = row.try_get("kind")?;
    Ok(Channel {
        id: row.try_get("id")?,
        kind: ChannelKind::parse(&kind).ok_or_else(|| Error::Corrupt(format!("channel kind {kind:?}")))?,
        label: row.try_get("label")?,
        status: ChannelStatus::parse(&row.try_get::<String, _>("status")?),
        uses: ChannelUse { rings: row.try_get::<i64, _>("use_rings")? != 0, fallback: row.try_get::<i64, _>("use_fallback")? != 0 },
        created_at: from_millis(row.try_get("created_at")?),
    })
}

fn context(id: &ChannelId, part: &str) -> String {
    format!("channel/{id}/{part}")
}

impl Db {
    pub async fn channels(&self, user_id: &UserId) -> Result<Vec<Channel>> {
        let sql = format!("SELECT {COLUMNS} FROM channels WHERE user_id = $1 ORDER BY created_at, id");
        sqlx::query(AssertSqlSafe(sql)).bind(user_id).fetch_all(&self.pool).await?.iter().map(channel_of).collect()
    }

    pub async fn channel(&self, user_id: &UserId, id: &ChannelId) -> Result<Channel> {
        let sql = format!("SELECT {COLUMNS} FROM channels WHERE user_id = $1 AND id = $2");
        let row = sqlx::query(AssertSqlSafe(sql)).bind(user_id).bind(id).fetch_optional(&self.pool).await?.ok_or(Error::NotFound)?;
        channel_of(&row)
    }

    /// Adds a channel; `ChannelLimit` past [`MAX_CHANNELS`] (the person's row is written first,
    /// so two adds at once cannot both pass the count).
    pub async fn create_channel(&self, keys: &Keys, user_id: &UserId, new: NewChannelRow<'_>, now: Timestamp) -> Result<Channel> {
        let id = ChannelId::generate();
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM channels WHERE user_id = $1").bind(user_id).fetch_one(&mut *tx).await?;
        if count >= MAX_CHANNELS {
            return Err(Error::ChannelLimit(MAX_CHANNELS));
        }
        sqlx::query(
            "INSERT INTO channels (id, user_id, kind, label, status, use_rings, use_fallback, address, secret, link_code, created_at)
             VALUES ($1, $2, $3, $4, $5, 1, 0, $6, $7, $8, $9)",
        )
        .bind(id)
        .bind(user_id)
        .bind(new.kind.as_str())
        .bind(new.label)
        .bind(new.status.as_str())
        .bind(new.address.map(|a| keys.seal_str(&context(&id, "address"), a)))
        .bind(new.secret.map(|s| keys.seal_str(&context(&id, "secret"), s)))
        .bind(new.link_code)
        .bind(to_millis(now))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.channel(user_id, &id).await
    }

    pub async fn update_channel(&self, user_id: &UserId, id: &ChannelId, patch: &ChannelPatch) -> Result<Channel> {
        let current = self.channel(user_id, id).await?;
        let label = patch.label.as_deref().map(str::trim).filter(|l| !l.is_empty()).unwrap_or(&current.label);
        let label: String = label.chars().take(MAX_LABEL_CHARS).collect();
        let uses = patch.uses.unwrap_or_default();
        sqlx::query("UPDATE channels SET label = $3, use_rings = $4, use_fallback = $5 WHERE user_id = $1 AND id = $2")
            .bind(user_id)
            .bind(id)
            .bind(label)
            .bind(flag(uses.rings.unwrap_or(current.uses.rings)))
            .bind(flag(uses.fallback.unwrap_or(current.uses.fallback)))
            .execute(&self.pool)
            .await?;
        self.channel(user_id, id).await
    }

    pub async fn delete_channel(&self, user_id: &UserId, id: &ChannelId) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        let theirs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM channels WHERE user_id = $1 AND id = $2")
            .bind(user_id)
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        if theirs == 0 {
            return Err(Error::NotFound);
        }
        super::children::remove(&mut tx, super::children::Key::Channel(id)).await?;
        // A daily brief that went there goes by push instead.
        sqlx::query("UPDATE users SET brief_via = 'push' WHERE id = $1 AND brief_via = $2")
            .bind(user_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Takes the channel's test turn (one per [`TEST_EVERY_SECS`]); `RateLimited` with the
    /// seconds to wait otherwise.
    pub async fn take_channel_test(&self, user_id: &UserId, id: &ChannelId, now: Timestamp) -> Result<()> {
        let now_ms = to_millis(now);
        let every = TEST_EVERY_SECS * 1000;
        let taken =
            sqlx::query("UPDATE channels SET tested_at = $3 WHERE user_id = $1 AND id = $2 AND (tested_at IS NULL OR tested_at <= $4)")
                .bind(user_id)
                .bind(id)
                .bind(now_ms)
                .bind(now_ms - every)
                .execute(&self.pool)
                .await?
                .rows_affected();
        if taken > 0 {
            return Ok(());
        }
        let tested: Option<Option<i64>> = sqlx::query_scalar("SELECT tested_at FROM channels WHERE user_id = $1 AND id = $2")
            .bind(user_id)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        match tested {
            None => Err(Error::NotFound),
            Some(at) => Err(Error::RateLimited(((at.unwrap_or(now_ms) + every - now_ms) / 1000).max(1))),
        }
    }

    /// The linked channels of these people that take `purpose` (a test: any), opened.
    pub async fn channel_targets(&self, keys: &Keys, user_ids: &[UserId], purpose: Purpose) -> Result<HashMap<UserId, Vec<ChannelTarget>>> {
        let mut out: HashMap<UserId, Vec<ChannelTarget>> = HashMap::new();
        let which = match purpose {
            Purpose::Ring => " AND use_rings = 1",
            Purpose::Fallback => " AND use_fallback = 1",
            Purpose::Test => "",
        };
        for chunk in user_ids.chunks(500) {
            let sql = format!(
                "SELECT id, user_id, kind, address, secret FROM channels WHERE status <> 'pending'{which} AND user_id IN ({}) ORDER BY created_at",
                placeholders(1, chunk.len())
            );
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for id in chunk {
                query = query.bind(id);
            }
            for row in query.fetch_all(&self.pool).await? {
                let target = target_of(keys, &row)?;
                out.entry(target.user_id).or_default().push(target);
            }
        }
        Ok(out)
    }

    /// One channel's target (a test), whatever it is used for.
    pub async fn channel_target(&self, keys: &Keys, id: &ChannelId) -> Result<Option<ChannelTarget>> {
        let row = sqlx::query("SELECT id, user_id, kind, address, secret FROM channels WHERE id = $1 AND status <> 'pending'")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| target_of(keys, &r)).transpose()
    }

    /// Takes the sends of entries to channels for `purpose`, many in one statement; answers the
    /// pairs taken (not those taken before).
    pub async fn claim_channel_sends(
        &self,
        pairs: &[(LogId, ChannelId)],
        purpose: Purpose,
        now: Timestamp,
    ) -> Result<HashSet<(LogId, ChannelId)>> {
        let mut seen = HashSet::new();
        let unique: Vec<&(LogId, ChannelId)> = pairs.iter().filter(|p| seen.insert(**p)).collect();
        let mut taken = HashSet::new();
        for chunk in unique.chunks(250) {
            let sql = format!(
                "INSERT INTO channel_sends (log_id, channel_id, purpose, status, created_at) VALUES {}
                 ON CONFLICT (log_id, channel_id, purpose) DO NOTHING RETURNING log_id, channel_id",
                super::value_rows(3, chunk.len(), 2, |c, p| if c == 1 { format!("{p}, $1, 'sending', CAST($2 AS BIGINT)") } else { p })
            );
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(purpose.as_str()).bind(to_millis(now));
            for (log_id, channel_id) in chunk {
                query = query.bind(log_id).bind(channel_id);
            }
            for row in query.fetch_all(&self.pool).await? {
                taken.insert((row.try_get("log_id")?, row.try_get("channel_id")?));
            }
        }
        Ok(taken)
    }

    /// Records many sends' answers at once (see [`Db::record_channel_send`]).
    pub async fn record_channel_sends(&self, results: &[(LogId, ChannelId, bool, Option<u16>)], purpose: Purpose) -> Result<()> {
        for chunk in results.chunks(250) {
            let sql = format!(
                "UPDATE channel_sends SET status = v.column3, response_status = CAST(v.column4 AS BIGINT)
                 FROM (VALUES {}) AS v WHERE channel_sends.log_id = v.column1 AND channel_sends.channel_id = v.column2 AND channel_sends.purpose = $1",
                super::value_rows(2, chunk.len(), 4, |_, p| p)
            );
            let mut query = sqlx::query(AssertSqlSafe(sql)).bind(purpose.as_str());
            for (log_id, channel_id, ok, status) in chunk {
                query = query.bind(log_id).bind(channel_id).bind(if *ok { "sent" } else { "failed" }).bind(status.map(i64::from));
            }
            query.execute(&self.pool).await?;
        }
        // Each channel's state: a success makes it active; failures count up.
        let mut by_channel: HashMap<ChannelId, bool> = HashMap::new();
        for (_, channel_id, ok, _) in results {
            let any_ok = by_channel.entry(*channel_id).or_insert(false);
            *any_ok |= *ok;
        }
        let (fine, failed): (Vec<ChannelId>, Vec<ChannelId>) = {
            let (a, b): (Vec<_>, Vec<_>) = by_channel.into_iter().partition(|(_, ok)| *ok);
            (a.into_iter().map(|(id, _)| id).collect(), b.into_iter().map(|(id, _)| id).collect())
        };
        for (ids, sql) in [
            (&fine, "UPDATE channels SET failures = 0, status = 'active' WHERE status <> 'pending' AND id IN ({})"),
            (
                &failed,
                "UPDATE channels SET failures = failures + 1, status = CASE WHEN failures + 1 >= $1 THEN 'failing' ELSE status END
                 WHERE status <> 'pending' AND id IN ({})",
            ),
        ] {
            for chunk in ids.chunks(500) {
                let first = if sql.contains("$1") { 2 } else { 1 };
                let sql = sql.replace("{}", &placeholders(first, chunk.len()));
                let mut query = sqlx::query(AssertSqlSafe(sql));
                if first == 2 {
                    query = query.bind(FAILING_AFTER);
                }
                for id in chunk {
                    query = query.bind(id);
                }
                query.execute(&self.pool).await?;
            }
        }
        Ok(())
    }

    /// Records a send's answer: a success makes the channel active again; [`FAILING_AFTER`]
    /// failures in a row make it `failing`.
    pub async fn record_channel_send(
        &self,
        log_id: Option<&LogId>,
        channel_id: &ChannelId,
        purpose: Purpose,
        ok: bool,
        status: Option<u16>,
    ) -> Result<()> {
        if let Some(log_id) = log_id {
            sqlx::query(
                "UPDATE channel_sends SET status = $4, response_status = $5 WHERE log_id = $1 AND channel_id = $2 AND purpose = $3",
            )
            .bind(log_id)
            .bind(channel_id)
            .bind(purpose.as_str())
            .bind(if ok { "sent" } else { "failed" })
            .bind(status.map(i64::from))
            .execute(&self.pool)
            .await?;
        }
        let sql = if ok {
            "UPDATE channels SET failures = 0, status = 'active' WHERE id = $1 AND status <> 'pending'"
        } else {
            "UPDATE channels SET failures = failures + 1, status = CASE WHEN failures + 1 >= $2 THEN 'failing' ELSE status END
             WHERE id = $1 AND status <> 'pending'"
        };
        let mut query = sqlx::query(sql).bind(channel_id);
        if !ok {
            query = query.bind(FAILING_AFTER);
        }
        query.execute(&self.pool).await?;
        Ok(())
    }

    /// Links a pending channel by its link code to an address (a chat or user id); answers
    /// whose channel it was. The code goes; the address is kept sealed, with a keyed hash to
    /// find the channel by when the bot hears from it again.
    pub async fn link_channel(&self, keys: &Keys, kind: ChannelKind, code: &str, address: &str) -> Result<Option<UserId>> {
        let row = sqlx::query("SELECT id, user_id FROM channels WHERE kind = $1 AND link_code = $2 AND status = 'pending'")
            .bind(kind.as_str())
            .bind(link_code_hash(keys, kind, code))
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let id: ChannelId = row.try_get("id")?;
        sqlx::query("UPDATE channels SET status = 'active', link_code = NULL, address = $2, address_hash = $3 WHERE id = $1")
            .bind(id)
            .bind(keys.seal_str(&context(&id, "address"), address))
            .bind(keys.lookup_hash("channel-address", kind.as_str(), address))
            .execute(&self.pool)
            .await?;
        Ok(Some(row.try_get("user_id")?))
    }

    /// Whose linked channel of `kind` has this address (a Telegram chat, a LINE user).
    pub async fn channel_owner(&self, keys: &Keys, kind: ChannelKind, address: &str) -> Result<Option<UserId>> {
        Ok(sqlx::query_scalar(
            "SELECT user_id FROM channels WHERE kind = $1 AND address_hash = $2 AND status <> 'pending' ORDER BY created_at LIMIT 1",
        )
        .bind(kind.as_str())
        .bind(keys.lookup_hash("channel-address", kind.as_str(), address))
        .fetch_optional(&self.pool)
        .await?)
    }
}

impl Db {
    /// Sends to channels since `since`, by kind: (sent, failed). Never whose.
    pub async fn channel_send_counts(&self, since: Timestamp) -> Result<HashMap<String, (i64, i64)>> {
        let rows = sqlx::query(
            "SELECT c.kind, SUM(CASE WHEN s.status = 'sent' THEN 1 ELSE 0 END) AS sent, SUM(CASE WHEN s.status = 'failed' THEN 1 ELSE 0 END) AS failed
             FROM channel_sends s JOIN channels c ON c.id = s.channel_id WHERE s.created_at >= $1 GROUP BY c.kind",
        )
        .bind(to_millis(since))
        .fetch_all(&self.pool)
        .await?;
        let mut out = HashMap::new();
        for row in rows {
            let sent: Option<i64> = row.try_get("sent")?;
            let failed: Option<i64> = row.try_get("failed")?;
            out.insert(row.try_get("kind")?, (sent.unwrap_or(0), failed.unwrap_or(0)));
        }
        Ok(out)
    }
}

/// The keyed hash a pending channel's link code is kept as.
pub fn link_code_hash(keys: &Keys, kind: ChannelKind, code: &str) -> String {
    keys.lookup_hash("channel-link", kind.as_str(), code)
}

fn target_of(keys: &Keys, row: &sqlx::any::AnyRow) -> Result<ChannelTarget> {
    let id: ChannelId = row.try_get("id")?;
    let kind: String = row.try_get("kind")?;
    let address: Option<Vec<u8>> = row.try_get("address")?;
    let secret: Option<Vec<u8>> = row.try_get("secret")?;
    Ok(ChannelTarget {
        user_id: row.try_get("user_id")?,
        kind: ChannelKind::parse(&kind).ok_or_else(|| Error::Corrupt(format!("channel kind {kind:?}")))?,
        address: address.map(|a| keys.open_string(&context(&id, "address"), &a)).transpose()?.unwrap_or_default(),
        secret: secret.map(|s| keys.open_string(&context(&id, "secret"), &s)).transpose()?,
        id,
    })
}
