//! `cargo run --release --example lateness -- [sqlite|postgres] [N ...]`: how late Hibiki's
//! pushes are when N reminders fall due in the same second, measured end to end in one
//! process (API off; scheduler, queue, push worker on) against a loopback push service that
//! answers 201 at once. Lateness is what the delivery log records: the first push-service
//! answer for the occurrence minus its due second. Also prints the scheduler's resident
//! memory per pending occurrence and its idle wake-ups. Figures for BENCHMARKS.md; nothing
//! here passes or fails.
//!
//! With `mixed` after the backend (`-- sqlite mixed 10000`), a quarter of the people are in
//! their quiet hours (their rings are held, not due now) and a tenth have a webhook channel
//! besides push (the same loopback service answers it): the lateness is that of what is due now.
//!
//! `HIBIKI_BENCH_NO_QUIET=1` or `HIBIKI_BENCH_NO_CHANNELS=1` leave one of the two out.
//!
//! postgres uses PostgreSQL at HIBIKI_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres)
//! with Redis queues at HIBIKI_TEST_REDIS_URL (default redis://127.0.0.1:6379).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::http::StatusCode;
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hibiki::{Application, Parts};
use hibiki_common::domain::recurrence::Recurrence;
use hibiki_common::domain::reminder::{Contents, Timing};
use hibiki_common::infra::config::Config;
use hibiki_common::infra::crypto::Keys;
use jiff::{SignedDuration, Timestamp};

const PER_USER: usize = 100;

/// A push service that accepts everything (the figures are about Hibiki, not the sink).
async fn start_sink(received: Arc<AtomicU64>) -> u16 {
    // Pushes count ones, webhook sends billions: one counter tells both.
    let counting = |received: Arc<AtomicU64>, by: u64, status: StatusCode| {
        post(move |_body: axum::body::Bytes| {
            let received = received.clone();
            async move {
                received.fetch_add(by, Ordering::Relaxed);
                status
            }
        })
    };
    let app = Router::new()
        .route("/push/{id}", counting(received.clone(), 1, StatusCode::CREATED))
        .route("/hook/{id}", counting(received, 1_000_000_000, StatusCode::OK));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    port
}

fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0)
        * 1024
}

/// Context switches of every thread of this process (each one is a wake-up after a sleep or
/// a preemption).
fn context_switches() -> u64 {
    let mut total = 0;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for task in tasks.flatten() {
            let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
            for line in status.lines() {
                if let Some(v) = line.strip_prefix("voluntary_ctxt_switches:").or_else(|| line.strip_prefix("nonvoluntary_ctxt_switches:"))
                {
                    total += v.trim().parse::<u64>().unwrap_or(0);
                }
            }
        }
    }
    total
}

fn percentile(sorted: &[i64], p: f64) -> i64 {
    hibiki_common::infra::status::percentile(sorted, p).unwrap_or(0)
}

async fn fresh_config(backend: &str, dir: &std::path::Path) -> Config {
    let mut config = Config::with_data_dir(dir);
    config.metrics_listen = "off".into();
    config.allow_private_push = true;
    // Every push goes to one loopback origin; the per-origin limit (1,000/s by default) would
    // measure itself. Raised as in the send benchmark.
    config.push_rate_per_second = 1_000_000;
    config.queue_namespace = format!("bench-{}", uuid::Uuid::new_v4().simple());
    if backend == "postgres" {
        use sqlx::Connection;
        let admin = std::env::var("HIBIKI_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
        let name = format!("hibiki_bench_{}", uuid::Uuid::new_v4().simple());
        let mut conn = sqlx::PgConnection::connect(&admin).await.expect("PostgreSQL");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&mut conn).await.unwrap();
        config.database_url = Some(format!("{}/{name}", admin.rsplit_once('/').unwrap().0));
        config.redis_url = Some(std::env::var("HIBIKI_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into()));
    }
    config
}

async fn run(backend: &str, n: usize, mixed: bool) {
    let dir = std::env::temp_dir().join(format!("hibiki-lateness-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = fresh_config(backend, &dir).await;
    let received = Arc::new(AtomicU64::new(0));
    let port = start_sink(received.clone()).await;
    let hook_port = start_sink(received.clone()).await;

    // Users, one device each, and N reminders due far ahead; then all moved to one second.
    let db = hibiki::open_database(&config).await.unwrap();
    let keys = Keys::from_data_key(&hibiki_common::infra::keys::data_key(&config).unwrap());
    let device = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
    let p256dh = URL_SAFE_NO_PAD.encode(device.public_key().to_sec1_bytes());
    let auth = URL_SAFE_NO_PAD.encode([9u8; 16]);
    let setup = Instant::now();
    let far = Timestamp::now() + SignedDuration::from_hours(1);
    let users = n.div_ceil(PER_USER);
    let mut tasks = tokio::task::JoinSet::new();
    for u in 0..users {
        let (db, keys, p256dh, auth) = (db.clone(), keys.clone(), p256dh.clone(), auth.clone());
        let count = PER_USER.min(n - u * PER_USER);
        tasks.spawn(async move {
            let now = Timestamp::now();
            let (user, _) = db
                .find_or_create_user(
                    &hibiki_common::domain::email::Email::parse(&format!("bench{u}@example.com")).unwrap(),
                    hibiki_common::domain::states::Language::En,
                    now,
                )
                .await
                .unwrap();
            let endpoint = format!("http://127.0.0.1:{port}/push/{u}");
            db.upsert_subscription(&user.id, &endpoint, &p256dh, &auth, &serde_json::json!({}), now).await.unwrap();
            if mixed && u % 4 == 0 && std::env::var_os("HIBIKI_BENCH_NO_QUIET").is_none() {
                // Quiet hours around now, in UTC: everything of theirs is held.
                let hh = |t: Timestamp| t.to_zoned(jiff::tz::TimeZone::UTC).strftime("%H:%M").to_string();
                let mut settings = db.settings(&user.id).await.unwrap();
                settings.quiet_hours = Some(hibiki_common::domain::quiet::QuietHours {
                    start: hh(now - SignedDuration::from_hours(1)),
                    end: hh(now + SignedDuration::from_hours(3)),
                });
                db.save_settings(&user.id, &settings, now).await.unwrap();
            }
            if mixed && u % 10 == 1 && std::env::var_os("HIBIKI_BENCH_NO_CHANNELS").is_none() {
                // A webhook lives elsewhere than the push service: its own origin (and budget).
                let url = format!("http://127.0.0.1:{hook_port}/hook/{u}");
                let secret = hibiki_common::domain::channels::new_webhook_secret([7u8; 24]);
                let row = hibiki_common::infra::storage::NewChannelRow {
                    kind: hibiki_common::domain::channels::ChannelKind::Webhook,
                    label: "bench",
                    status: hibiki_common::domain::channels::ChannelStatus::Active,
                    address: Some(&url),
                    secret: Some(&secret),
                    link_code: None,
                };
                db.create_channel(&keys, &user.id, row, now).await.unwrap();
            }
            let timing = Timing { send_at: far, timezone: hibiki_common::domain::zone::Zone::utc(), recurrence: Recurrence::once() };
            let place = db.default_placement(&user.id, now).await.unwrap();
            for i in 0..count {
                let contents = Contents {
                    title: format!("Reminder {i}"),
                    description: Some("Benchmark".into()),
                    send_to: None,
                    metadata: None,
                    break_through: false,
                };
                db.create_reminder(&keys, &place, &contents, &timing, &hibiki_common::domain::alarms::Alarms::default(), now)
                    .await
                    .unwrap();
            }
        });
        if tasks.len() >= 8 {
            tasks.join_next().await;
        }
    }
    while tasks.join_next().await.is_some() {}
    // Far enough ahead that the scheduler's lead for a second this big (it claims bigger
    // seconds earlier) starts after the process has started and loaded its wheel.
    let lead = SignedDuration::from_secs(8) + hibiki_scheduler::SchedulerConfig::default().lead_for(n);
    let due = Timestamp::from_second((Timestamp::now() + lead).as_second() + 1).unwrap();
    let due_ms = due.as_millisecond();
    sqlx::query("UPDATE reminders SET send_at = $1, scheduled_at = $1").bind(due_ms).execute(db.pool()).await.unwrap();
    sqlx::query("UPDATE fires SET fire_at = $1, occurrence_at = $1").bind(due_ms).execute(db.pool()).await.unwrap();
    println!("[{backend} N={n}] setup {:.1} s ({users} users)", setup.elapsed().as_secs_f64());

    let rss_before = rss_bytes();
    let app = Application::start(config.clone(), Parts { api: false, scheduler: true, worker: true }).await.unwrap();
    let wait_until = Instant::now() + Duration::from_secs((lead.as_secs() + 5) as u64);
    // The wheel is loaded at start; read the memory before anything fires.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss_loaded = rss_bytes();
    let start = Instant::now();
    let mut done: i64 = 0;
    while start.elapsed() < Duration::from_secs(600) {
        done = sqlx::query_scalar("SELECT COUNT(*) FROM delivery_logs WHERE status <> 'queued'").fetch_one(db.pool()).await.unwrap();
        if done as usize >= n && Instant::now() > wait_until {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut lateness: Vec<i64> = sqlx::query_scalar("SELECT sent_at - occurrence_at FROM delivery_logs WHERE sent_at IS NOT NULL")
        .fetch_all(db.pool())
        .await
        .unwrap();
    lateness.sort_unstable();
    let early = lateness.iter().filter(|l| **l < 0).count();
    let held: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM delivery_logs WHERE status = 'held'").fetch_one(db.pool()).await.unwrap();
    // Give the channel sends (at the same second, side by side with the pushes) a moment.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let both = received.load(Ordering::Relaxed);
    let label = if mixed { "mixed " } else { "" };
    println!(
        "[{backend} {label}N={n}] delivered {} of {n} ({} pushes and {} webhook sends received; {held} held for quiet hours); lateness p50 {} ms, p99 {} ms, max {} ms; early {early}",
        lateness.len(),
        both % 1_000_000_000,
        both / 1_000_000_000,
        percentile(&lateness, 50.0),
        percentile(&lateness, 99.0),
        lateness.last().copied().unwrap_or(0),
    );
    println!(
        "[{backend} N={n}] process RSS {:.1} MiB before start, {:.1} MiB with the wheel loaded ({:.0} B per pending occurrence, whole process); done {done}",
        rss_before as f64 / 1048576.0,
        rss_loaded as f64 / 1048576.0,
        rss_loaded.saturating_sub(rss_before) as f64 / n as f64
    );
    app.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scheduler with nothing due: how often does this process wake up?
async fn idle_wakeups(backend: &str) {
    let dir = std::env::temp_dir().join(format!("hibiki-idle-{}", uuid::Uuid::new_v4().simple()));
    let config = fresh_config(backend, &dir).await;
    let app = Application::start(config, Parts { api: false, scheduler: true, worker: false }).await.unwrap();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let before = context_switches();
    let span = Duration::from_secs(20);
    std::thread::sleep(span); // this thread sleeps once: one switch of its own
    let after = context_switches();
    println!(
        "[{backend}] idle scheduler process: {:.2} wake-ups/s (context switches of all its threads over {} s)",
        (after - before) as f64 / span.as_secs_f64(),
        span.as_secs()
    );
    app.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let backend = if args.is_empty() { "sqlite".to_owned() } else { args.remove(0) };
    let mixed = args.first().is_some_and(|a| a == "mixed");
    if mixed {
        args.remove(0);
    }
    let counts: Vec<usize> =
        if args.is_empty() { vec![1_000, 10_000, 100_000] } else { args.iter().map(|a| a.parse().expect("a count")).collect() };
    // HIBIKI_LOG=hibiki_worker=debug,hibiki_scheduler=debug shows each claim chunk and job.
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env("HIBIKI_LOG") {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    rt.block_on(async {
        idle_wakeups(&backend).await;
        for n in counts {
            run(&backend, n, mixed).await;
        }
    });
}
