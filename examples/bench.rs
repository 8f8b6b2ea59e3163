//! `cargo run --release --example bench`: figures for BENCHMARKS.md, measured on this machine.
//! Prints each figure with what it measures; nothing here is a pass/fail test.
//!
//! 1. The bound: one core's rate of the bare RFC 8291 cost (ephemeral P-256 key + ECDH +
//!    HKDF + AES-128-GCM), on ring's primitives; `openssl speed ecdhp256` as a reference.
//! 2. The `web-push` crate's own per-message rate (encryption only; VAPID is signed once per
//!    push-service origin and reused, so it is not per message).
//! 3. The scheduler's timing wheel: bytes per pending occurrence, insert and fire rates.

use std::hint::black_box;
use std::time::{Duration, Instant};

use hibiki_scheduler::wheel::TimingWheel;
use ring::aead::{AES_128_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use ring::agreement::{ECDH_P256, EphemeralPrivateKey, UnparsedPublicKey, agree_ephemeral};
use ring::hkdf;
use ring::rand::SystemRandom;

const PAYLOAD: usize = 300;

fn rate(label: &str, min: Duration, mut f: impl FnMut()) -> f64 {
    // Warm up, then run for at least `min`.
    for _ in 0..50 {
        f();
    }
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < min {
        for _ in 0..100 {
            f();
        }
        n += 100;
    }
    let per_sec = n as f64 / start.elapsed().as_secs_f64();
    println!("{label:<58} {per_sec:>12.0} /s");
    per_sec
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

fn main() {
    let min = Duration::from_secs(3);
    println!("Hibiki benchmark (one core; {} logical CPUs here)\n", std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));

    // A subscription: the user agent's key pair and auth secret.
    let rng = SystemRandom::new();
    let ua = p256::SecretKey::from_slice(&[0x11; 32]).unwrap();
    let ua_public = {
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        ua.public_key().to_encoded_point(false).as_bytes().to_vec()
    };
    let auth = [0x22u8; 16];
    let payload = vec![b'x'; PAYLOAD];

    println!("== Encryption ({PAYLOAD}-byte payload)");
    let bound = rate("bound: bare RFC 8291 (P-256 keygen+ECDH+HKDF+AES-GCM), ring", min, || {
        black_box(bare_rfc8291(&rng, &ua_public, &auth, &payload));
    });
    let info = {
        use base64::Engine;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        web_push::SubscriptionInfo::new("https://push.example.com/x".to_owned(), b64.encode(&ua_public), b64.encode(auth))
    };
    let crate_rate = rate("web-push crate: WebPushMessageBuilder::build (encrypt)", min, || {
        let mut b = web_push::WebPushMessageBuilder::new(&info);
        b.set_payload(web_push::ContentEncoding::Aes128Gcm, &payload);
        black_box(b.build().unwrap());
    });
    println!("{:<58} {:>12.2}", "ratio web-push crate / bound", crate_rate / bound);
    match openssl_ecdh_reference() {
        Some(ops) => println!("{:<58} {:>12.0} /s", "reference: openssl speed ecdhp256 (ECDH only)", ops),
        None => println!("reference: openssl speed ecdhp256 not available here"),
    }

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
