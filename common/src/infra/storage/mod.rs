//! The database: SQLite (embedded) or PostgreSQL (scaled out), through one `AnyPool` and one
//! SQL dialect (`$n` placeholders, 0/1 booleans, Unix-millisecond instants). Each backend has
//! its own migrations because their DDL differs.

mod admin;
mod auth;
mod briefs;
mod calendar;
mod channels;
mod children;
mod claims;
mod delivery;
mod fallback;
mod fires;
mod holds;
mod invites;
mod leases;
mod lists;
mod rekey;
mod reminders;
mod retention;
mod sealed;
mod sends;
mod subscriptions;
mod tokens;
mod users;

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

pub use admin::{AdminStats, AdminUser, DeliveryCounts, TimelineBucket};
pub use auth::{OtpRow, StoreOtp};
pub use channels::{ChannelTarget, NewChannelRow, Purpose, link_code_hash};
pub use claims::CLAIM_CHUNK;
pub use delivery::{Claimed, DeliveryLog, DeviceDelivery, LATE_WINDOW, PendingDelivery};
pub use fallback::{FALLBACKS_PER_DAY, FallbackClaim, FallbackMail, MAIL_KIND_FALLBACK};
pub use fires::Fire;
pub use invites::InviteMail;
pub use lists::ReminderPeople;
pub use reminders::ReminderQuery;
pub use retention::{ARCHIVE_KEPT, ARCHIVED_PER_ACCOUNT, DELIVERY_HISTORY, Removed};
pub use sends::{DeviceResult, DoneMessage, Outgoing, OutgoingContent, Recipient, STALE_SEND, Settled};
pub use subscriptions::{DeviceStatus, MAX_DEVICES, Subscription, SubscriptionKeys};
pub use tokens::{TokenUser, TriggerTarget};
pub use users::{SessionRow, SessionTtl, User};

use crate::Result;
use crate::domain::ids::ReminderId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// PostgreSQL channel on which reminder changes are announced to schedulers in other
/// processes (payload: the reminder id).
pub const CHANGES_CHANNEL: &str = "hibiki_reminders";

/// The change notice that wakes the scheduler's fallback pass (never a reminder id: those are UUIDs).
const FALLBACK_NOTICE: &str = "fallback";

/// A change notice to the schedulers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A reminder's fires changed.
    Reminder(ReminderId),
    /// An email fallback became due now, or a daily brief's time changed: the scheduler's
    /// timed pass looks again.
    Fallback,
}

impl Change {
    /// As a NOTIFY payload.
    pub fn payload(&self) -> String {
        match self {
            Change::Reminder(id) => id.to_string(),
            Change::Fallback => FALLBACK_NOTICE.to_owned(),
        }
    }

    /// A notice from another process; `None` for one that names nothing we know.
    pub fn from_payload(payload: &str) -> Option<Change> {
        if payload == FALLBACK_NOTICE { Some(Change::Fallback) } else { payload.parse().ok().map(Change::Reminder) }
    }
}

/// The database with the keys its sealed columns are read and written under: the one thing
/// a use case is given to keep or find what it needs.
#[derive(Debug, Clone)]
pub struct Store {
    pub db: Db,
    pub keys: crate::infra::crypto::Keys,
}

#[derive(Debug, Clone)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    url: String,
    /// Reminder ids whose fires changed, for a scheduler in this process.
    changes: tokio::sync::broadcast::Sender<Change>,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

impl Db {
    pub async fn connect(url: &str) -> Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            return Err(crate::Error::UnsupportedDatabase(url.split(':').next().unwrap_or("").to_owned()));
        };
        if backend == Backend::Sqlite {
            create_sqlite_parent_dir(url)?;
        }
        let options = AnyConnectOptions::from_str(url)?;
        let pool = match backend {
            Backend::Sqlite => {
                AnyPoolOptions::new()
                    .max_connections(8)
                    .acquire_timeout(Duration::from_secs(10))
                    .after_connect(|conn, _| {
                        Box::pin(async move {
                            // WAL lets readers run beside the one writer; FULL sync keeps a
                            // committed reminder through a power loss; the busy timeout makes
                            // concurrent writers wait instead of failing.
                            conn.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;").await?;
                            Ok(())
                        })
                    })
                    .connect_with(options)
                    .await?
            }
            Backend::Postgres => {
                AnyPoolOptions::new().max_connections(16).acquire_timeout(Duration::from_secs(10)).connect_with(options).await?
            }
        };
        let (changes, _) = tokio::sync::broadcast::channel(4096);
        Ok(Db { pool, backend, url: url.to_owned(), changes })
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// Tells schedulers that a reminder's fires changed.
    pub async fn reminder_changed(&self, reminder_id: &ReminderId) {
        self.announce(Change::Reminder(*reminder_id)).await;
    }

    /// Tells schedulers of a change: in this process directly, in others through PostgreSQL
    /// NOTIFY. Best effort: the scheduler also reconciles periodically.
    pub async fn announce(&self, change: Change) {
        if self.backend == Backend::Postgres
            && let Err(e) = sqlx::query("SELECT pg_notify('hibiki_reminders', $1)").bind(change.payload()).execute(&self.pool).await
        {
            tracing::warn!(error = %e, "could not announce a reminder change");
        }
        let _ = self.changes.send(change);
    }

    pub fn subscribe_changes(&self) -> tokio::sync::broadcast::Receiver<Change> {
        self.changes.subscribe()
    }

    pub async fn migrate(&self) -> Result<()> {
        match self.backend {
            Backend::Sqlite => SQLITE_MIGRATIONS.run(&self.pool).await?,
            Backend::Postgres => POSTGRES_MIGRATIONS.run(&self.pool).await?,
        }
        Ok(())
    }

    /// Applies the migrations up to and including `version` only: tests of a migration make a
    /// database as an older version left it.
    pub async fn migrate_to(&self, version: i64) -> Result<()> {
        match self.backend {
            Backend::Sqlite => SQLITE_MIGRATIONS.run_to(version, &self.pool).await?,
            Backend::Postgres => POSTGRES_MIGRATIONS.run_to(version, &self.pool).await?,
        }
        Ok(())
    }

    /// A transaction that will write after reading: SQLite takes its write lock at the start
    /// (`BEGIN IMMEDIATE`; a deferred one that reads first cannot take it while another
    /// connection writes, and fails at once); PostgreSQL's rows lock as they are written.
    pub(crate) async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Any>> {
        Ok(match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        })
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A cheap round trip, for health checks.
    pub async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

fn create_sqlite_parent_dir(url: &str) -> Result<()> {
    let path = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let path = path.split('?').next().unwrap_or("");
    if path.is_empty() || path == ":memory:" {
        return Ok(());
    }
    if let Some(parent) = std::path::Path::new(path).parent()
        && !parent.as_os_str().is_empty()
    {
        std::fs::create_dir_all(parent).map_err(|source| crate::Error::CreateDir { path: parent.to_owned(), source })?;
    }
    Ok(())
}

/// `$first, $first+1, …` for `n` parameters.
fn placeholders(first: usize, n: usize) -> String {
    (first..first + n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// `($f, $f+1, …), (…)`: `rows` groups of `width` parameters numbered from `first`; `wrap`
/// may dress a parameter (a cast, a repeated one) by its position in the row.
fn value_rows(first: usize, rows: usize, width: usize, wrap: impl Fn(usize, String) -> String) -> String {
    (0..rows)
        .map(|r| {
            let params: Vec<String> = (0..width).map(|c| wrap(c, format!("${}", first + r * width + c))).collect();
            format!("({})", params.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn flag(b: bool) -> i64 {
    i64::from(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_number_rows_in_order() {
        assert_eq!(placeholders(3, 3), "$3, $4, $5");
        assert_eq!(value_rows(1, 2, 2, |_, p| p), "($1, $2), ($3, $4)");
        assert_eq!(value_rows(2, 1, 2, |c, p| if c == 1 { format!("CAST({p} AS BIGINT)") } else { p }), "($2, CAST($3 AS BIGINT))");
    }
}
