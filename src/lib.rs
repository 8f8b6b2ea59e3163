//! Assembles Hibiki's processes. `hibiki` (= `hibiki all`) runs the API, the scheduler and the
//! workers in one process; `api`, `scheduler` and `worker` run one part each.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use hibiki_api::AppState;
use hibiki_common::infra::config::Config;
use hibiki_common::infra::crypto::Keys;
use hibiki_common::infra::queue::Queues;
use hibiki_common::infra::status::RuntimeStatus;
use hibiki_common::infra::storage::Db;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// Which parts a process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    pub api: bool,
    pub scheduler: bool,
    pub worker: bool,
}

impl Parts {
    pub const ALL: Parts = Parts { api: true, scheduler: true, worker: true };
}

/// A running Hibiki: its address (when it serves HTTP), its database, and the handle that
/// stops it gracefully.
pub struct Application {
    pub addr: Option<SocketAddr>,
    pub db: Db,
    /// The name this process's scheduler holds the leader's lease by, when it runs one.
    pub scheduler_id: Option<String>,
    /// The clock the API, the scheduler and the workers go by (a test steps it instead of
    /// waiting or aging rows).
    pub clock: hibiki_common::domain::time::Clock,
    /// Its job queues (a test waits for them to drain).
    pub queues: Queues,
    shutdown: CancellationToken,
    tasks: JoinSet<()>,
}

/// Makes this process's counters exist at zero from the start, so dashboards and alerts
/// (rates, ratios) see a series before the first event of its kind.
fn register_metrics(parts: Parts) {
    metrics::gauge!(hibiki_common::metric_names::DATABASE_UP).set(0.0);
    metrics::gauge!(hibiki_common::metric_names::QUEUE_DEPTH).set(0.0);
    if parts.api {
        metrics::counter!(hibiki_common::metric_names::OTP_REQUESTED_TOTAL).increment(0);
        metrics::counter!(hibiki_common::metric_names::REMINDERS_CREATED_TOTAL).increment(0);
        metrics::counter!(hibiki_common::metric_names::NOTIFICATIONS_SHOWN_TOTAL).increment(0);
        for outcome in ["verified", "invalid", "expired", "attempts_exceeded"] {
            metrics::counter!(hibiki_common::metric_names::SIGN_IN_TOTAL, "outcome" => outcome).increment(0);
        }
        for scope in ["auth", "api", "feed"] {
            metrics::counter!(hibiki_common::metric_names::RATE_LIMITED_TOTAL, "scope" => scope).increment(0);
        }
        for action in ["complete", "snooze"] {
            metrics::counter!(hibiki_common::metric_names::NOTIFICATION_ACTIONS_TOTAL, "action" => action).increment(0);
        }
    }
    if parts.scheduler {
        metrics::gauge!(hibiki_common::metric_names::SCHEDULER_LEADER).set(0.0);
        metrics::gauge!(hibiki_common::metric_names::SCHEDULER_WHEEL_SIZE).set(0.0);
        metrics::counter!(hibiki_common::metric_names::SCHEDULER_REQUEUED_TOTAL).increment(0);
        for result in ["on_time", "late", "missed"] {
            metrics::counter!(hibiki_common::metric_names::SCHEDULER_FIRED_TOTAL, "result" => result).increment(0);
        }
    }
    if parts.worker {
        for outcome in ["sent", "failed", "gone", "no_devices"] {
            metrics::counter!(hibiki_common::metric_names::PUSHES_TOTAL, "outcome" => outcome).increment(0);
        }
        metrics::counter!(hibiki_common::metric_names::PUSH_RETRIES_TOTAL).increment(0);
        metrics::counter!(hibiki_common::metric_names::VAPID_SIGNATURES_TOTAL).increment(0);
        metrics::counter!(hibiki_common::metric_names::MAIL_SENT_TOTAL).increment(0);
        metrics::counter!(hibiki_common::metric_names::MAIL_FAILED_TOTAL).increment(0);
        metrics::counter!(hibiki_common::metric_names::HOUSEKEEPING_RUNS_TOTAL).increment(0);
        for worker in ["push", "mail", "housekeeping"] {
            metrics::counter!(hibiki_common::metric_names::WORKER_RESTARTS_TOTAL, "worker" => worker).increment(0);
        }
    }
}

/// What every process reports for the alerts: whether the database answers, and the backlog.
async fn refresh_gauges(db: &Db, queues: &Queues) {
    let up = matches!(tokio::time::timeout(Duration::from_secs(3), db.ping()).await, Ok(Ok(())));
    metrics::gauge!(hibiki_common::metric_names::DATABASE_UP).set(if up { 1.0 } else { 0.0 });
    if let Ok(Ok(depth)) = tokio::time::timeout(Duration::from_secs(3), queues.depth()).await {
        metrics::gauge!(hibiki_common::metric_names::QUEUE_DEPTH).set(depth as f64);
    }
}

/// Opens the database named by the configuration and applies the migrations.
pub async fn open_database(config: &Config) -> anyhow::Result<Db> {
    let db = Db::connect(&config.database_url()).await.context("connecting to the database")?;
    db.migrate().await.context("applying migrations")?;
    Ok(db)
}

/// `hibiki backup FILE`: a consistent copy of the embedded database, readable by this user
/// only; refused on PostgreSQL (use `pg_dump`) and over an existing file. Returns its size.
pub async fn backup(config: &Config, file: &std::path::Path) -> anyhow::Result<u64> {
    if config.database_url().starts_with("postgres") {
        anyhow::bail!("hibiki backup copies the embedded SQLite database; on PostgreSQL use pg_dump");
    }
    if file.exists() {
        anyhow::bail!("{} exists already; a backup never overwrites a file", file.display());
    }
    hibiki_common::infra::files::restrict_umask();
    let db = open_database(config).await?;
    if !db.backup_into(file).await? {
        anyhow::bail!("hibiki backup copies the embedded SQLite database; on PostgreSQL use pg_dump");
    }
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))?;
    Ok(std::fs::metadata(file)?.len())
}

/// What `hibiki rekey` did.
#[derive(Debug)]
pub struct Rekeyed {
    pub values: u64,
    pub key_id: String,
    /// The new key was generated into the data directory (else: configure it now).
    pub generated: bool,
}

/// `hibiki rekey`: re-seals every sealed value under the new data key (`HIBIKI_NEW_DATA_KEY`,
/// or a newly generated one when the data key was generated). Run it with Hibiki stopped.
pub async fn rekey(config: &Config) -> anyhow::Result<Rekeyed> {
    hibiki_common::infra::files::restrict_umask();
    let old = hibiki_common::infra::keys::data_key(config)?;
    let Some(new) = hibiki_common::infra::keys::new_data_key(config)? else {
        anyhow::bail!("HIBIKI_DATA_KEY is configured: set HIBIKI_NEW_DATA_KEY to the key to re-seal under (base64, 32 bytes)");
    };
    let keys = Keys::from_data_key(&new).also_opening(&old);
    let db = open_database(config).await?;
    let values = db.reseal_all(&keys).await.context("re-sealing")?;
    let generated = config.new_data_key.is_none();
    if generated {
        hibiki_common::infra::keys::install_new_data_key(config)?;
    }
    Ok(Rekeyed { values, key_id: keys.key_id(), generated })
}

impl Application {
    /// Starts the chosen parts. The HTTP listener is bound before this returns, so a test can
    /// use `addr` at once (port 0 picks a free port).
    pub async fn start(config: Config, parts: Parts) -> anyhow::Result<Application> {
        Self::start_with(config, parts, hibiki_scheduler::SchedulerConfig::default()).await
    }

    /// As [`Application::start`], with the scheduler's timings chosen (tests shorten them).
    pub async fn start_with(
        config: Config,
        parts: Parts,
        scheduler_config: hibiki_scheduler::SchedulerConfig,
    ) -> anyhow::Result<Application> {
        Self::start_tuned(config, parts, scheduler_config, hibiki_worker::delivery::RetryTiming::default()).await
    }

    /// As [`Application::start_with`], with the push retries' backoff chosen too (tests
    /// shorten it).
    pub async fn start_tuned(
        config: Config,
        parts: Parts,
        scheduler_config: hibiki_scheduler::SchedulerConfig,
        retry: hibiki_worker::delivery::RetryTiming,
    ) -> anyhow::Result<Application> {
        config.check()?;
        hibiki_common::infra::files::restrict_umask();
        hibiki_common::infra::files::create_private_dir(&config.data_dir)
            .with_context(|| format!("creating {}", config.data_dir.display()))?;
        let db = open_database(&config).await?;
        let keys = Keys::from_data_key(&hibiki_common::infra::keys::data_key(&config)?);
        let vapid = hibiki_common::infra::keys::vapid_keys(&config)?;
        let status = Arc::new(RuntimeStatus::default());
        let clock = hibiki_common::domain::time::Clock::system();
        register_metrics(parts);
        let shutdown = CancellationToken::new();
        let mut tasks = JoinSet::new();

        let (queues, wakers) = Queues::connect(&config).await.context("connecting to the queues")?;
        // What an earlier version (or a looser umask) left readable to others.
        hibiki_common::infra::files::tighten(&config.data_dir).with_context(|| format!("securing {}", config.data_dir.display()))?;
        if parts.worker {
            let worker = hibiki_worker::WorkerParts {
                db: db.clone(),
                keys: keys.clone(),
                vapid: vapid.clone(),
                queues: queues.clone(),
                wakers,
                clock: clock.clone(),
                retry,
            };
            hibiki_worker::start(&config, worker, &mut tasks, &shutdown)?;
        }
        let mut scheduler_id = None;
        if parts.scheduler {
            let mut scheduler_config = scheduler_config.clone();
            if let Some(ms) = config.fallback_minute_ms {
                scheduler_config.fallback_minute = jiff::SignedDuration::from_millis(ms.max(1) as i64);
            }
            let scheduler = hibiki_scheduler::Scheduler::new(db.clone(), queues.clone(), status.clone(), scheduler_config, clock.clone());
            scheduler_id = Some(scheduler.id().to_owned());
            tasks.spawn(scheduler.run(shutdown.clone()));
        }

        let mut addr = None;
        if parts.api {
            let listener = tokio::net::TcpListener::bind(config.listen).await.with_context(|| format!("binding {}", config.listen))?;
            addr = Some(listener.local_addr()?);
            let state = AppState::new(config, db.clone(), keys, vapid, queues.clone(), status, clock.clone());
            let limiters = state.limiters.clone();
            let limits = hibiki_api::serve::ConnectionLimits::from_config(&state.config);
            let app = hibiki_api::router(state);
            tasks.spawn(hibiki_api::serve::serve(listener, app, limits, shutdown.clone()));
            let stop = shutdown.clone();
            tasks.spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_secs(60));
                loop {
                    tokio::select! {
                        _ = tick.tick() => limiters.shrink(),
                        _ = stop.cancelled() => break,
                    }
                }
            });
            tracing::info!(address = %addr.expect("bound"), "Hibiki is listening");
        }
        Ok(Application { addr, db, scheduler_id, clock, queues, shutdown, tasks })
    }

    /// Asks every part to stop and waits for them (in-flight requests finish).
    /// Serves this process's Prometheus metrics at `addr`/metrics. The database and queue
    /// gauges are read when Prometheus asks, so an idle process does not wake up for them.
    pub async fn serve_metrics(
        &mut self,
        addr: SocketAddr,
        handle: metrics_exporter_prometheus::PrometheusHandle,
    ) -> anyhow::Result<SocketAddr> {
        let (db, queues) = (self.db.clone(), self.queues.clone());
        let metrics = axum::Router::new().route(
            "/metrics",
            axum::routing::get(move || {
                let (db, queues, handle) = (db.clone(), queues.clone(), handle.clone());
                async move {
                    refresh_gauges(&db, &queues).await;
                    handle.render()
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("binding {addr} for metrics"))?;
        let bound = listener.local_addr()?;
        let stop = self.shutdown.clone();
        self.tasks.spawn(async move {
            if let Err(e) = axum::serve(listener, metrics).with_graceful_shutdown(stop.cancelled_owned()).await {
                tracing::error!(error = %e, "metrics server failed");
            }
        });
        Ok(bound)
    }

    pub async fn stop(mut self) {
        self.shutdown.cancel();
        while self.tasks.join_next().await.is_some() {}
        self.db.close().await;
    }

    /// Runs until Ctrl-C or SIGTERM, then stops gracefully.
    pub async fn run_until_signal(self) {
        shutdown_signal().await;
        tracing::info!("shutting down");
        self.stop().await;
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
}
