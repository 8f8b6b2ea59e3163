//! Slow and greedy clients against the real `hibiki` process: a slow request head, a silent
//! connection and an idle keep-alive connection are closed within their limits (10 s for a
//! head, 60 s idle); the connection caps, per client address and in all, answer over-cap
//! connections without harming other clients; and the process's memory goes back near its
//! baseline after 1,000 slow clients have been closed.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

struct Server {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn start(env: &[(&str, &str)]) -> Server {
    let dir = std::env::temp_dir().join(format!("hibiki-slow-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let log = std::fs::File::create(dir.join("hibiki.log")).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_hibiki"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HIBIKI_DATA_DIR", dir.join("data"))
        .env("HIBIKI_LISTEN", format!("127.0.0.1:{port}"))
        .env("HIBIKI_METRICS_LISTEN", "off")
        .env("HIBIKI_API_RATE_PER_MINUTE", "100000")
        .envs(env.iter().copied())
        .current_dir(&dir)
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let server = Server { child, port, dir };
    for _ in 0..300 {
        if let Ok(status) = get_health(&server, "127.0.0.1").await
            && status == 200
        {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("hibiki did not start");
}

/// A connection from `from` (any 127.x.y.z address is this machine).
async fn connect(server: &Server, from: &str) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(format!("{from}:0").parse().unwrap())?;
    socket.connect(format!("127.0.0.1:{}", server.port).parse().unwrap()).await
}

/// One `GET /api/health` on a fresh connection from `from`: its status code.
async fn get_health(server: &Server, from: &str) -> std::io::Result<u16> {
    let mut stream = connect(server, from).await?;
    stream.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").await?;
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await.map_err(|_| std::io::ErrorKind::TimedOut)??;
    let text = String::from_utf8_lossy(&answer);
    text.split(' ').nth(1).and_then(|c| c.parse().ok()).ok_or_else(|| std::io::Error::other(format!("no status in {text:?}")))
}

/// Reads until the server closes the connection; how long that took.
async fn closed_after(mut stream: TcpStream, started: Instant, limit: Duration) -> Option<Duration> {
    let mut buf = [0u8; 4096];
    let until = started + limit;
    loop {
        match tokio::time::timeout_at(until.into(), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => continue,
            Err(_) => return None,
        }
    }
}

fn rss_kib(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()).and_then(|v| v.parse().ok()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_silent_and_idle_connections_are_closed_within_their_limits() {
    let server = start(&[]).await;
    let server = &server;

    // A head sent one line every 4.8 s: closed 10 s after its first byte.
    let slow = async {
        let mut stream = connect(server, "127.0.0.1").await.unwrap();
        let started = Instant::now();
        stream.write_all(b"GET /api/health HTTP/1.1\r\n").await.unwrap();
        let (mut reader, mut writer) = stream.into_split();
        let dripping = tokio::spawn(async move {
            for i in 0..30 {
                tokio::time::sleep(Duration::from_millis(4800)).await;
                if writer.write_all(format!("X-Drip-{i}: x\r\n").as_bytes()).await.is_err() {
                    return i;
                }
            }
            30
        });
        let mut buf = [0u8; 1024];
        let closed = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                match reader.read(&mut buf).await {
                    Ok(0) | Err(_) => return started.elapsed(),
                    Ok(_) => {}
                }
            }
        })
        .await;
        dripping.abort();
        closed.expect("the slow head was never closed")
    };
    // Nothing at all after connecting: closed 10 s after it opened.
    let silent = async {
        let stream = connect(server, "127.0.0.1").await.unwrap();
        closed_after(stream, Instant::now(), Duration::from_secs(20)).await.expect("the silent connection was never closed")
    };
    // A keep-alive connection left idle after one request: kept about 60 s, then closed.
    let idle = async {
        let mut stream = connect(server, "127.0.0.1").await.unwrap();
        stream.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await.unwrap();
        let mut buf = [0u8; 4096];
        let n = stream.read(&mut buf).await.unwrap();
        assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"), "{}", String::from_utf8_lossy(&buf[..n]));
        closed_after(stream, Instant::now(), Duration::from_secs(75)).await.expect("the idle connection was never closed")
    };
    let (slow, silent, idle) = tokio::join!(slow, silent, idle);
    println!("closed after: slow head {slow:?}, silent {silent:?}, idle keep-alive {idle:?}");
    assert!(slow >= Duration::from_secs(9) && slow <= Duration::from_millis(11_500), "slow head: {slow:?}");
    assert!(silent >= Duration::from_secs(9) && silent <= Duration::from_millis(11_500), "silent: {silent:?}");
    assert!(idle >= Duration::from_secs(55) && idle <= Duration::from_secs(62), "idle keep-alive: {idle:?}");
    // The server is fine.
    assert_eq!(get_health(server, "127.0.0.1").await.unwrap(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_caps_answer_over_cap_clients_and_spare_the_others() {
    let server = start(&[("HIBIKI_MAX_CONNECTIONS_PER_CLIENT", "5"), ("HIBIKI_MAX_CONNECTIONS", "12")]).await;
    // One client holds 5 silent connections: its 6th is answered 429 at once.
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(connect(&server, "127.0.0.2").await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(get_health(&server, "127.0.0.2").await.unwrap(), 429, "over the per-client cap");
    // Other clients are served meanwhile.
    assert_eq!(get_health(&server, "127.0.0.3").await.unwrap(), 200);
    // Fill the total (12) from other addresses: the next connection, from anyone, gets 503.
    for i in 0..7 {
        held.push(connect(&server, &format!("127.0.1.{}", i + 1)).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(get_health(&server, "127.0.0.4").await.unwrap(), 503, "over the total cap");
    // Their places come back when they leave.
    held.clear();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(get_health(&server, "127.0.0.2").await.unwrap(), 200);
    assert_eq!(get_health(&server, "127.0.0.4").await.unwrap(), 200);
}

/// 1,000 clients (from 20 addresses, 50 each) each send half a request head and are closed by
/// the server 10 s later; RSS with them and after.
async fn slow_clients_come_and_go(server: &Server, round: usize) -> (u64, u64) {
    let mut streams = Vec::new();
    for i in 0..1000 {
        let mut s = connect(server, &format!("127.0.{}.{}", round + 2, i % 20 + 1)).await.unwrap();
        s.write_all(b"POST /api/reminders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n").await.unwrap();
        streams.push(s);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let with_them = rss_kib(server);
    let started = Instant::now();
    let mut closed = 0;
    for s in streams {
        if closed_after(s, started, Duration::from_secs(15)).await.is_some() {
            closed += 1;
        }
    }
    assert_eq!(closed, 1000, "every slow client was closed");
    // A little traffic afterwards, as a server has: an allocator may return memory on it.
    for _ in 0..12 {
        assert_eq!(get_health(server, "127.0.0.1").await.unwrap(), 200);
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    (with_them, rss_kib(server))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_goes_back_near_its_baseline_after_1000_slow_clients() {
    let server = start(&[("HIBIKI_MAX_CONNECTIONS_PER_CLIENT", "100")]).await;
    for _ in 0..20 {
        assert_eq!(get_health(&server, "127.0.0.1").await.unwrap(), 200);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let baseline = rss_kib(&server);
    let (with_them, after) = slow_clients_come_and_go(&server, 0).await;
    println!("RSS: baseline {baseline} KiB, with 1,000 slow clients {with_them} KiB, 13 s after they were closed {after} KiB");
    assert!(with_them > baseline, "the clients cost memory while they were there");
    assert!(after <= baseline + 8 * 1024, "after: {after} KiB, baseline {baseline} KiB");
    assert_eq!(get_health(&server, "127.0.0.1").await.unwrap(), 200);
}
