//! The calendar feeds, rendered once per change of a user's reminders (or settings, or day:
//! the spelled-out window moves daily) and kept, with their gzip form and ETag, in a cache
//! bounded by bytes. Slow readers share one copy of an answer instead of each holding their own.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

use bytes::Bytes;
use hibiki_common::domain::ids::UserId;

/// The most a feed may be: a feed of this size is a calendar app's worst day already.
pub const MAX_FEED_BYTES: usize = 1024 * 1024;
/// What the cache holds at most, over all feeds and both encodings.
const CACHE_BYTES: usize = 32 * 1024 * 1024;

/// One rendered feed.
#[derive(Clone)]
pub struct Rendered {
    /// What it was rendered from; a different fingerprint means render again.
    pub fingerprint: String,
    pub etag: String,
    pub body: Bytes,
    pub gzip: Bytes,
}

impl Rendered {
    pub fn new(fingerprint: String, body: String) -> Rendered {
        let digest = ring::digest::digest(&ring::digest::SHA256, body.as_bytes());
        let etag = format!("\"{}\"", digest.as_ref()[..16].iter().map(|b| format!("{b:02x}")).collect::<String>());
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(body.as_bytes()).expect("writing to memory");
        let gzip = Bytes::from(encoder.finish().expect("writing to memory"));
        Rendered { fingerprint, etag, body: Bytes::from(body), gzip }
    }

    fn size(&self) -> usize {
        self.body.len() + self.gzip.len()
    }
}

#[derive(Default)]
pub struct FeedCache {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    feeds: HashMap<UserId, (Rendered, Instant)>,
    bytes: usize,
}

impl FeedCache {
    /// The user's kept feed, if it was rendered from `fingerprint`.
    pub fn get(&self, user: &UserId, fingerprint: &str) -> Option<Rendered> {
        let mut inner = self.inner.lock().expect("not poisoned");
        let (feed, used) = inner.feeds.get_mut(user)?;
        if feed.fingerprint != fingerprint {
            return None;
        }
        *used = Instant::now();
        Some(feed.clone())
    }

    /// Keeps a feed, forgetting the least recently used ones past the cache's size.
    pub fn put(&self, user: UserId, feed: Rendered) {
        let mut inner = self.inner.lock().expect("not poisoned");
        if let Some((old, _)) = inner.feeds.remove(&user) {
            inner.bytes -= old.size();
        }
        inner.bytes += feed.size();
        inner.feeds.insert(user, (feed, Instant::now()));
        while inner.bytes > CACHE_BYTES && inner.feeds.len() > 1 {
            let oldest = inner.feeds.iter().min_by_key(|(_, (_, used))| *used).map(|(u, _)| *u).expect("not empty");
            if let Some((gone, _)) = inner.feeds.remove(&oldest) {
                inner.bytes -= gone.size();
            }
        }
    }

    /// The user's feed is no more (their token was replaced or revoked).
    pub fn forget(&self, user: &UserId) {
        let mut inner = self.inner.lock().expect("not poisoned");
        if let Some((old, _)) = inner.feeds.remove(user) {
            inner.bytes -= old.size();
        }
    }

    pub fn bytes(&self) -> usize {
        self.inner.lock().expect("not poisoned").bytes
    }
}

/// Whether `If-None-Match` names this ETag (a list, weak or not, or `*`).
pub fn matches(if_none_match: &str, etag: &str) -> bool {
    if_none_match.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_by_fingerprint_and_stays_within_its_bytes() {
        let cache = FeedCache::default();
        let user = UserId::generate();
        cache.put(user, Rendered::new("v1".into(), "BEGIN:VCALENDAR".into()));
        assert!(cache.get(&user, "v1").is_some());
        assert!(cache.get(&user, "v2").is_none(), "a change renders again");
        // Each is about 1 MiB (and a little gzip): 40 of them are more than the cache keeps.
        for i in 0..40u64 {
            let body: String = (0..1_000_000u64).map(|j| char::from(b'a' + ((i * 7919 + j * 104_729) % 26) as u8)).collect();
            cache.put(UserId::generate(), Rendered::new("v".into(), body));
        }
        assert!(cache.bytes() <= CACHE_BYTES, "{} bytes kept", cache.bytes());
        assert!(cache.get(&user, "v1").is_none(), "the least recently used went first");
    }

    #[test]
    fn etags_match_lists_weak_tags_and_star() {
        let feed = Rendered::new("v".into(), "x".into());
        assert!(matches(&feed.etag, &feed.etag));
        assert!(matches(&format!("\"other\", W/{}", feed.etag), &feed.etag));
        assert!(matches("*", &feed.etag));
        assert!(!matches("\"other\"", &feed.etag));
    }
}
