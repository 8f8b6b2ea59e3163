//! The `hibiki` process as an operator runs it, read as an attacker would: `--help` with
//! secrets in the environment, the data directory's file modes under umask 022, what the log
//! says of sign-in mails, the metrics' label sets under a flood of made-up methods, the
//! developer shortcut's start-up refusals, `hibiki backup` while running, and `hibiki rekey`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hibiki-ops-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `hibiki` with only the given environment (no caller's HIBIKI_*, no .env), in `dir`, under
/// umask 022.
fn hibiki(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("umask 022; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_hibiki"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HIBIKI_DATA_DIR", dir.join("data"))
        .env("HIBIKI_WEB_DIR", dir.join("web"))
        .envs(env.iter().copied())
        .current_dir(dir);
    cmd
}

struct Server {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Server {
    fn start(dir: &Path, env: &[(&str, &str)]) -> Server {
        let port = free_port();
        let log = dir.join(format!("hibiki-{port}.log"));
        let file = std::fs::File::create(&log).unwrap();
        let listen = format!("127.0.0.1:{port}");
        let mut all: Vec<(&str, &str)> = vec![("HIBIKI_LISTEN", &listen), ("HIBIKI_METRICS_LISTEN", "off")];
        all.extend_from_slice(env);
        let child = hibiki(dir, &all, &[]).stdout(file.try_clone().unwrap()).stderr(file).stdin(Stdio::null()).spawn().unwrap();
        let server = Server { child, port, log };
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(30), "hibiki did not start: {}", server.log_text());
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGTERM, and wait for the graceful exit.
    fn stop(mut self) -> String {
        Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap();
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < Duration::from_secs(20), "no exit after SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
        self.log_text()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Runtime::new().unwrap()
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).permissions().mode() & 0o777
}

#[test]
fn help_never_prints_a_configured_secret() {
    let dir = temp_dir();
    let secrets = [
        ("HIBIKI_DATA_KEY", "c2VjcmV0LWRhdGEta2V5LXNlY3JldC1kYXRhLWtleSE=", "c2VjcmV0LWRhdGEta2V5"),
        ("HIBIKI_NEW_DATA_KEY", "bmV3LWRhdGEta2V5LW5ldy1kYXRhLWtleS1uZXctZGE=", "bmV3LWRhdGEta2V5"),
        ("HIBIKI_DATABASE_URL", "postgres://hibiki:pgsecret42@db.internal/hibiki", "pgsecret42"),
        ("HIBIKI_REDIS_URL", "redis://:redissecret42@cache.internal:6379", "redissecret42"),
        ("HIBIKI_SMTP_URL", "smtps://mailer:smtpsecret42@smtp.internal", "smtpsecret42"),
        ("HIBIKI_VAPID_PRIVATE_KEY", "vapidsecret42vapidsecret42vapidsecret42vapid", "vapidsecret42"),
        ("HIBIKI_ERROR_REPORTING_DSN", "https://dsnsecret42@errors.example.com/1", "dsnsecret42"),
    ];
    let env: Vec<(&str, &str)> = secrets.iter().map(|(k, v, _)| (*k, *v)).collect();
    for args in [vec!["--help"], vec!["all", "--help"], vec!["backup", "--help"], vec!["-h"]] {
        let out = hibiki(&dir, &env, &args).output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        if args[0].starts_with('-') {
            assert!(text.contains("HIBIKI_DATABASE_URL") && text.contains("HIBIKI_DATA_KEY"), "help lists the settings: {text}");
        }
        for (name, _, secret) in &secrets {
            assert!(!text.contains(secret), "{args:?} prints {name}: {text}");
        }
    }
}

#[test]
fn the_data_directory_is_private_under_umask_022() {
    let dir = temp_dir();
    let server = Server::start(&dir, &[]);
    runtime().block_on(async {
        let client = reqwest::Client::new();
        let r = client.post(server.url("/api/auth/otp")).json(&json!({ "email": "someone@example.com" })).send().await.unwrap();
        assert_eq!(r.status(), 202);
        let outbox = dir.join("data/outbox");
        let start = Instant::now();
        while std::fs::read_dir(&outbox).map(|d| d.count()).unwrap_or(0) == 0 {
            assert!(start.elapsed() < Duration::from_secs(10), "no mail in the outbox");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    });
    let data = dir.join("data");
    assert_eq!(mode(&data), 0o700, "the data directory");
    assert_eq!(mode(&data.join("outbox")), 0o700, "the outbox");
    let mut seen = Vec::new();
    for path in [data.clone(), data.join("outbox")] {
        for entry in std::fs::read_dir(&path).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                assert_eq!(mode(&path), 0o600, "{}", path.display());
                seen.push(path.file_name().unwrap().to_string_lossy().into_owned());
            }
        }
    }
    for expected in ["hibiki.sqlite", "queue.sqlite", "data.key", "vapid.key"] {
        assert!(seen.iter().any(|s| s == expected), "{expected} in {seen:?}");
    }
    assert!(seen.iter().any(|s| s.ends_with(".eml")), "{seen:?}");
    assert!(seen.iter().any(|s| s.ends_with("-wal")), "the journals too: {seen:?}");
    server.stop();
}

/// The outbox mail's code and link token.
fn mailed_secrets(dir: &Path) -> (String, String) {
    let outbox = dir.join("data/outbox");
    let start = Instant::now();
    loop {
        if let Some(entry) = std::fs::read_dir(&outbox).ok().and_then(|mut d| d.next()) {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap().replace("=\r\n", "");
            if let Some(token) = text.split("#token=").nth(1) {
                let code = text.lines().map(str::trim).find(|l| l.len() == 6 && l.bytes().all(|b| b.is_ascii_digit())).unwrap().to_owned();
                let token = token.split_whitespace().next().unwrap().to_owned();
                return (code, token);
            }
        }
        assert!(start.elapsed() < Duration::from_secs(10), "no sign-in mail in the outbox");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Outbox mode: the log names the file, never a mail's body or link, nor the address in
/// full; the code only when the public URL is this machine (a laptop).
#[test]
fn the_log_names_the_outbox_file_and_shows_a_code_only_on_a_laptop() {
    for (public_url, code_shown) in [("http://localhost:8080", true), ("https://hibiki.example.com", false)] {
        let dir = temp_dir();
        let server = Server::start(&dir, &[("HIBIKI_PUBLIC_URL", public_url)]);
        runtime().block_on(async {
            let r = reqwest::Client::new()
                .post(server.url("/api/auth/otp"))
                .json(&json!({ "email": "someone@example.com" }))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 202);
        });
        let (code, token) = mailed_secrets(&dir);
        std::thread::sleep(Duration::from_millis(300));
        let log = server.stop();
        assert!(log.contains("outbox") && log.contains(".eml"), "the log names the file: {log}");
        assert!(!log.contains(&token), "{public_url}: the link token is in the log: {log}");
        assert!(!log.contains("Here is your Hibiki"), "{public_url}: a mail body is in the log: {log}");
        assert!(!log.contains("someone@example.com") && log.contains("s***@example.com"), "{public_url}: the address: {log}");
        assert_eq!(log.contains(&code), code_shown, "{public_url}: the code in the log: {log}");
    }
}

fn series(metrics: &str) -> usize {
    metrics.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).count()
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()).and_then(|v| v.parse().ok()).unwrap()
}

/// 3,000 requests with made-up methods add no series: the method label is one of a closed set.
#[test]
fn made_up_methods_leave_the_metrics_flat() {
    let dir = temp_dir();
    let metrics_port = free_port();
    let metrics_listen = format!("127.0.0.1:{metrics_port}");
    let server = Server::start(&dir, &[("HIBIKI_METRICS_LISTEN", &metrics_listen), ("HIBIKI_API_RATE_PER_MINUTE", "1000000")]);
    // The metrics listener is its own socket, bound beside the API's: wait for it too.
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", metrics_port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(30), "no metrics listener: {}", server.log_text());
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = server.child.id();
    runtime().block_on(async {
        let client = reqwest::Client::new();
        let metrics_url = format!("http://{metrics_listen}/metrics");
        let flood = |from: usize, n: usize| {
            let client = client.clone();
            let url = server.url("/api/site");
            async move {
                for i in from..from + n {
                    let method = reqwest::Method::from_bytes(format!("X{i}").as_bytes()).unwrap();
                    let r = client.request(method, &url).send().await.unwrap();
                    assert_eq!(r.status(), 405);
                }
            }
        };
        // One of each made-up method first, so every series the flood can make exists.
        flood(0, 10).await;
        let before = client.get(&metrics_url).send().await.unwrap().text().await.unwrap();
        let rss_before = rss_kib(pid);
        futures::future::join_all((0..10).map(|k| flood(100 + k * 300, 300))).await;
        let after = client.get(&metrics_url).send().await.unwrap().text().await.unwrap();
        let rss_after = rss_kib(pid);
        println!(
            "3,000 made-up methods: {} -> {} series, /metrics {} -> {} bytes, RSS {} -> {} KiB",
            series(&before),
            series(&after),
            before.len(),
            after.len(),
            rss_before,
            rss_after
        );
        assert_eq!(series(&before), series(&after), "new series: {after}");
        assert!(after.contains("method=\"other\""), "{after}");
        assert!(!after.contains("method=\"X"), "a made-up method became a label: {after}");
    });
    server.stop();
}

#[test]
fn dev_login_is_refused_at_start_behind_a_proxy_or_with_a_public_url() {
    for (name, value) in [("HIBIKI_TRUSTED_PROXIES", "127.0.0.1"), ("HIBIKI_PUBLIC_URL", "https://hibiki.example.com")] {
        let dir = temp_dir();
        let out = hibiki(&dir, &[("HIBIKI_DEV_LOGIN", "1"), ("HIBIKI_METRICS_LISTEN", "off"), (name, value)], &["all"]).output().unwrap();
        assert!(!out.status.success(), "{name}={value} started");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("HIBIKI_DEV_LOGIN") && err.contains(name), "{err}");
    }
}

/// POSTs JSON (with a bearer token when given) and reads the JSON answer.
async fn post_json(url: String, token: Option<&str>, body: Value) -> Value {
    let mut request = reqwest::Client::new().post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap().json().await.unwrap()
}

/// Signs in through the developer shortcut and makes a reminder; returns (token, id).
async fn dev_reminder(server: &Server, title: &str) -> (String, String) {
    let r = post_json(server.url("/api/auth/dev-login"), None, json!({ "email": "dev@example.com" })).await;
    let token = r["data"]["access_token"].as_str().unwrap().to_owned();
    let due = jiff::Timestamp::now() + jiff::SignedDuration::from_hours(24);
    let body = json!({ "title": title, "description": "保険証", "send_at": due.to_string() });
    let r = post_json(server.url("/api/reminders"), Some(&token), body).await;
    (token, r["data"]["id"].as_str().unwrap_or_else(|| panic!("{r}")).to_owned())
}

async fn title_of(server: &Server, token: &str, id: &str) -> (u16, Value) {
    let r = reqwest::Client::new().get(server.url(&format!("/api/reminders/{id}"))).bearer_auth(token).send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

#[test]
fn backup_copies_the_running_database_and_refuses_postgres() {
    let dir = temp_dir();
    let server = Server::start(&dir, &[("HIBIKI_DEV_LOGIN", "1")]);
    runtime().block_on(dev_reminder(&server, "歯医者"));
    let file = dir.join("backup.sqlite");
    let file_arg = file.to_str().unwrap();
    let out = hibiki(&dir, &[], &["backup", file_arg]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("backup written"));
    assert_eq!(mode(&file), 0o600);
    runtime().block_on(async {
        let pool = sqlx::SqlitePool::connect(&format!("sqlite://{file_arg}?mode=ro")).await.unwrap();
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM reminders").fetch_one(&pool).await.unwrap();
        assert_eq!(n, 1, "the copy has the reminder");
        let check: String = sqlx::query_scalar("PRAGMA integrity_check").fetch_one(&pool).await.unwrap();
        assert_eq!(check, "ok");
        pool.close().await;
    });
    // Never over a file; never on PostgreSQL.
    let again = hibiki(&dir, &[], &["backup", file_arg]).output().unwrap();
    assert!(!again.status.success() && String::from_utf8_lossy(&again.stderr).contains("exists"));
    let pg =
        hibiki(&dir, &[("HIBIKI_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")], &["backup", "x.sql"]).output().unwrap();
    assert!(!pg.status.success());
    assert!(String::from_utf8_lossy(&pg.stderr).contains("pg_dump"), "{}", String::from_utf8_lossy(&pg.stderr));
    server.stop();
}

#[test]
fn rekey_reseals_under_a_new_key_and_hibiki_reads_it_after_a_restart() {
    // A generated key: rekey generates the new one and puts it in place.
    let dir = temp_dir();
    let server = Server::start(&dir, &[("HIBIKI_DEV_LOGIN", "1")]);
    let (token, id) = runtime().block_on(dev_reminder(&server, "歯医者"));
    server.stop();
    let old_key = std::fs::read_to_string(dir.join("data/data.key")).unwrap();
    let out = hibiki(&dir, &[], &["rekey"]).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("re-sealed 2 values"), "title and description: {said}");
    let new_key = std::fs::read_to_string(dir.join("data/data.key")).unwrap();
    assert_ne!(old_key, new_key);
    assert_eq!(mode(&dir.join("data/data.key")), 0o600);
    let again = hibiki(&dir, &[], &["rekey"]).output().unwrap();
    assert!(String::from_utf8_lossy(&again.stdout).contains("re-sealed 2 values"), "a second rekey moves to yet another key");
    let server = Server::start(&dir, &[("HIBIKI_DEV_LOGIN", "1")]);
    let (status, body) = runtime().block_on(title_of(&server, &token, &id));
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["data"]["title"].as_str(), body["data"]["description"].as_str()), (Some("歯医者"), Some("保険証")));
    server.stop();

    // A configured key: the new one must be given, and is then the one Hibiki needs.
    let dir = temp_dir();
    let old = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    let new = "HxwdHhkaGxwVFhcYERITFA0ODxAJCgsMBQYHCAECAwQ=";
    let server = Server::start(&dir, &[("HIBIKI_DEV_LOGIN", "1"), ("HIBIKI_DATA_KEY", old)]);
    let (token, id) = runtime().block_on(dev_reminder(&server, "dentist"));
    server.stop();
    let refused = hibiki(&dir, &[("HIBIKI_DATA_KEY", old)], &["rekey"]).output().unwrap();
    assert!(!refused.status.success() && String::from_utf8_lossy(&refused.stderr).contains("HIBIKI_NEW_DATA_KEY"));
    let out = hibiki(&dir, &[("HIBIKI_DATA_KEY", old), ("HIBIKI_NEW_DATA_KEY", new)], &["rekey"]).output().unwrap();
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("re-sealed 2 values"), "{out:?}");
    let server = Server::start(&dir, &[("HIBIKI_DEV_LOGIN", "1"), ("HIBIKI_DATA_KEY", new)]);
    let (status, body) = runtime().block_on(title_of(&server, &token, &id));
    assert_eq!((status, body["data"]["title"].as_str()), (200, Some("dentist")), "{body}");
    server.stop();
    let server = Server::start(&dir, &[("HIBIKI_DEV_LOGIN", "1"), ("HIBIKI_DATA_KEY", old)]);
    let (status, _) = runtime().block_on(title_of(&server, &token, &id));
    assert_eq!(status, 500, "the old key opens nothing any more");
    server.stop();
}
