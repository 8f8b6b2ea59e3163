//! Hibiki scaled out as an operator runs it: separate `hibiki api`, two `hibiki scheduler` and
//! two `hibiki worker` processes on PostgreSQL and Redis, pushing to the independent push
//! sink. Reminders are delivered; `kill -9` of the leading scheduler hands over within 15 s
//! and what fell due meanwhile is delivered once; `kill -9` of a worker in the middle of a
//! batch loses nothing and doubles nothing the push service accepted; and every metric the
//! Grafana dashboards and alert rules query is exported by these processes.

#[allow(dead_code)]
#[path = "api/helpers.rs"]
mod helpers;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use helpers::{PushSink, fresh_postgres_database, unavailable};
use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

struct Process {
    name: String,
    child: Child,
    metrics_port: u16,
}

struct Cluster {
    dir: PathBuf,
    env: Vec<(String, String)>,
    processes: Vec<Process>,
    base: String,
    client: reqwest::Client,
    /// The PostgreSQL database to drop at the end (none with SQLite).
    database: Option<String>,
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

impl Cluster {
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hibiki"));
        cmd.args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .current_dir(&self.dir)
            .envs(self.env.iter().cloned());
        cmd
    }

    /// Starts `hibiki <role>` named `name`, its logs in the test's directory.
    fn start(&mut self, role: &str, name: &str, extra: &[(&str, String)]) {
        let metrics_port = free_port();
        let log = std::fs::File::create(self.dir.join(format!("{name}.log"))).unwrap();
        let child = self
            .command(&[role])
            .env("HIBIKI_METRICS_LISTEN", format!("127.0.0.1:{metrics_port}"))
            .envs(extra.iter().map(|(k, v)| (k.to_string(), v.clone())))
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap();
        self.processes.push(Process { name: name.into(), child, metrics_port });
    }

    fn process(&self, name: &str) -> &Process {
        self.processes.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no process {name}"))
    }

    fn kill9(&mut self, name: &str) {
        let p = self.processes.iter_mut().find(|p| p.name == name).unwrap();
        let status = Command::new("kill").args(["-9", &p.child.id().to_string()]).status().unwrap();
        assert!(status.success());
        p.child.wait().unwrap();
        let i = self.processes.iter().position(|p| p.name == name).unwrap();
        self.processes.remove(i);
    }

    async fn metrics(&self, name: &str) -> Option<String> {
        let port = self.process(name).metrics_port;
        let r = self.client.get(format!("http://127.0.0.1:{port}/metrics")).send().await.ok()?;
        r.text().await.ok()
    }

    /// An unlabelled gauge's value in a process's exposition.
    async fn gauge(&self, name: &str, metric: &str) -> Option<f64> {
        let text = self.metrics(name).await?;
        text.lines().find_map(|l| l.strip_prefix(metric).and_then(|rest| rest.strip_prefix(' ')).and_then(|v| v.trim().parse().ok()))
    }

    /// The scheduler processes that say they lead.
    async fn leaders(&self) -> Vec<String> {
        let mut leaders = Vec::new();
        for p in self.processes.iter().filter(|p| p.name.starts_with("scheduler")) {
            if self.gauge(&p.name, "hibiki_scheduler_leader").await == Some(1.0) {
                leaders.push(p.name.clone());
            }
        }
        leaders
    }

    async fn post(&self, path: &str, body: Value, token: &str) -> Value {
        let r = self.client.post(format!("{}{path}", self.base)).bearer_auth(token).json(&body).send().await.unwrap();
        let status = r.status();
        let text = r.text().await.unwrap();
        assert!(status.is_success(), "POST {path}: {status} {text}");
        if text.is_empty() { Value::Null } else { serde_json::from_str(&text).unwrap() }
    }

    async fn get(&self, path: &str, token: Option<&str>) -> Value {
        let mut r = self.client.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            r = r.bearer_auth(token);
        }
        r.send().await.unwrap().json().await.unwrap()
    }

    /// Reminders due together at `due` (a whole second), one title each; their ids.
    async fn reminders_at(&self, token: &str, due: Timestamp, titles: &[String]) -> Vec<String> {
        let mut ids = Vec::new();
        for title in titles {
            let r = self.post("/api/reminders", json!({ "title": title, "send_at": due.to_string() }), token).await;
            ids.push(r["data"]["id"].as_str().unwrap().to_owned());
        }
        ids
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for p in &mut self.processes {
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
        if let Some(database) = self.database.clone() {
            // A fresh runtime: Drop may run outside of, or during the end of, the test's own.
            let _ = std::thread::spawn(move || {
                if let Ok(rt) = tokio::runtime::Runtime::new() {
                    rt.block_on(helpers::drop_postgres_database(&database));
                }
            })
            .join();
        }
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        } else {
            eprintln!("process logs kept in {}", self.dir.display());
        }
    }
}

/// The next whole second at least `ahead` from now.
fn whole_second_ahead(ahead: SignedDuration) -> Timestamp {
    let t = Timestamp::now() + ahead;
    Timestamp::from_second(t.as_second() + 1).unwrap()
}

async fn wait_until<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while start.elapsed() < limit {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// Accepted pushes (answered 2xx, not aborted by a dead sender) per (subscription, log id),
/// and how many pushes were aborted (their sender died before the answer).
fn tally(records: &[Value]) -> (HashMap<(String, String), usize>, usize) {
    let mut accepted = HashMap::new();
    let mut aborted = 0;
    for r in records {
        let key = (r["sub"].as_str().unwrap().to_owned(), r["payload"]["notification"]["data"]["log_id"].as_str().unwrap_or("").to_owned());
        if r["aborted"] == true {
            aborted += 1;
        } else if r["status"].as_i64().is_some_and(|s| (200..300).contains(&s)) {
            *accepted.entry(key).or_insert(0) += 1;
        }
    }
    (accepted, aborted)
}

/// Signs each address in (dev login) and subscribes two push-sink devices for it.
async fn users_with_devices(cluster: &Cluster, sink: &PushSink, emails: &[&str]) -> (Vec<String>, Vec<String>) {
    let mut tokens = Vec::new();
    let mut subs = Vec::new();
    for email in emails {
        let r: Value = cluster
            .client
            .post(format!("{}/api/auth/dev-login", cluster.base))
            .json(&json!({ "email": email }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let token = r["data"]["access_token"].as_str().unwrap().to_owned();
        for _ in 0..2 {
            let sub = sink.subscription().await;
            cluster
                .post(
                    "/api/notifications?action=subscribe",
                    json!({ "subscription": { "endpoint": sub["endpoint"], "keys": sub["keys"] },
                            "device_info": { "user_agent": "scaled", "platform": "linux", "language": "en", "timezone": "UTC" } }),
                    &token,
                )
                .await;
            subs.push(sub["id"].as_str().unwrap().to_owned());
        }
        tokens.push(token);
    }
    (tokens, subs)
}

async fn all_received(sink: &PushSink) -> Vec<Value> {
    let v: Value = reqwest::get(format!("{}/_received", sink.base)).await.unwrap().json().await.unwrap();
    v["received"].as_array().cloned().unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scaled_out_processes_deliver_survive_kills_and_export_the_dashboards_metrics() {
    let redis_url = std::env::var("HIBIKI_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    if tokio::net::TcpStream::connect(redis_url.trim_start_matches("redis://").trim_end_matches('/')).await.is_err() {
        unavailable("Redis (set HIBIKI_TEST_REDIS_URL)");
        return;
    }
    let Some(database_url) = fresh_postgres_database().await else { return };
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink (pip install -r tests/pushsink/requirements.txt, or set HIBIKI_TEST_PYTHON)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("hibiki-scaled-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let api_port = free_port();
    let mut cluster = Cluster {
        dir: dir.clone(),
        env: vec![
            ("HIBIKI_DATABASE_URL".into(), database_url.clone()),
            ("HIBIKI_REDIS_URL".into(), redis_url),
            ("HIBIKI_QUEUE_NAMESPACE".into(), format!("scaled-{}", uuid::Uuid::new_v4().simple())),
            ("HIBIKI_DATA_DIR".into(), dir.join("data").display().to_string()),
            ("HIBIKI_ALLOW_PRIVATE_PUSH".into(), "1".into()),
            ("HIBIKI_LOG_FORMAT".into(), "json".into()),
            ("HIBIKI_PUBLIC_URL".into(), format!("http://127.0.0.1:{api_port}")),
        ],
        processes: Vec::new(),
        base: format!("http://127.0.0.1:{api_port}"),
        client: reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap(),
        database: Some(database_url.rsplit('/').next().unwrap().to_owned()),
    };

    // Shared secrets, as an operator's .env gives every process the same ones.
    let out = cluster.command(&["vapid-keys"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let vapid = text.lines().find_map(|l| l.strip_prefix("HIBIKI_VAPID_PRIVATE_KEY=")).unwrap().to_owned();
    cluster.env.push(("HIBIKI_VAPID_PRIVATE_KEY".into(), vapid));
    cluster.env.push(("HIBIKI_DATA_KEY".into(), base64::Engine::encode(&base64::engine::general_purpose::STANDARD, [7u8; 32])));
    let migrate = cluster.command(&["migrate"]).output().unwrap();
    assert!(migrate.status.success(), "{}", String::from_utf8_lossy(&migrate.stderr));

    cluster.start("api", "api", &[("HIBIKI_LISTEN", format!("127.0.0.1:{api_port}")), ("HIBIKI_DEV_LOGIN", "1".into())]);
    for name in ["scheduler-a", "scheduler-b"] {
        cluster.start("scheduler", name, &[]);
    }
    for name in ["worker-a", "worker-b"] {
        cluster.start("worker", name, &[]);
    }
    let client = cluster.client.clone();
    let health = format!("{}/api/health", cluster.base);
    let (c, h) = (&client, &health);
    assert!(
        wait_until(Duration::from_secs(30), || async move { c.head(h).send().await.is_ok_and(|r| r.status() == 200) }).await,
        "the api process did not start"
    );
    let start = Instant::now();
    let leaders = loop {
        let leaders = cluster.leaders().await;
        if leaders.len() == 1 {
            break leaders;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "one scheduler leads: {leaders:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };

    // Three users with two devices each.
    let (tokens, subs) = users_with_devices(&cluster, &sink, &["dev@example.com", "test@example.com", "demo@example.com"]).await;

    // 1. Delivered, once per device, not early.
    let sink = &sink;
    let due = whole_second_ahead(SignedDuration::from_secs(3));
    for token in &tokens {
        cluster.reminders_at(token, due, &["first".into()]).await;
    }
    assert!(wait_until(Duration::from_secs(20), || async move { all_received(sink).await.len() >= 6 }).await, "six pushes");
    let records = all_received(sink).await;
    let (accepted, _) = tally(&records);
    assert_eq!(accepted.len(), 6, "{records:?}");
    assert!(accepted.values().all(|n| *n == 1));
    for r in &records {
        assert!(r["received_at"].as_f64().unwrap() >= due.as_millisecond() as f64 / 1000.0, "early: {r}");
    }

    // 2. kill -9 of the leading scheduler: the standby leads within 15 s, and what fell due
    //    in between is delivered once (late, under 15 minutes).
    let leader = leaders[0].clone();
    let standby = if leader == "scheduler-a" { "scheduler-b" } else { "scheduler-a" };
    cluster.kill9(&leader);
    let killed_at = Instant::now();
    let due = whole_second_ahead(SignedDuration::from_secs(2));
    for token in &tokens {
        cluster.reminders_at(token, due, &["during handover".into()]).await;
    }
    let c = &cluster;
    assert!(
        wait_until(Duration::from_secs(20), || async move { c.gauge(standby, "hibiki_scheduler_leader").await == Some(1.0) }).await,
        "the standby did not take over"
    );
    let handover = killed_at.elapsed();
    println!("handover after kill -9 of the leader: {:.1} s", handover.as_secs_f64());
    assert!(handover <= Duration::from_secs(15), "handover took {handover:?}");
    assert!(wait_until(Duration::from_secs(30), || async move { all_received(sink).await.len() >= 12 }).await, "pushes after the handover");
    let records = all_received(sink).await;
    let (accepted, _) = tally(&records);
    assert_eq!(accepted.len(), 12, "{records:?}");
    assert!(accepted.values().all(|n| *n == 1), "{accepted:?}");
    // The status page learns of the new leader from the database (it runs in another process).
    let status = cluster.get("/api/status", None).await;
    let last_tick: Timestamp = status["data"]["scheduler_last_tick"].as_str().expect("a last tick").parse().unwrap();
    assert!(Timestamp::now().duration_since(last_tick) < SignedDuration::from_secs(10), "{status}");
    assert_eq!(cluster.get("/api/health", None).await["data"]["checks"]["scheduler"], "ok");
    cluster.start("scheduler", "scheduler-c", &[]);

    // 3. kill -9 of a worker in the middle of a batch: 60 pushes held 400 ms by the push
    //    service; one worker dies while some are in flight. Every (reminder, device) is then
    //    accepted exactly once; the pushes the dead worker never saw answered are retried.
    for sub in &subs {
        sink.behave(sub, json!({ "delay_ms": 400 })).await;
    }
    let before = all_received(sink).await.len();
    let due = whole_second_ahead(SignedDuration::from_secs(3));
    let mut batch = Vec::new();
    for token in &tokens {
        let titles: Vec<String> = (0..10).map(|i| format!("batch {i}")).collect();
        batch.extend(cluster.reminders_at(token, due, &titles).await);
    }
    assert!(wait_until(Duration::from_secs(20), || async move { all_received(sink).await.len() > before }).await, "the batch started");
    tokio::time::sleep(Duration::from_millis(100)).await;
    cluster.kill9("worker-a");
    for sub in &subs {
        sink.behave(sub, json!({ "times": 0 })).await;
    }
    let batch_logs = |records: &[Value]| -> HashSet<(String, String)> {
        let (accepted, _) = tally(records);
        accepted.into_keys().filter(|(_, log)| !log.is_empty()).collect()
    };
    let expected = 12 + 60;
    let batch_logs = &batch_logs;
    let recovered = wait_until(Duration::from_secs(240), || async move { batch_logs(&all_received(sink).await).len() >= expected }).await;
    let records = all_received(sink).await;
    let (accepted, aborted) = tally(&records);
    println!("worker kill -9: {aborted} pushes aborted in flight and sent again, {} accepted", accepted.values().sum::<usize>());
    assert!(recovered, "every (reminder, device) accepted after the worker's death: {} of {expected}", accepted.len());
    assert_eq!(accepted.len(), expected);
    let doubles: Vec<_> = accepted.iter().filter(|(_, n)| **n > 1).collect();
    assert!(doubles.is_empty(), "accepted twice: {doubles:?}");
    // Every entry settles as sent. A device the dead worker had claimed is taken over once
    // its claim is stale (60 s) by a job the scheduler's reconcile pass enqueues again.
    for (id, token) in batch.iter().zip(tokens.iter().flat_map(|t| std::iter::repeat_n(t, 10))) {
        let logs = cluster.get(&format!("/api/reminders/{id}/logs"), Some(token)).await;
        let entries = logs["data"].as_array().unwrap();
        assert_eq!(entries.len(), 1, "{logs}");
        let c = &cluster;
        let settled = wait_until(Duration::from_secs(180), || async move {
            c.get(&format!("/api/reminders/{id}/logs"), Some(token)).await["data"][0]["status"] == "sent"
        })
        .await;
        assert!(settled, "{id}: {}", cluster.get(&format!("/api/reminders/{id}/logs"), Some(token)).await);
    }
    let (accepted, _) = tally(&all_received(sink).await);
    assert_eq!(accepted.len(), expected);
    let doubles: Vec<_> = accepted.iter().filter(|(_, n)| **n > 1).collect();
    assert!(doubles.is_empty(), "accepted twice once everything settled: {doubles:?}");

    // 4. Every metric a dashboard or alert names is exported by some process of this run.
    let mut files = Vec::new();
    for p in &cluster.processes {
        let text = cluster.metrics(&p.name).await.unwrap_or_else(|| panic!("{} serves /metrics", p.name));
        let file = dir.join(format!("{}.prom", p.name));
        std::fs::write(&file, text).unwrap();
        files.push(file);
    }
    let check = Command::new(helpers::python())
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ops/metrics_used.py"))
        .args(&files)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "a dashboard or alert queries a metric no process exports:\n{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
}

/// The embedded all-in-one (SQLite, queues in SQLite) in a fresh directory, not started yet,
/// with the developer sign-in and loopback push endpoints allowed, plus `extra` settings.
fn embedded_cluster(tag: &str, extra: &[(&str, &str)]) -> Cluster {
    let dir = std::env::temp_dir().join(format!("hibiki-{tag}-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let mut env: Vec<(String, String)> = vec![
        ("HIBIKI_DATA_DIR".into(), dir.join("data").display().to_string()),
        ("HIBIKI_ALLOW_PRIVATE_PUSH".into(), "1".into()),
        ("HIBIKI_DEV_LOGIN".into(), "1".into()),
        ("HIBIKI_LISTEN".into(), format!("127.0.0.1:{port}")),
        ("HIBIKI_PUBLIC_URL".into(), format!("http://127.0.0.1:{port}")),
    ];
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    Cluster {
        dir,
        env,
        processes: Vec::new(),
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap(),
        database: None,
    }
}

/// Waits (30 s at most) until the cluster's API answers its health check.
async fn api_up(cluster: &Cluster) -> bool {
    let (client, health) = (cluster.client.clone(), format!("{}/api/health", cluster.base));
    wait_until(Duration::from_secs(30), || async { client.head(&health).send().await.is_ok_and(|r| r.status() == 200) }).await
}

/// The embedded all-in-one (SQLite, queues in SQLite) killed with `kill -9` in the middle of a
/// batch and started again: every reminder reaches every device, and no push the push service
/// accepted is sent twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_embedded_process_killed_mid_batch_delivers_everything_once_after_a_restart() {
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink (pip install -r tests/pushsink/requirements.txt, or set HIBIKI_TEST_PYTHON)");
        return;
    };
    let sink = &sink;
    let mut cluster = embedded_cluster("embedded", &[("HIBIKI_LOG_FORMAT", "json")]);
    cluster.start("all", "first", &[]);
    assert!(api_up(&cluster).await, "hibiki did not start");
    let (tokens, subs) = users_with_devices(&cluster, sink, &["dev@example.com"]).await;
    for sub in &subs {
        sink.behave(sub, json!({ "delay_ms": 400 })).await;
    }
    let due = whole_second_ahead(SignedDuration::from_secs(3));
    let titles: Vec<String> = (0..20).map(|i| format!("embedded {i}")).collect();
    cluster.reminders_at(&tokens[0], due, &titles).await;
    assert!(wait_until(Duration::from_secs(20), || async move { !all_received(sink).await.is_empty() }).await, "the batch started");
    tokio::time::sleep(Duration::from_millis(100)).await;
    cluster.kill9("first");
    for sub in &subs {
        sink.behave(sub, json!({ "times": 0 })).await;
    }
    cluster.start("all", "second", &[]);
    assert!(api_up(&cluster).await, "hibiki did not start again");
    let expected = 20 * subs.len();
    let recovered = wait_until(Duration::from_secs(240), || async move { tally(&all_received(sink).await).0.len() >= expected }).await;
    let records = all_received(sink).await;
    let (accepted, aborted) = tally(&records);
    println!("embedded kill -9: {aborted} pushes aborted in flight and sent again, {} accepted", accepted.values().sum::<usize>());
    assert!(recovered, "every (reminder, device) accepted after the restart: {} of {expected}", accepted.len());
    let doubles: Vec<_> = accepted.iter().filter(|(_, n)| **n > 1).collect();
    assert!(doubles.is_empty(), "accepted twice: {doubles:?}");
}

/// The email fallback survives `kill -9` in its waiting time: the embedded all-in-one is
/// killed after the push went out (no device shows it), started again, and the reminder is
/// emailed exactly once when the delay is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pending_email_fallback_survives_kill_9_and_is_sent_once() {
    let Some(sink) = PushSink::start().await else {
        unavailable("the push sink (pip install -r tests/pushsink/requirements.txt, or set HIBIKI_TEST_PYTHON)");
        return;
    };
    // One fallback "minute" lasts 8 s here: the kill and the restart fall inside it.
    let mut cluster = embedded_cluster("fallback", &[("HIBIKI_FALLBACK_MINUTE_MS", "8000")]);
    let dir = cluster.dir.clone();
    cluster.start("all", "first", &[]);
    assert!(api_up(&cluster).await, "hibiki did not start");
    let (tokens, subs) = users_with_devices(&cluster, &sink, &["dev@example.com"]).await;
    let r = cluster
        .client
        .put(format!("{}/api/settings", cluster.base))
        .bearer_auth(&tokens[0])
        .json(&json!({ "email_fallback_minutes": 1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let due = whole_second_ahead(SignedDuration::from_secs(2));
    cluster.reminders_at(&tokens[0], due, &["Kill test".to_owned()]).await;
    let (sink, devices) = (&sink, subs.len());
    assert!(
        wait_until(Duration::from_secs(15), || async move { all_received(sink).await.len() >= devices }).await,
        "pushed to both devices"
    );
    cluster.kill9("first");
    let outbox = dir.join("data").join("outbox");
    let fallbacks = move || {
        std::fs::read_dir(&outbox)
            .map(|entries| {
                entries
                    .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
                    .filter(|m| m.contains("Subject: Hibiki reminder: Kill test"))
                    .count()
            })
            .unwrap_or(0)
    };
    assert_eq!(fallbacks(), 0, "nothing emailed before the delay");
    cluster.start("all", "second", &[]);
    assert!(api_up(&cluster).await, "hibiki did not start again");
    let fallbacks = &fallbacks;
    assert!(
        wait_until(Duration::from_secs(60), || async move { fallbacks() >= 1 }).await,
        "the pending fallback was sent after the restart"
    );
    assert!(Timestamp::now() >= due + SignedDuration::from_secs(8), "not before the delay");
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(fallbacks(), 1, "exactly once");
    let logs: Value = cluster
        .get(
            &format!("/api/reminders/{}/logs", cluster.get("/api/reminders", Some(&tokens[0])).await["data"][0]["id"].as_str().unwrap()),
            Some(&tokens[0]),
        )
        .await;
    assert!(logs["data"][0]["emailed_at"].is_string(), "{logs}");
}
