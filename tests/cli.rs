//! The `hibiki` binary as an operator runs it: subcommands, the metrics endpoint, graceful
//! shutdown on SIGTERM, and the refusal of unsafe settings.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn hibiki(dir: &PathBuf) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hibiki"));
    // Only what the test sets: no HIBIKI_* from the caller's environment, no .env file.
    cmd.env_clear().env("PATH", std::env::var("PATH").unwrap_or_default()).current_dir(dir).env("HIBIKI_DATA_DIR", dir.join("data"));
    cmd
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hibiki-cli-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A port for a process to listen on, below the kernel's ephemeral range (32768 and up on
/// Linux): a port from `bind(0)` can be taken by any outgoing connection (to PostgreSQL,
/// Redis...) before the process binds it, which once failed a CI run with "address in use".
fn free_port() -> u16 {
    let seed =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0) ^ std::process::id();
    (0..10_000u32)
        .map(|i| 20_000 + ((seed.wrapping_mul(2_654_435_761).wrapping_add(i.wrapping_mul(7_919))) % 12_000) as u16)
        .find(|port| std::net::TcpListener::bind(("127.0.0.1", *port)).is_ok())
        .unwrap_or_else(|| std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port())
}

#[test]
fn vapid_keys_prints_a_usable_pair() {
    let dir = temp_dir();
    let out = hibiki(&dir).arg("vapid-keys").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let private = text.lines().find_map(|l| l.strip_prefix("HIBIKI_VAPID_PRIVATE_KEY=")).expect("a private key line");
    let pair = hibiki_common::infra::keys::VapidKeys::from_private_key(private).unwrap();
    assert!(text.contains(&pair.public_key));
    let again = String::from_utf8(hibiki(&dir).arg("vapid-keys").output().unwrap().stdout).unwrap();
    assert_ne!(text, again, "a new pair each time");
}

#[test]
fn migrate_creates_the_sqlite_database_and_exits() {
    let dir = temp_dir();
    let out = hibiki(&dir).arg("migrate").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(dir.join("data/hibiki.sqlite").exists());
    // Idempotent.
    assert!(hibiki(&dir).arg("migrate").output().unwrap().status.success());
}

#[test]
fn dev_login_is_refused_unless_listening_on_loopback() {
    let dir = temp_dir();
    let out =
        hibiki(&dir).env("HIBIKI_DEV_LOGIN", "1").env("HIBIKI_LISTEN", "0.0.0.0:0").env("HIBIKI_METRICS_LISTEN", "off").output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("HIBIKI_DEV_LOGIN"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn serves_metrics_and_stops_gracefully_on_sigterm() {
    let dir = temp_dir();
    let (port, metrics_port) = (free_port(), free_port());
    let mut child = hibiki(&dir)
        .env("HIBIKI_LISTEN", format!("127.0.0.1:{port}"))
        .env("HIBIKI_METRICS_LISTEN", format!("127.0.0.1:{metrics_port}"))
        .env("HIBIKI_LOG_FORMAT", "json")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let client = reqwest::Client::new();
        let start = Instant::now();
        loop {
            if let Ok(r) = client.head(format!("http://127.0.0.1:{port}/api/health")).send().await
                && r.status() == 200
            {
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "hibiki did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        client.get(format!("http://127.0.0.1:{port}/api/health")).send().await.unwrap();
        // The gauges are refreshed every 5 s.
        tokio::time::sleep(Duration::from_millis(5500)).await;
        let metrics = client.get(format!("http://127.0.0.1:{metrics_port}/metrics")).send().await.unwrap().text().await.unwrap();
        assert!(metrics.contains("hibiki_http_requests_total{method=\"GET\",route=\"/api/health\",status=\"200\"}"), "{metrics}");
        assert!(metrics.contains("hibiki_http_request_duration_seconds"), "{metrics}");
        assert!(metrics.contains("hibiki_scheduler_last_tick_timestamp_seconds"), "{metrics}");
        assert!(metrics.contains("hibiki_http_request_duration_seconds_bucket"), "a histogram with buckets: {metrics}");
        for gauge in ["hibiki_database_up 1", "hibiki_queue_depth", "hibiki_scheduler_leader 1", "hibiki_scheduler_wheel_size"] {
            assert!(metrics.contains(gauge), "{gauge}: {metrics}");
        }
    });
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let start = Instant::now();
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(start.elapsed() < Duration::from_secs(15), "no graceful exit after SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
    // Structured logs: one JSON object a line.
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    let first = out.lines().next().expect("log lines");
    let parsed: serde_json::Value = serde_json::from_str(first).expect("JSON log line");
    assert!(parsed["level"].is_string(), "{first}");
    assert!(out.contains("shutting down"), "{out}");
}
