//! `cargo run --release --example bench [-- all|encrypt|push|wheel]`: figures for
//! BENCHMARKS.md, measured on this machine. Prints each figure with what it measures; nothing
//! here is a pass/fail test.
//!
//! 1. The bound: one core's rate of the bare RFC 8291 cost (ephemeral P-256 key + ECDH +
//!    HKDF + AES-128-GCM), on ring's primitives; `openssl speed ecdhp256` as a reference.
//! 2. The `web-push` crate's own per-message rate and Hibiki's RFC 8291 path
//!    (`hibiki_worker::ece`), each with its ratio to the bound (encryption only; VAPID is
//!    signed once per push-service origin and reused, so it is not per message).
//! 3. Hibiki's encrypted pushes per second on one core through `PushClient::send` into a
//!    loopback HTTP/2 push sink (hyper + rustls, a self-signed CA from rcgen, ALPN h2) running
//!    on the other core, with 0 and 50 ms of injected latency and 1 to 1000 pushes in flight;
//!    with checks that HTTP/2 was negotiated, that the client's sockets have TCP_NODELAY, how
//!    many VAPID signatures were made, and that a received message decrypts (ece crate).
//! 4. The scheduler's timing wheel: bytes per pending occurrence, insert and fire rates.

use std::hint::black_box;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hibiki_common::infra::keys::VapidKeys;
use hibiki_common::infra::storage::SubscriptionKeys;
use hibiki_worker::push::{PushClient, PushOptions, PushOutcome, PushSettings};

use hibiki_scheduler::wheel::TimingWheel;
use ring::aead::{AES_128_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use ring::agreement::{ECDH_P256, EphemeralPrivateKey, UnparsedPublicKey, agree_ephemeral};
use ring::hkdf;
use ring::rand::SystemRandom;

const PAYLOAD: usize = 300;

/// Rates of several functions, run in alternating 200 ms turns until each has had `min`, so
/// that a busy moment of the (shared) machine falls on all of them alike. Each rate is per
/// CPU-second of this thread (what one core does while it runs this), with the per-second
/// wall-clock rate beside it.
fn rates_in_turns(min: Duration, fs: &mut [&mut dyn FnMut()]) -> Vec<(f64, f64)> {
    let mut wall = vec![Duration::ZERO; fs.len()];
    let mut cpu = vec![Duration::ZERO; fs.len()];
    let mut counts = vec![0u64; fs.len()];
    for f in fs.iter_mut() {
        for _ in 0..50 {
            f();
        }
    }
    while wall.iter().any(|s| *s < min) {
        for (i, f) in fs.iter_mut().enumerate() {
            let (start, cpu_start) = (Instant::now(), thread_cpu());
            while start.elapsed() < Duration::from_millis(200) {
                for _ in 0..20 {
                    f();
                }
                counts[i] += 20;
            }
            wall[i] += start.elapsed();
            cpu[i] += thread_cpu() - cpu_start;
        }
    }
    (0..fs.len()).map(|i| (counts[i] as f64 / cpu[i].as_secs_f64(), counts[i] as f64 / wall[i].as_secs_f64())).collect()
}

struct Len(usize);
impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

/// The work RFC 8291 asks of a sender per message, on ring.
fn bare_rfc8291(rng: &SystemRandom, ua_public: &[u8], auth: &[u8; 16], payload: &[u8]) -> Vec<u8> {
    let ephemeral = EphemeralPrivateKey::generate(&ECDH_P256, rng).unwrap();
    let as_public = ephemeral.compute_public_key().unwrap();
    let peer = UnparsedPublicKey::new(&ECDH_P256, ua_public);
    let (cek, nonce) = agree_ephemeral(ephemeral, &peer, |shared| {
        let mut info = Vec::with_capacity(144);
        info.extend_from_slice(b"WebPush: info\0");
        info.extend_from_slice(ua_public);
        info.extend_from_slice(as_public.as_ref());
        let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, auth).extract(shared);
        let mut ikm = [0u8; 32];
        prk.expand(&[&info], Len(32)).unwrap().fill(&mut ikm).unwrap();
        let salt = [7u8; 16];
        let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, &salt).extract(&ikm);
        let mut cek = [0u8; 16];
        prk.expand(&[b"Content-Encoding: aes128gcm\0"], Len(16)).unwrap().fill(&mut cek).unwrap();
        let mut nonce = [0u8; 12];
        prk.expand(&[b"Content-Encoding: nonce\0"], Len(12)).unwrap().fill(&mut nonce).unwrap();
        (cek, nonce)
    })
    .unwrap();
    let key = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &cek).unwrap());
    let mut record = payload.to_vec();
    record.push(2); // the last record's delimiter
    key.seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), &mut record).unwrap();
    record
}

fn openssl_ecdh_reference() -> Option<f64> {
    let out = std::process::Command::new("openssl").args(["speed", "-seconds", "2", "ecdhp256"]).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    // The table's last line: " 256 bits ecdh (nistp256)   0.0001s   12345.6"
    let line = text.lines().rev().find(|l| l.contains("nistp256"))?;
    line.split_whitespace().last()?.parse().ok()
}

/// A subscription: the user agent's key pair and auth secret.
struct UserAgent {
    private: Vec<u8>,
    public: Vec<u8>,
    auth: [u8; 16],
}

fn user_agent(seed: u8) -> UserAgent {
    use p256::elliptic_curve::sec1::ToEncodedPoint;
    let secret = p256::SecretKey::from_slice(&[seed.max(1); 32]).unwrap();
    UserAgent {
        private: secret.to_bytes().to_vec(),
        public: secret.public_key().to_encoded_point(false).as_bytes().to_vec(),
        auth: [seed ^ 0x5a; 16],
    }
}

fn encryption(min: Duration) -> f64 {
    let rng = SystemRandom::new();
    let ua = user_agent(0x11);
    let payload = vec![b'x'; PAYLOAD];

    println!("== Encryption ({PAYLOAD}-byte payload; the three are measured in turns, so they share the machine's moments)");
    let info = web_push::SubscriptionInfo::new(
        "https://push.example.com/x".to_owned(),
        URL_SAFE_NO_PAD.encode(&ua.public),
        URL_SAFE_NO_PAD.encode(ua.auth),
    );
    let rates = rates_in_turns(
        min,
        &mut [
            &mut || {
                black_box(bare_rfc8291(&rng, &ua.public, &ua.auth, &payload));
            },
            &mut || {
                let mut b = web_push::WebPushMessageBuilder::new(&info);
                b.set_payload(web_push::ContentEncoding::Aes128Gcm, &payload);
                black_box(b.build().unwrap());
            },
            &mut || {
                black_box(hibiki_worker::ece::encrypt(&rng, &ua.public, &ua.auth, &payload).unwrap());
            },
        ],
    );
    let [(bound, bound_wall), (crate_rate, crate_wall), (fast, fast_wall)] = rates[..] else { unreachable!() };
    let line = |label: &str, cpu: f64, wall: f64| println!("{label:<58} {cpu:>8.0} /CPU-s  ({wall:.0} /s wall)");
    line("bound: bare RFC 8291 (P-256 keygen+ECDH+HKDF+AES-GCM), ring", bound, bound_wall);
    match openssl_ecdh_reference() {
        Some(ops) => println!("{:<58} {:>8.0} /s", "reference: openssl speed ecdhp256 (ECDH only)", ops),
        None => println!("reference: openssl speed ecdhp256 not available here"),
    }
    line("web-push crate: WebPushMessageBuilder::build (encrypt)", crate_rate, crate_wall);
    println!("{:<58} {:>8.2}", "ratio web-push crate / bound", crate_rate / bound);
    line("Hibiki: hibiki_worker::ece::encrypt (ring)", fast, fast_wall);
    println!("{:<58} {:>8.2}", "ratio Hibiki ece / bound (target >= 0.75)", fast / bound);
    println!("{:<58} {:>8.2}", "ratio Hibiki ece / web-push crate", fast / crate_rate);
    bound
}

// ---------------------------------------------------------------------------------------
// A loopback HTTP/2 push sink: TLS (rustls, ring), ALPN h2 only, answers 201 after the
// injected latency. It runs on its own thread and runtime, the client on the main thread.

#[derive(Default)]
struct SinkStats {
    requests: AtomicU64,
    http2_requests: AtomicU64,
    connections: AtomicU64,
    alpn_h2: AtomicU64,
    /// One received message (subscription index, body), to decrypt independently.
    sample: Mutex<Option<(usize, Vec<u8>)>>,
}

struct Sink {
    port: u16,
    root_der: Vec<u8>,
    latency_ms: Arc<AtomicU64>,
    stats: Arc<SinkStats>,
}

fn start_sink() -> Sink {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
    use tokio_rustls::rustls;

    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_cert = ca_params.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca_params, ca_key);
    let leaf_key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_owned()]).unwrap().signed_by(&leaf_key, &issuer).unwrap();

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut tls = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![leaf.der().clone()], rustls::pki_types::PrivateKeyDer::Pkcs8(leaf_key.serialize_der().into()))
        .unwrap();
    tls.alpn_protocols = vec![b"h2".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(tls));

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let latency_ms = Arc::new(AtomicU64::new(0));
    let stats = Arc::new(SinkStats::default());
    let (latency, st) = (latency_ms.clone(), stats.clone());
    std::thread::Builder::new()
        .name("push-sink".into())
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                loop {
                    let Ok((stream, _)) = listener.accept().await else { continue };
                    stream.set_nodelay(true).unwrap();
                    let (acceptor, latency, st) = (acceptor.clone(), latency.clone(), st.clone());
                    tokio::spawn(async move {
                        let Ok(tls) = acceptor.accept(stream).await else { return };
                        st.connections.fetch_add(1, Ordering::Relaxed);
                        if tls.get_ref().1.alpn_protocol() == Some(b"h2") {
                            st.alpn_h2.fetch_add(1, Ordering::Relaxed);
                        }
                        let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                            let (latency, st) = (latency.clone(), st.clone());
                            async move { sink_answer(req, &latency, &st).await }
                        });
                        let _ = hyper::server::conn::http2::Builder::new(hyper_util::rt::TokioExecutor::new())
                            .max_concurrent_streams(1000)
                            .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                            .await;
                    });
                }
            });
        })
        .unwrap();
    Sink { port, root_der: ca_cert.der().to_vec(), latency_ms, stats }
}

async fn sink_answer(
    req: hyper::Request<hyper::body::Incoming>,
    latency: &AtomicU64,
    st: &SinkStats,
) -> Result<hyper::Response<http_body_util::Empty<hyper::body::Bytes>>, hyper::Error> {
    use http_body_util::BodyExt;
    st.requests.fetch_add(1, Ordering::Relaxed);
    if req.version() == hyper::Version::HTTP_2 {
        st.http2_requests.fetch_add(1, Ordering::Relaxed);
    }
    let index: Option<usize> = req.uri().path().strip_prefix("/push/").and_then(|i| i.parse().ok());
    let body = req.into_body().collect().await?.to_bytes();
    if let Some(index) = index {
        let mut sample = st.sample.lock().unwrap();
        if sample.is_none() {
            *sample = Some((index, body.to_vec()));
        }
    }
    let ms = latency.load(Ordering::Relaxed);
    if ms > 0 {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    Ok(hyper::Response::builder().status(201).body(http_body_util::Empty::new()).unwrap())
}

/// CPU time of the calling thread (the client's runtime runs on it), and of the whole process.
fn thread_cpu() -> Duration {
    cpu(rustix::time::ClockId::ThreadCPUTime)
}

fn process_cpu() -> Duration {
    cpu(rustix::time::ClockId::ProcessCPUTime)
}

fn cpu(clock: rustix::time::ClockId) -> Duration {
    let t = rustix::time::clock_gettime(clock);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// TCP_NODELAY on this process's open sockets connected to `port`, read back from the kernel:
/// (sockets, with TCP_NODELAY). Each socket is duplicated with pidfd_getfd to ask for it.
fn client_sockets_nodelay(port: u16) -> Result<(usize, usize), String> {
    use rustix::process::{PidfdFlags, PidfdGetfdFlags, getpid, pidfd_getfd, pidfd_open};
    let me = pidfd_open(getpid(), PidfdFlags::empty()).map_err(|e| format!("pidfd_open: {e}"))?;
    let (mut sockets, mut nodelay) = (0, 0);
    for entry in std::fs::read_dir("/proc/self/fd").map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        let is_socket = std::fs::read_link(entry.path()).map(|t| t.to_string_lossy().starts_with("socket:")).unwrap_or(false);
        let Some(number) = entry.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
        if !is_socket {
            continue;
        }
        let fd = pidfd_getfd(&me, number, PidfdGetfdFlags::empty()).map_err(|e| format!("pidfd_getfd: {e}"))?;
        let peer = rustix::net::getpeername(&fd).ok().flatten().and_then(|a| std::net::SocketAddr::try_from(a).ok());
        if peer.map(|p| p.port()) == Some(port) {
            sockets += 1;
            if rustix::net::sockopt::tcp_nodelay(&fd).map_err(|e| e.to_string())? {
                nodelay += 1;
            }
        }
    }
    Ok((sockets, nodelay))
}

/// Sends for `duration` with `inflight` pushes outstanding at every moment (one task each);
/// returns (delivered, other outcomes, elapsed, client CPU time, CPU time of the rest: the sink).
async fn push_run(
    client: &Arc<PushClient>,
    subs: &Arc<Vec<SubscriptionKeys>>,
    payload: &Arc<Vec<u8>>,
    inflight: usize,
    duration: Duration,
) -> (u64, u64, Duration, Duration, Duration) {
    let options = PushOptions { ttl: 3600, urgency_high: true };
    let cpu = thread_cpu();
    let all = process_cpu();
    let start = Instant::now();
    let deadline = start + duration;
    let tasks: Vec<_> = (0..inflight)
        .map(|w| {
            let (client, subs, payload) = (client.clone(), subs.clone(), payload.clone());
            tokio::spawn(async move {
                let (mut ok, mut other) = (0u64, 0u64);
                let mut i = w;
                while Instant::now() < deadline {
                    match client.send(&subs[i % subs.len()], &payload, None, options).await {
                        PushOutcome::Delivered(_) => ok += 1,
                        _ => other += 1,
                    }
                    i += inflight;
                }
                (ok, other)
            })
        })
        .collect();
    let (mut ok, mut other) = (0, 0);
    for t in tasks {
        let (o, x) = t.await.unwrap();
        ok += o;
        other += x;
    }
    let client = thread_cpu() - cpu;
    (ok, other, start.elapsed(), client, (process_cpu() - all).saturating_sub(client))
}

fn pushes(bound: f64, per_row: Duration) {
    println!("\n== Pushes through PushClient::send into a loopback HTTP/2 push sink ({PAYLOAD}-byte payload)");
    let sink = start_sink();
    let settings = PushSettings {
        allow_private: true,
        // All pushes go to one origin here; the production default (1000/s) would be the limit.
        rate_per_second: NonZeroU32::new(1_000_000).unwrap(),
        ..PushSettings::default()
    };
    let client = Arc::new(
        PushClient::with_root_certificate(VapidKeys::generate(), "mailto:bench@example.com".into(), settings, &sink.root_der).unwrap(),
    );
    let agents: Vec<UserAgent> = (1..=64u8).map(user_agent).collect();
    let subs: Arc<Vec<SubscriptionKeys>> = Arc::new(
        agents
            .iter()
            .enumerate()
            .map(|(i, ua)| SubscriptionKeys {
                id: uuid::Uuid::from_u128(i as u128).into(),
                endpoint: format!("https://127.0.0.1:{}/push/{i}", sink.port),
                p256dh: URL_SAFE_NO_PAD.encode(&ua.public),
                auth: URL_SAFE_NO_PAD.encode(ua.auth),
            })
            .collect(),
    );
    let payload = Arc::new(vec![b'x'; PAYLOAD]);
    println!(
        "client: one thread (tokio current_thread); sink: another thread; h2 max_concurrent_streams 1000; rate limit raised to 1,000,000/s"
    );
    println!(
        "{:>8} {:>9} {:>8} {:>8} {:>7} {:>6} {:>8} {:>11} {:>11}",
        "latency", "in flight", "sent", "sends/s", "client", "sink", "ratio", "sends/CPU-s", "ratio/CPU-s"
    );

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (mut best, mut best_cpu) = (0f64, 0f64);
    rt.block_on(async {
        // Warm up: the connection, TLS, h2 and the one VAPID signature (one push first, so
        // that the later ones find the HTTP/2 connection and share it).
        let _ = push_run(&client, &subs, &payload, 1, Duration::from_millis(1)).await;
        let _ = push_run(&client, &subs, &payload, 10, Duration::from_millis(500)).await;
        for latency in [0u64, 50] {
            sink.latency_ms.store(latency, Ordering::Relaxed);
            for inflight in [1usize, 10, 100, 1000] {
                let (ok, other, elapsed, cpu, sink_cpu) = push_run(&client, &subs, &payload, inflight, per_row).await;
                let per_s = ok as f64 / elapsed.as_secs_f64();
                let per_cpu_s = ok as f64 / cpu.as_secs_f64().max(1e-9);
                best = best.max(per_s);
                best_cpu = best_cpu.max(per_cpu_s);
                println!(
                    "{:>5} ms {:>9} {:>8} {:>8.0} {:>6.0}% {:>5.0}% {:>8.2} {:>11.0} {:>11.2}{}",
                    latency,
                    inflight,
                    ok,
                    per_s,
                    100.0 * cpu.as_secs_f64() / elapsed.as_secs_f64(),
                    100.0 * sink_cpu.as_secs_f64() / elapsed.as_secs_f64(),
                    per_s / bound,
                    per_cpu_s,
                    per_cpu_s / bound,
                    if other > 0 { format!("  ({other} not delivered)") } else { String::new() }
                );
            }
        }
    });
    println!("(client, sink: CPU time of the client's thread and of the rest of the process, as % of wall time;");
    println!(" ratio: sends/s / bound; ratio/CPU-s: sends per CPU-second of the client's thread / bound)");
    println!("{:<58} {:>8.2}", "best ratio sends/s (client on one thread) / bound", best / bound);
    println!("{:<58} {:>8.2}", "best ratio sends per client CPU-second / bound (>= 0.6?)", best_cpu / bound);

    let st = &sink.stats;
    let requests = st.requests.load(Ordering::Relaxed);
    println!(
        "HTTP/2: {} of {} requests; {} TLS connection(s), {} with ALPN h2",
        st.http2_requests.load(Ordering::Relaxed),
        requests,
        st.connections.load(Ordering::Relaxed),
        st.alpn_h2.load(Ordering::Relaxed)
    );
    match client_sockets_nodelay(sink.port) {
        Ok((sockets, nodelay)) => {
            println!("TCP_NODELAY: set on {nodelay} of {sockets} client socket(s) to the sink (read back with getsockopt)")
        }
        Err(e) => println!("TCP_NODELAY: could not be read back here ({e})"),
    }
    println!("VAPID signatures: {} for {} pushes to 1 origin (reused for an hour)", client.vapid_signatures(), requests);
    let sample = st.sample.lock().unwrap().clone();
    match sample {
        Some((index, body)) => {
            let ua = &agents[index];
            let components = ece::EcKeyComponents::new(ua.private.clone(), ua.public.clone());
            let ok = ece::decrypt(&components, &ua.auth, &body).map(|p| p == *payload).unwrap_or(false);
            println!("a received message decrypts with the ece crate (OpenSSL) to the payload: {}", if ok { "yes" } else { "NO" });
        }
        None => println!("no message received"),
    }
}

fn wheel() {
    println!("\n== Timing wheel (key = (u128 reminder id, u8 kind), horizon 3600 s)");
    for (label, spread) in [("100,000 spread over the hour", 3599i64), ("100,000 due in one second", 1)] {
        let mut wheel: TimingWheel<(u128, u8)> = TimingWheel::new(0, 3600);
        let start = Instant::now();
        for i in 0..100_000u128 {
            wheel.insert((i.wrapping_mul(0x9e37_79b9_7f4a_7c15), 0), 1 + (i as i64 % spread));
        }
        let insert = start.elapsed();
        let bytes = wheel.heap_bytes() as f64 / wheel.len() as f64;
        let mut out = Vec::with_capacity(100_000);
        let start = Instant::now();
        wheel.advance(3600, &mut out);
        let fire = start.elapsed();
        assert_eq!(out.len(), 100_000);
        println!(
            "{label:<32} {bytes:>6.1} bytes/occurrence, insert {:>6.0} ns each, fire {:>6.0} ns each",
            insert.as_nanos() as f64 / 1e5,
            fire.as_nanos() as f64 / 1e5
        );
    }
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    if !["all", "encrypt", "push", "wheel"].contains(&mode.as_str()) {
        eprintln!("usage: bench [all|encrypt|push|wheel]");
        std::process::exit(2);
    }
    let min = Duration::from_secs(3);
    println!("Hibiki benchmark (one core; {} logical CPUs here)\n", std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    if mode == "all" || mode == "encrypt" || mode == "push" {
        let bound = encryption(min);
        if mode != "encrypt" {
            pushes(bound, min);
        }
    }
    if mode == "all" || mode == "wheel" {
        wheel();
    }
}
