//! `spawn_app`: the real Hibiki on an ephemeral port, on SQLite or a fresh PostgreSQL
//! database, with mail going to the outbox or to a real SMTP server process (aiosmtpd).

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use hibiki::{Application, Parts};
use hibiki_common::infra::config::Config;
use hibiki_common::infra::storage::Db;
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Send mail through a real SMTP server process instead of the outbox.
    pub smtp: bool,
    pub dev_login: bool,
    pub admin_emails: Vec<String>,
    /// Sign-in requests per minute and client (default: high enough to stay out of the way).
    pub auth_rate_per_minute: Option<u32>,
    /// Accept push endpoints on loopback (the test push service).
    pub allow_private_push: bool,
    /// Queues in Redis instead of SQLite.
    pub redis: bool,
    /// Believe `X-Forwarded-For` from loopback (the tests' client plays a reverse proxy).
    pub behind_proxy: bool,
    /// Push timeouts in milliseconds (default: the configuration's, 5000 and 15000).
    pub push_connect_timeout_ms: Option<u64>,
    pub push_timeout_ms: Option<u64>,
    /// Base of the push retries' backoff in milliseconds (default 1000: 2, 4, 8 s).
    pub push_retry_base_ms: Option<u64>,
    /// `HIBIKI_PUBLIC_URL` (default `http://localhost:8080`).
    pub public_url: Option<String>,
    /// Send-nows of one account may follow each other at once (tests of what a send does,
    /// not of its limit; the limit's own test keeps the real 10 s).
    pub send_now_at_once: bool,
    /// The Telegram bot and the LINE channel, at the stand-ins at this base URL (tokens
    /// [`TELEGRAM_TOKEN`], [`LINE_TOKEN`], [`LINE_SECRET`]).
    pub bots_at: Option<String>,
    /// Any other setting, applied last.
    pub configure: Option<fn(&mut Config)>,
}

pub const TELEGRAM_TOKEN: &str = "123456:TEST-bot-token";
pub const LINE_TOKEN: &str = "line-channel-access-token";
pub const LINE_SECRET: &str = "line-channel-secret";

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub db: Db,
    pub config: Config,
    #[allow(dead_code)]
    pub backend: Backend,
    pub data_dir: PathBuf,
    smtp: Option<SmtpServer>,
    postgres_database: Option<String>,
    app: Option<Application>,
}

#[path = "../support/skip.rs"]
mod skip;
/// Missing services skip a test locally (counted) but fail it in CI.
pub use skip::unavailable;

pub fn postgres_admin_url() -> String {
    std::env::var("HIBIKI_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// A fresh, empty PostgreSQL database for one test, or `None` when PostgreSQL is unreachable.
pub async fn fresh_postgres_database() -> Option<String> {
    use sqlx::Connection;
    let admin = postgres_admin_url();
    let mut conn = match tokio::time::timeout(Duration::from_secs(5), sqlx::PgConnection::connect(&admin)).await {
        Ok(Ok(conn)) => conn,
        _ => {
            unavailable("PostgreSQL (set HIBIKI_TEST_POSTGRES_URL)");
            return None;
        }
    };
    let name = format!("hibiki_test_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&mut conn).await.expect("create test database");
    // A test's database outlives no crash of the server, so its commits need not wait for the
    // disk: with a dozen tests at once, each commit's flush was most of their database time.
    sqlx::query(sqlx::AssertSqlSafe(format!("ALTER DATABASE {name} SET synchronous_commit = off")))
        .execute(&mut conn)
        .await
        .expect("configure test database");
    let (base, _) = admin.rsplit_once('/').expect("database URL has a path");
    Some(format!("{base}/{name}"))
}

pub async fn drop_postgres_database(name: &str) {
    use sqlx::Connection;
    if let Ok(mut conn) = sqlx::PgConnection::connect(&postgres_admin_url()).await {
        let _ = sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))).execute(&mut conn).await;
    }
}

pub fn python() -> String {
    std::env::var("HIBIKI_TEST_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// A real SMTP server process (aiosmtpd, with `tests/smtpsink.py`'s handler) that stores what
/// it receives in a Maildir and refuses `bounce…` (550) and, three times, `later…` (451).
pub struct SmtpServer {
    pub port: u16,
    pub maildir: PathBuf,
    _child: tokio::process::Child,
}

impl SmtpServer {
    /// Starts the sink on a port it binds itself and reads from its first line (no free port
    /// picked beforehand: another test's server could take it in between).
    pub async fn start(dir: &Path) -> Option<SmtpServer> {
        use tokio::io::AsyncBufReadExt;
        let maildir = dir.join("maildir");
        let mut child = tokio::process::Command::new(python())
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/smtpsink.py"))
            .arg(&maildir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .ok()?;
        let mut lines = tokio::io::BufReader::new(child.stdout.take()?).lines();
        let first = tokio::time::timeout(Duration::from_secs(20), lines.next_line()).await.ok()?.ok()??;
        let port = first.trim().parse().ok()?;
        Some(SmtpServer { port, maildir, _child: child })
    }
}

impl TestApp {
    /// The SMTP server's log of RCPT commands for `to`: (unix time, reply code), oldest first.
    pub fn smtp_tries(&self, to: &str) -> Vec<(f64, u16)> {
        let Some(smtp) = &self.smtp else { return Vec::new() };
        let log = std::fs::read_to_string(smtp.maildir.join("rcpt.log")).unwrap_or_default();
        log.lines()
            .filter_map(|l| {
                let mut parts = l.split(' ');
                let (at, address, code) = (parts.next()?, parts.next()?, parts.next()?);
                address.eq_ignore_ascii_case(to).then(|| (at.parse().ok(), code.parse().ok())).and_then(|(a, c)| Some((a?, c?)))
            })
            .collect()
    }
}

pub fn unique_email() -> String {
    format!("user-{}@example.com", uuid::Uuid::new_v4().simple())
}

impl TestApp {
    /// Starts Hibiki, or returns `None` (after saying why) when a needed service is missing.
    pub async fn spawn(backend: Backend, options: Options) -> Option<TestApp> {
        Self::spawn_with(backend, options, hibiki_scheduler::SchedulerConfig::default()).await
    }

    pub async fn spawn_with(backend: Backend, options: Options, scheduler: hibiki_scheduler::SchedulerConfig) -> Option<TestApp> {
        let data_dir = std::env::temp_dir().join(format!("hibiki-test-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&data_dir).unwrap();
        let mut config = Config::with_data_dir(&data_dir);
        config.listen = "127.0.0.1:0".parse().unwrap();
        config.metrics_listen = "off".into();
        config.web_dir = data_dir.join("web");
        config.dev_login = options.dev_login;
        config.admin_emails = options.admin_emails.clone();
        config.auth_rate_per_minute = options.auth_rate_per_minute.unwrap_or(10_000);
        config.api_rate_per_minute = 100_000;
        config.allow_private_push = options.allow_private_push;
        if let Some(url) = &options.public_url {
            config.public_url = url.parse().unwrap();
        }
        if options.behind_proxy {
            config.trusted_proxies = vec!["127.0.0.0/8".parse().unwrap(), "::1/128".parse().unwrap()];
        }
        if let Some(ms) = options.push_connect_timeout_ms {
            config.push_connect_timeout_ms = ms;
        }
        if let Some(ms) = options.push_timeout_ms {
            config.push_timeout_ms = ms;
        }
        let retry = match options.push_retry_base_ms {
            Some(ms) => hibiki_worker::delivery::RetryTiming { base: Duration::from_millis(ms) },
            None => hibiki_worker::delivery::RetryTiming::default(),
        };
        config.queue_namespace = format!("test-{}", uuid::Uuid::new_v4().simple());
        if options.send_now_at_once {
            config.send_now_interval_ms = 0;
        }
        if let Some(base) = &options.bots_at {
            config.telegram_bot_token = Some(TELEGRAM_TOKEN.into());
            config.telegram_api_url = base.parse().unwrap();
            config.line_channel_access_token = Some(LINE_TOKEN.into());
            config.line_channel_secret = Some(LINE_SECRET.into());
            config.line_api_url = base.parse().unwrap();
        }
        if let Some(configure) = options.configure {
            configure(&mut config);
        }
        if options.redis {
            let url = std::env::var("HIBIKI_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
            let reachable = tokio::time::timeout(
                Duration::from_secs(3),
                tokio::net::TcpStream::connect(url.trim_start_matches("redis://").trim_end_matches('/')),
            )
            .await
            .is_ok_and(|r| r.is_ok());
            if !reachable {
                unavailable("Redis (set HIBIKI_TEST_REDIS_URL)");
                return None;
            }
            config.redis_url = Some(url);
        }
        let mut postgres_database = None;
        if backend == Backend::Postgres {
            let url = fresh_postgres_database().await?;
            postgres_database = url.rsplit('/').next().map(str::to_owned);
            config.database_url = Some(url);
        }
        let smtp = if options.smtp {
            match SmtpServer::start(&data_dir).await {
                Some(server) => {
                    config.smtp_url = Some(format!("smtp://127.0.0.1:{}", server.port).into());
                    Some(server)
                }
                None => {
                    unavailable("aiosmtpd (pip install aiosmtpd, or set HIBIKI_TEST_PYTHON)");
                    return None;
                }
            }
        } else {
            None
        };
        let app = Application::start_tuned(config.clone(), Parts::ALL, scheduler, retry).await.expect("Hibiki starts");
        let base = format!("http://{}", app.addr.expect("serves HTTP"));
        let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
        Some(TestApp { base, client, db: app.db.clone(), config, backend, data_dir, smtp, postgres_database, app: Some(app) })
    }

    /// Deletes every Redis key of this app's queues, as a Redis restart without persistence.
    pub async fn flush_redis_namespace(&self) {
        let url = self.config.redis_url.clone().expect("a Redis-backed app");
        let client = redis::Client::open(url).unwrap();
        let mut conn = client.get_multiplexed_async_connection().await.unwrap();
        let keys: Vec<String> = redis::cmd("KEYS").arg(format!("{}*", self.config.queue_namespace)).query_async(&mut conn).await.unwrap();
        assert!(!keys.is_empty(), "the queues had keys");
        let _: () = redis::cmd("DEL").arg(&keys).query_async(&mut conn).await.unwrap();
    }

    /// Steps the app's clock `by` ahead: what the API answers next, it answers as of then, and
    /// the scheduler and workers wake to it (what was due meanwhile is claimed as late as that).
    pub fn advance_clock(&self, by: jiff::SignedDuration) {
        self.app.as_ref().expect("running").clock.advance(by);
    }

    /// What the app's clock reads.
    pub fn now(&self) -> jiff::Timestamp {
        self.clock().now()
    }

    /// The app's clock (its scheduler, workers and API share it).
    pub fn clock(&self) -> hibiki_common::domain::time::Clock {
        self.app.as_ref().expect("running").clock.clone()
    }

    /// Runs the scheduler and the workers to `at` without waiting for it (zero2prod's
    /// `dispatch_all_pending_emails`): steps the clock to each second a fire is due by `at`, in
    /// turn, as a punctual scheduler would meet it, and lets what is due there be claimed and
    /// delivered; then steps to `at`.
    pub async fn run_until(&self, at: jiff::Timestamp) {
        loop {
            // The next fire, or the next second of an entry claimed ahead of it (the scheduler
            // claims up to its lead early and the worker holds the push to its second): a step
            // over that second would make the worker's claim look abandoned (older than
            // STALE_SEND by this clock) while it is about to send, and a second send take over.
            let next: Option<i64> = sqlx::query_scalar(
                "SELECT MIN(t) FROM (SELECT MIN(fire_at) AS t FROM fires
                     UNION ALL SELECT MIN(occurrence_at) AS t FROM delivery_logs WHERE status = 'queued' AND occurrence_at > $1) AS nexts",
            )
            .bind(self.now().as_millisecond())
            .fetch_one(self.db.pool())
            .await
            .unwrap();
            let Some(next) =
                next.map(hibiki_common::domain::time::from_millis).map(hibiki_common::domain::time::ceil_to_second).filter(|n| *n <= at)
            else {
                break;
            };
            let now = self.now();
            if next > now {
                self.advance_clock(next.duration_since(now));
            }
            self.settle().await;
        }
        let now = self.now();
        if at > now {
            self.advance_clock(at.duration_since(now));
            self.settle().await;
        }
    }

    /// Waits for a state, not a time: until nothing is due by the app's clock (no fire at or
    /// before it, no email fallback past its delay), every delivery log entry made has settled
    /// (none still queued) and no job waits in the queues. Fails after 20 s.
    pub async fn settle(&self) {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let queues = self.app.as_ref().expect("running").queues.clone();
        loop {
            let now = self.now().as_millisecond();
            let count = |sql: &'static str| {
                let pool = self.db.pool().clone();
                async move { sqlx::query_scalar::<_, i64>(sql).bind(now).fetch_one(&pool).await.unwrap() }
            };
            let due = count("SELECT COUNT(*) FROM fires WHERE fire_at <= $1").await;
            let queued = count("SELECT COUNT(*) FROM delivery_logs WHERE status = 'queued' AND occurrence_at <= $1").await;
            let fallbacks = count(
                "SELECT COUNT(*) FROM fallbacks f JOIN delivery_logs l ON l.id = f.log_id WHERE f.emailed_at IS NULL AND COALESCE(f.since, l.occurrence_at) + f.minutes * 60000 <= $1",
            )
            .await;
            let jobs = queues.depth().await.unwrap();
            if due + queued + fallbacks + jobs == 0 {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "not settled after 20 s: {due} fires due, {queued} entries queued, {fallbacks} fallbacks due, {jobs} jobs waiting"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The name this app's scheduler holds the leader's lease by.
    pub fn scheduler_id(&self) -> Option<&str> {
        self.app.as_ref().and_then(|a| a.scheduler_id.as_deref())
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    // These build the request at once and return an owned future, so tests can fire many
    // concurrently with temporary bodies.
    pub fn post(&self, path: &str, body: &Value, token: Option<&str>) -> impl Future<Output = reqwest::Response> + use<> {
        let mut req = self.client.post(self.url(path)).json(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        async move { req.send().await.unwrap() }
    }

    pub fn put(&self, path: &str, body: &Value, token: &str) -> impl Future<Output = reqwest::Response> + use<> {
        let req = self.client.put(self.url(path)).json(body).bearer_auth(token);
        async move { req.send().await.unwrap() }
    }

    pub fn get(&self, path: &str, token: Option<&str>) -> impl Future<Output = reqwest::Response> + use<> {
        let mut req = self.client.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        async move { req.send().await.unwrap() }
    }

    pub fn delete(&self, path: &str, token: &str) -> impl Future<Output = reqwest::Response> + use<> {
        let req = self.client.delete(self.url(path)).bearer_auth(token);
        async move { req.send().await.unwrap() }
    }

    /// Every mail received for `to`, as (subject, text body), oldest first.
    pub fn read_mails(&self, to: &str) -> Vec<(String, String)> {
        let dirs: Vec<PathBuf> = match &self.smtp {
            Some(s) => vec![s.maildir.join("new"), s.maildir.join("cur")],
            None => vec![self.data_dir.join("outbox")],
        };
        let mut found = Vec::new();
        for dir in &dirs {
            let Ok(entries) = std::fs::read_dir(dir) else { continue };
            for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
                let raw = std::fs::read(&path).unwrap();
                let Some(msg) = mail_parser::MessageParser::default().parse(&raw) else { continue };
                let recipient = msg.to().and_then(|l| l.first().and_then(|a| a.address().map(str::to_owned))).unwrap_or_default();
                if recipient.eq_ignore_ascii_case(to) {
                    let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
                    found.push((
                        modified,
                        msg.subject().unwrap_or("").to_owned(),
                        msg.body_text(0).map(|b| b.into_owned()).unwrap_or_default(),
                    ));
                }
            }
        }
        found.sort_by_key(|a| a.0);
        found.into_iter().map(|(_, s, b)| (s, b)).collect()
    }

    /// Waits up to 10 s for at least `at_least` mails to `to`.
    pub async fn mails_for(&self, to: &str, at_least: usize) -> Vec<(String, String)> {
        for _ in 0..200 {
            let found = self.read_mails(to);
            if found.len() >= at_least {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("expected {at_least} mail(s) for {to}");
    }

    /// The code and link token of the newest sign-in mail for `to`.
    pub async fn latest_code(&self, to: &str, nth: usize) -> (String, String) {
        let mails = self.mails_for(to, nth).await;
        let (_, body) = mails.last().unwrap();
        let code = body
            .lines()
            .map(str::trim)
            .find(|l| l.len() == 6 && l.bytes().all(|b| b.is_ascii_digit()))
            .expect("a 6-digit code line")
            .to_owned();
        let token = body.split("#token=").nth(1).expect("a sign-in link").split_whitespace().next().unwrap().to_owned();
        (code, token)
    }

    /// Signs in through the real mail round trip; returns (access token, user json).
    pub async fn sign_in(&self, email: &str) -> (String, Value) {
        let before = self.read_mails(email).len();
        let r = self.post("/api/auth/otp", &json!({ "email": email, "lang": "en" }), None).await;
        assert_eq!(r.status(), 202, "{}", r.text().await.unwrap());
        let (code, _) = self.latest_code(email, before + 1).await;
        let r = self.post("/api/auth/verify", &json!({ "email": email, "code": code }), None).await;
        assert_eq!(r.status(), 200);
        let body: Value = r.json().await.unwrap();
        (body["data"]["access_token"].as_str().unwrap().to_owned(), body["data"]["user"].clone())
    }

    pub async fn stop(mut self) {
        if let Some(app) = self.app.take() {
            app.stop().await;
        }
        if let Some(name) = &self.postgres_database {
            drop_postgres_database(name).await;
        }
        let _ = std::fs::remove_dir_all(&self.data_dir);
    }
}

/// A loopback push service (tests/pushsink) that verifies VAPID and decrypts each push with
/// an implementation independent of ours.
pub struct PushSink {
    pub base: String,
    client: reqwest::Client,
    _child: tokio::process::Child,
}

/// Starts one of the tests' Python servers (`--port 0`, then a line `READY <port>`): its base
/// URL and the process, killed when dropped.
async fn python_server(script: &str) -> Option<(String, tokio::process::Child)> {
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(python())
        .args([script, "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .ok()?;
    let mut lines = tokio::io::BufReader::new(child.stdout.take()?).lines();
    let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line()).await.ok()?.ok()??;
    let port = line.strip_prefix("READY ")?.trim().to_owned();
    Some((format!("http://127.0.0.1:{port}"), child))
}

/// The push sink and an app that pushes to it (loopback endpoints allowed): None, recorded
/// as skipped, when the sink cannot run here.
pub async fn sink_app(backend: Backend, options: Options) -> Option<(TestApp, PushSink)> {
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink (pip install -r tests/pushsink/requirements.txt, set HIBIKI_TEST_PYTHON)");
        return None;
    };
    let app = TestApp::spawn(backend, Options { allow_private_push: true, ..options }).await?;
    Some((app, sink))
}

impl PushSink {
    pub async fn start() -> Option<PushSink> {
        let (base, child) = python_server(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pushsink/pushsink.py")).await?;
        Some(PushSink { base, client: reqwest::Client::new(), _child: child })
    }

    /// A new device of the sink subscribed for the person signed in with `token`: the sink's
    /// subscription (`id` is the sink's name for it) and Hibiki's device id.
    pub async fn subscribe(&self, app: &TestApp, token: &str, language: &str) -> (Value, String) {
        let sub = self.subscription().await;
        let r = app
            .post(
                "/api/notifications?action=subscribe",
                &json!({ "subscription": { "endpoint": sub["endpoint"], "keys": sub["keys"] },
                         "device_info": { "user_agent": "test", "platform": "linux", "language": language, "timezone": "UTC" } }),
                Some(token),
            )
            .await;
        assert_eq!(r.status(), 201, "{}", r.text().await.unwrap());
        let id = json(r).await["data"]["id"].as_str().unwrap().to_owned();
        (sub, id)
    }

    /// A new subscription: `{id, endpoint, keys: {p256dh, auth}}`.
    pub async fn subscription(&self) -> Value {
        self.client.post(format!("{}/_subscriptions", self.base)).json(&json!({})).send().await.unwrap().json().await.unwrap()
    }

    pub async fn behave(&self, id: &str, behavior: Value) {
        let r = self.client.post(format!("{}/_subscriptions/{id}/behavior", self.base)).json(&behavior).send().await.unwrap();
        assert!(r.status().is_success());
    }

    pub async fn received(&self, id: &str) -> Vec<Value> {
        let v: Value = self.client.get(format!("{}/_received?sub={id}", self.base)).send().await.unwrap().json().await.unwrap();
        v["received"].as_array().cloned().unwrap_or_default()
    }

    pub async fn rejected(&self) -> Vec<Value> {
        let v: Value = self.client.get(format!("{}/_rejected", self.base)).send().await.unwrap().json().await.unwrap();
        v["rejected"].as_array().cloned().unwrap_or_default()
    }

    /// Waits up to `secs` for at least `n` pushes to `id`.
    pub async fn wait_for(&self, id: &str, n: usize, secs: u64) -> Vec<Value> {
        let start = std::time::Instant::now();
        loop {
            let got = self.received(id).await;
            if got.len() >= n || start.elapsed() > Duration::from_secs(secs) {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Loopback stand-ins for the channels' services (tests/standins): an ntfy server and a
/// webhook receiver that verifies Standard Webhooks signatures with the reference library.
pub struct StandIns {
    pub base: String,
    client: reqwest::Client,
    _child: tokio::process::Child,
}

impl StandIns {
    pub async fn start() -> Option<StandIns> {
        let Some((base, child)) = python_server(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/standins/standins.py")).await else {
            unavailable("the channel stand-ins (pip install -r tests/standins/requirements.txt, set HIBIKI_TEST_PYTHON)");
            return None;
        };
        Some(StandIns { base, client: reqwest::Client::new(), _child: child })
    }

    async fn control(&self, path: &str, body: Value) {
        let r = self.client.post(format!("{}{path}", self.base)).json(&body).send().await.unwrap();
        assert!(r.status().is_success());
    }

    /// The topic now needs this bearer token.
    pub async fn ntfy_token(&self, topic: &str, token: &str) {
        self.control(&format!("/_ntfy/{topic}/token"), json!({ "token": token })).await;
    }

    /// The webhook receiver `name` verifies with this secret.
    pub async fn hook_secret(&self, name: &str, secret: &str) {
        self.control(&format!("/_hooks/{name}/secret"), json!({ "secret": secret })).await;
    }

    /// `name` (a topic or a hook) answers `status` from now on (0: as it should).
    pub async fn fail(&self, name: &str, status: u16) {
        self.control(&format!("/_fail/{name}"), json!({ "status": status })).await;
    }

    /// The Telegram Bot API and the LINE channel take these tokens.
    pub async fn bots(&self) {
        self.control("/_telegram/setup", json!({ "token": TELEGRAM_TOKEN, "username": "hibiki_test_bot" })).await;
        self.control("/_line/setup", json!({ "token": LINE_TOKEN, "basic_id": "@hibiki-test" })).await;
    }

    /// Queues a Telegram update (as a person's message or button press makes one).
    pub async fn telegram_update(&self, update: Value) {
        self.control("/_telegram/updates", update).await;
    }

    /// Delivers a Telegram update to a webhook URL with this secret token; answers its status.
    pub async fn telegram_deliver(&self, url: &str, secret: &str, update: Value) -> u16 {
        self.ask("/_telegram/deliver", json!({ "url": url, "secret": secret, "update": update })).await
    }

    /// Delivers LINE webhook events to a URL, signed with `secret`; answers its status.
    pub async fn line_deliver(&self, url: &str, secret: &str, events: Value) -> u16 {
        self.ask("/_line/deliver", json!({ "url": url, "secret": secret, "events": events })).await
    }

    async fn ask(&self, path: &str, body: Value) -> u16 {
        let v: Value = self.client.post(format!("{}{path}", self.base)).json(&body).send().await.unwrap().json().await.unwrap();
        v["status"].as_u64().unwrap() as u16
    }

    pub async fn received(&self, name: &str) -> Vec<Value> {
        let v: Value = self.client.get(format!("{}/_received?name={name}", self.base)).send().await.unwrap().json().await.unwrap();
        v["received"].as_array().cloned().unwrap_or_default()
    }

    /// Waits up to `secs` for at least `n` messages to `name`.
    pub async fn wait_for(&self, name: &str, n: usize, secs: u64) -> Vec<Value> {
        let start = std::time::Instant::now();
        loop {
            let got = self.received(name).await;
            if got.len() >= n || start.elapsed() > Duration::from_secs(secs) {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Runs a test body on SQLite and on PostgreSQL, as two tests:
/// `both_backends!(name, other => Options { .. })`.
#[macro_export]
macro_rules! both_backends {
    (@options) => { $crate::helpers::Options::default() };
    (@options $options:expr) => { $options };
    ($($name:ident $(=> $options:expr)?),* $(,)?) => {$(
        mod $name {
            #[allow(unused_imports)]
            use $crate::helpers::Options;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let options = $crate::both_backends!(@options $($options)?);
                if let Some(app) = $crate::helpers::TestApp::spawn($crate::helpers::Backend::Sqlite, options).await {
                    super::$name(&app).await;
                    app.stop().await;
                }
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let options = $crate::both_backends!(@options $($options)?);
                if let Some(app) = $crate::helpers::TestApp::spawn($crate::helpers::Backend::Postgres, options).await {
                    super::$name(&app).await;
                    app.stop().await;
                }
            }
        }
    )*};
}

/// Runs a test body that takes the app and the push sink on SQLite with SQLite queues and on
/// PostgreSQL with Redis, as two tests: `push_sink_tests!(setup; name, ...)`, where the
/// calling module's `setup(backend, redis)` starts both (None: a service is missing).
#[macro_export]
macro_rules! push_sink_tests {
    ($setup:ident; $($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite_queues() {
                if let Some((app, sink)) = super::$setup($crate::helpers::Backend::Sqlite, false).await {
                    super::$name(&app, &sink).await;
                    app.stop().await;
                }
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres_and_redis() {
                if let Some((app, sink)) = super::$setup($crate::helpers::Backend::Postgres, true).await {
                    super::$name(&app, &sink).await;
                    app.stop().await;
                }
            }
        }
    )*};
}

pub async fn json(r: reqwest::Response) -> Value {
    r.json().await.expect("a JSON body")
}

/// Asserts the failure envelope and returns it.
pub async fn expect_error(r: reqwest::Response, status: u16, code: &str) -> Value {
    assert_eq!(r.status().as_u16(), status, "status");
    let body = json(r).await;
    assert_eq!(body["success"], false, "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(body["error"]["message"].is_string(), "{body}");
    body
}

/// {uid: instants} between the two instants, by the independent expander (tests/oracle:
/// Python icalendar + recurring_ical_events); None when it cannot run here.
pub fn expand_ics(ics: &str, start: jiff::Timestamp, end: jiff::Timestamp) -> Option<Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/ics_expand.py");
    let mut child = std::process::Command::new(python())
        .args([script, &start.to_string(), &end.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), ics.as_bytes()).unwrap();
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}
