//! The job queues: apalis on Redis (`HIBIKI_REDIS_URL`) or on SQLite (the embedded default).
//!
//! The SQLite queues live in their own file (`<data dir>/queue.sqlite`): apalis' setup turns
//! `synchronous` off for the database it runs on, and the reminders' own data must keep full
//! durability. The queue is never the source of truth anyway: the database's delivery log
//! says what still has to be sent, and the scheduler re-enqueues what a queue lost.

use std::time::Duration;

use apalis::prelude::{BoxDynError, TaskSink};
use apalis_redis::RedisStorage;
use apalis_sqlite::SqliteStorage;
use apalis_sqlite::callback::HookCallbackListener;

use crate::infra::config::Config;
use crate::infra::jobs::{MailJob, SendJob};

/// How often a Redis-backed worker looks for new jobs. apalis' default heartbeat (30 s) would
/// be the pickup latency of an idle worker.
pub const REDIS_POLL: Duration = Duration::from_millis(50);
/// Workers' heartbeat: how soon a dead worker's jobs are taken over.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
#[error("queue: {0}")]
pub struct QueueError(pub String);

/// Removes the jobs whose data contains ARGV[1] (a user id) from a Redis queue: their data,
/// their metadata, and their place in the active list or the scheduled set.
const FORGET_SCRIPT: &str = r#"
local removed = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local id, data = fields[i], fields[i + 1]
  if string.find(data, ARGV[1], 1, true) then
    local status = redis.call('HGET', KEYS[2] .. ':' .. id, 'status')
    if status ~= 'Running' then
      redis.call('HDEL', KEYS[1], id)
      redis.call('DEL', KEYS[2] .. ':' .. id)
      redis.call('LREM', KEYS[3], 0, id)
      redis.call('ZREM', KEYS[4], id)
      removed = removed + 1
    end
  end
end
return removed
"#;

/// Producers' handle on the queues; cheap to clone.
#[derive(Clone)]
pub enum Queues {
    Sqlite { push: SqliteStorage<SendJob>, mail: SqliteStorage<MailJob> },
    Redis { push: RedisStorage<SendJob>, mail: RedisStorage<MailJob>, conn: apalis_redis::ConnectionManager },
}

impl std::fmt::Debug for Queues {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Queues::Sqlite { .. } => "Queues::Sqlite",
            Queues::Redis { .. } => "Queues::Redis",
        })
    }
}

/// What a consumer in this process needs besides the storages: SQLite's change listeners,
/// which wake a worker as soon as a job is written (no polling delay).
pub enum Wakers {
    Sqlite { push: HookCallbackListener, mail: HookCallbackListener },
    Redis,
}

/// Jobs a push worker takes per fetch: a burst of reminders due in one second arrives as
/// thousands of jobs at once, and each fetch is a round trip.
const PUSH_BATCH: usize = 500;
const MAIL_BATCH: usize = 50;

fn sqlite_config(queue: &str, batch: usize) -> apalis_sqlite::Config {
    apalis_sqlite::Config::default().queue(queue).heartbeat_interval(HEARTBEAT).batch_size(batch)
}

fn redis_config(queue: &str, batch: usize) -> apalis_redis::Config {
    apalis_redis::Config::default().queue(queue).heartbeat_interval(HEARTBEAT).batch_size(batch)
}

impl Queues {
    pub async fn connect(config: &Config) -> anyhow::Result<(Queues, Wakers)> {
        let push_queue = format!("{}::push", config.queue_namespace);
        let mail_queue = format!("{}::mail", config.queue_namespace);
        match &config.redis_url {
            Some(url) => {
                let conn = apalis_redis::connect(url.as_str()).await?;
                let push = RedisStorage::new(conn.clone()).with_config(redis_config(&push_queue, PUSH_BATCH));
                let mail = RedisStorage::new(conn.clone()).with_config(redis_config(&mail_queue, MAIL_BATCH));
                Ok((Queues::Redis { push, mail, conn }, Wakers::Redis))
            }
            None => {
                crate::infra::files::create_private_dir(&config.data_dir)?;
                let url = format!("sqlite://{}?mode=rwc", config.data_dir.join("queue.sqlite").display());
                // One pool per queue: a pool's update hook sees its own writes, and each worker
                // needs its own listener.
                let (push_pool, push_hook) = SqliteStorage::connect_with_callback(&url)?;
                let (mail_pool, mail_hook) = SqliteStorage::connect_with_callback(&url)?;
                SqliteStorage::setup(&push_pool).await?;
                let push = SqliteStorage::new(&push_pool).with_config(sqlite_config(&push_queue, PUSH_BATCH));
                let mail = SqliteStorage::new(&mail_pool).with_config(sqlite_config(&mail_queue, MAIL_BATCH));
                Ok((Queues::Sqlite { push, mail }, Wakers::Sqlite { push: push_hook, mail: mail_hook }))
            }
        }
    }

    pub async fn push(&self, job: SendJob) -> Result<(), QueueError> {
        let result: Result<(), BoxDynError> = match self {
            Queues::Sqlite { push, .. } => push.clone().push(job).await.map_err(Into::into),
            Queues::Redis { push, .. } => push.clone().push(job).await.map_err(Into::into),
        };
        result.map_err(|e| QueueError(e.to_string()))
    }

    pub async fn mail(&self, job: MailJob) -> Result<(), QueueError> {
        let result: Result<(), BoxDynError> = match self {
            Queues::Sqlite { mail, .. } => mail.clone().push(job).await.map_err(Into::into),
            Queues::Redis { mail, .. } => mail.clone().push(job).await.map_err(Into::into),
        };
        result.map_err(|e| QueueError(e.to_string()))
    }

    /// Removes jobs that finished (done, failed or killed) more than `age` ago, from both
    /// queues: a finished job is of no more use, and it names an account.
    pub async fn vacuum_finished(&self, age: Duration) -> Result<u64, QueueError> {
        match self {
            Queues::Sqlite { push, .. } => sqlx::query(
                "DELETE FROM Jobs WHERE status IN ('Done', 'Failed', 'Killed') AND done_at IS NOT NULL
                 AND done_at <= strftime('%s', 'now') - ?1",
            )
            .bind(age.as_secs() as i64)
            .execute(push.pool())
            .await
            .map(|r| r.rows_affected())
            .map_err(|e| QueueError(e.to_string())),
            Queues::Redis { push, mail, .. } => {
                use apalis_core::backend::Vacuum;
                let pushed = push.clone().vacuum_before(age).await.map_err(|e| QueueError(e.to_string()))?;
                let mailed = mail.clone().vacuum_before(age).await.map_err(|e| QueueError(e.to_string()))?;
                Ok((pushed + mailed) as u64)
            }
        }
    }

    /// Removes every job that names `user_id` and is not running right now (account
    /// deletion); a running one finds the account gone and sends nothing.
    pub async fn forget_user(&self, user_id: &crate::domain::ids::UserId) -> Result<u64, QueueError> {
        match self {
            Queues::Sqlite { push, .. } => sqlx::query("DELETE FROM Jobs WHERE status <> 'Running' AND instr(CAST(job AS TEXT), ?1) > 0")
                .bind(user_id.to_string())
                .execute(push.pool())
                .await
                .map(|r| r.rows_affected())
                .map_err(|e| QueueError(e.to_string())),
            Queues::Redis { push, mail, conn } => {
                let mut removed = 0u64;
                for config in [push.get_config(), mail.get_config()] {
                    let n: u64 = redis::Script::new(FORGET_SCRIPT)
                        .key(config.job_data_hash())
                        .key(config.job_meta_hash())
                        .key(config.active_jobs_list())
                        .key(config.scheduled_jobs_set())
                        .arg(user_id.to_string())
                        .invoke_async(&mut conn.clone())
                        .await
                        .map_err(|e| QueueError(e.to_string()))?;
                    removed += n;
                }
                Ok(removed)
            }
        }
    }

    /// Jobs waiting to be picked up, over both queues.
    pub async fn depth(&self) -> Result<i64, QueueError> {
        match self {
            Queues::Sqlite { push, .. } => sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM Jobs WHERE status = 'Pending'")
                .fetch_one(push.pool())
                .await
                .map_err(|e| QueueError(e.to_string())),
            Queues::Redis { push, mail, conn } => {
                let mut conn = conn.clone();
                let mut total = 0i64;
                for list in [push.get_config().active_jobs_list(), mail.get_config().active_jobs_list()] {
                    let n: i64 = redis::cmd("LLEN").arg(list).query_async(&mut conn).await.map_err(|e| QueueError(e.to_string()))?;
                    total += n;
                }
                Ok(total)
            }
        }
    }
}
