//! Keyed hashes, random tokens and sealing of reminder contents at rest.
//!
//! Primitives come from `ring`; this module only decides which key does what.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::rand::{SecureRandom, SystemRandom};
use ring::{digest, hkdf, hmac};

use crate::{Error, Result};

/// Keys derived from the one data key (`HIBIKI_DATA_KEY`): one seals reminder contents, one
/// keys the hashes of sign-in codes. Separate keys so that neither use weakens the other.
#[derive(Clone)]
pub struct Keys {
    seal: std::sync::Arc<SealKey>,
    /// Keys that still open what they sealed (a rekey in progress reads under the old key).
    older: Vec<std::sync::Arc<SealKey>>,
    otp: hmac::Key,
    rng: SystemRandom,
}

/// A sealing key and its id: the first 4 bytes of a keyed hash of the data key, written in
/// front of every value it seals, so a value says which key opens it.
struct SealKey {
    id: [u8; KEY_ID_LEN],
    key: LessSafeKey,
}

const KEY_ID_LEN: usize = 4;
/// The first byte of a value sealed with a key id; values sealed before key ids (nonce first)
/// are still read.
const SEALED_V2: u8 = 2;

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Keys(..)")
    }
}

struct Len(usize);
impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

fn derive(prk: &hkdf::Prk, info: &'static [u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let info = [info];
    prk.expand(&info, Len(32)).and_then(|okm| okm.fill(&mut out)).expect("32 bytes is a valid HKDF-SHA256 length");
    out
}

fn seal_key(data_key: &[u8; 32]) -> SealKey {
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, b"hibiki/v1").extract(data_key);
    let seal = derive(&prk, b"reminder-contents");
    let id = derive(&prk, b"key-id");
    SealKey {
        id: id[..KEY_ID_LEN].try_into().expect("4 of 32 bytes"),
        key: LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &seal).expect("32-byte AES-256 key")),
    }
}

fn open_with(key: &LessSafeKey, context: &str, nonce: &[u8], ciphertext: &[u8]) -> Option<Vec<u8>> {
    let nonce = Nonce::try_assume_unique_for_key(nonce).ok()?;
    let mut buf = ciphertext.to_vec();
    key.open_in_place(nonce, Aad::from(context.as_bytes()), &mut buf).ok().map(|plain| plain.to_vec())
}

impl Keys {
    pub fn from_data_key(data_key: &[u8; 32]) -> Keys {
        let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, b"hibiki/v1").extract(data_key);
        let otp = derive(&prk, b"otp-hmac");
        Keys {
            seal: std::sync::Arc::new(seal_key(data_key)),
            older: Vec::new(),
            otp: hmac::Key::new(hmac::HMAC_SHA256, &otp),
            rng: SystemRandom::new(),
        }
    }

    /// These keys, still opening what `older` sealed (for `hibiki rekey`).
    pub fn also_opening(mut self, older: &[u8; 32]) -> Keys {
        self.older.push(std::sync::Arc::new(seal_key(older)));
        self
    }

    /// The id of the key that seals now (hex), as `hibiki rekey` reports it.
    pub fn key_id(&self) -> String {
        self.seal.id.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Whether `sealed` was sealed by the current key (a rekey skips those).
    pub fn sealed_by_current(&self, sealed: &[u8]) -> bool {
        sealed.len() > 1 + KEY_ID_LEN && sealed[0] == SEALED_V2 && sealed[1..1 + KEY_ID_LEN] == self.seal.id
    }

    /// Seals `plaintext` with AES-256-GCM. `context` (row id and field name) is bound as
    /// associated data, so a sealed value copied to another row or field does not open.
    /// Layout: the version byte 2, the 4-byte key id, the 12-byte random nonce, then
    /// ciphertext and tag.
    pub fn seal(&self, context: &str, plaintext: &[u8]) -> Vec<u8> {
        let mut nonce = [0u8; NONCE_LEN];
        self.rng.fill(&mut nonce).expect("system randomness");
        let mut buf = plaintext.to_vec();
        self.seal
            .key
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(context.as_bytes()), &mut buf)
            .expect("sealing cannot fail for in-memory buffers");
        let mut out = Vec::with_capacity(1 + KEY_ID_LEN + NONCE_LEN + buf.len());
        out.push(SEALED_V2);
        out.extend_from_slice(&self.seal.id);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&buf);
        out
    }

    /// Opens a value sealed by this key or an older one given to [`Keys::also_opening`]: by
    /// its key id, or (values sealed before key ids) by trying each key.
    pub fn open(&self, context: &str, sealed: &[u8]) -> Result<Vec<u8>> {
        let keys = || std::iter::once(&self.seal).chain(self.older.iter());
        if sealed.len() > 1 + KEY_ID_LEN + NONCE_LEN && sealed[0] == SEALED_V2 {
            let (id, rest) = sealed[1..].split_at(KEY_ID_LEN);
            if let Some(key) = keys().find(|k| k.id == id) {
                let (nonce, ciphertext) = rest.split_at(NONCE_LEN);
                if let Some(plain) = open_with(&key.key, context, nonce, ciphertext) {
                    return Ok(plain);
                }
            }
        }
        // A value from before key ids: nonce first (it may start with 2 by chance).
        if sealed.len() < NONCE_LEN {
            return Err(Error::Crypto);
        }
        let (nonce, ciphertext) = sealed.split_at(NONCE_LEN);
        keys().find_map(|k| open_with(&k.key, context, nonce, ciphertext)).ok_or(Error::Crypto)
    }

    pub fn seal_str(&self, context: &str, s: &str) -> Vec<u8> {
        self.seal(context, s.as_bytes())
    }

    pub fn open_string(&self, context: &str, sealed: &[u8]) -> Result<String> {
        String::from_utf8(self.open(context, sealed)?).map_err(|_| Error::Crypto)
    }

    /// Keyed hash of a secret that is short enough to guess offline (a 6-digit code): only
    /// the holder of the data key can test candidates against a stolen database.
    pub fn otp_hash(&self, purpose: &str, email: &str, secret: &str) -> Vec<u8> {
        let mut ctx = hmac::Context::with_key(&self.otp);
        for part in [purpose, email, secret] {
            ctx.update(&(part.len() as u64).to_be_bytes());
            ctx.update(part.as_bytes());
        }
        ctx.sign().as_ref().to_vec()
    }

    /// A uniformly random 6-digit code.
    pub fn otp_code(&self) -> String {
        loop {
            let mut b = [0u8; 4];
            self.rng.fill(&mut b).expect("system randomness");
            let n = u32::from_be_bytes(b);
            // Rejection sampling keeps the distribution uniform over 000000..=999999.
            if n < u32::MAX - (u32::MAX % 1_000_000) {
                return format!("{:06}", n % 1_000_000);
            }
        }
    }

    /// The token a push carries so the service worker can act on that one delivery (complete,
    /// snooze, acknowledge) without the app's session. Stateless: a keyed hash of the entry's id.
    pub fn action_token(&self, log_id: &crate::domain::ids::LogId) -> String {
        URL_SAFE_NO_PAD.encode(self.otp_hash("action", "", &log_id.to_string()))
    }

    pub fn verify_action_token(&self, log_id: &crate::domain::ids::LogId, token: &str) -> bool {
        let Ok(given) = URL_SAFE_NO_PAD.decode(token.trim()) else { return false };
        hashes_equal(&given, &self.otp_hash("action", "", &log_id.to_string()))
    }

    /// The action token of an entry's push to one member of a shared list (the owner's is
    /// [`Keys::action_token`]): it proves who acts as well as on which entry.
    pub fn member_action_token(&self, log_id: &crate::domain::ids::LogId, user_id: &crate::domain::ids::UserId) -> String {
        URL_SAFE_NO_PAD.encode(self.otp_hash("action", &user_id.to_string(), &log_id.to_string()))
    }

    /// Who of `people` holds this action token of the entry: the owner's token names `owner`.
    pub fn action_token_holder(
        &self,
        log_id: &crate::domain::ids::LogId,
        token: &str,
        owner: &crate::domain::ids::UserId,
        people: &[crate::domain::ids::UserId],
    ) -> Option<crate::domain::ids::UserId> {
        if self.verify_action_token(log_id, token) {
            return Some(*owner);
        }
        let given = URL_SAFE_NO_PAD.decode(token.trim()).ok()?;
        people.iter().find(|u| hashes_equal(&given, &self.otp_hash("action", &u.to_string(), &log_id.to_string()))).copied()
    }

    /// A keyed hash to look a secret value up by (a link code, a chat id), URL-safe base64.
    pub fn lookup_hash(&self, purpose: &str, scope: &str, value: &str) -> String {
        URL_SAFE_NO_PAD.encode(self.otp_hash(purpose, scope, value))
    }

    /// A 256-bit random token, URL-safe base64.
    pub fn token(&self) -> String {
        let mut b = [0u8; 32];
        self.rng.fill(&mut b).expect("system randomness");
        URL_SAFE_NO_PAD.encode(b)
    }
}

/// `N` bytes from the system's secure random source.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut b).expect("system randomness");
    b
}

/// Constant-time equality of two hashes.
pub fn hashes_equal(a: &[u8], b: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.ct_eq(b))
}

/// Session tokens are 256-bit random, so a plain SHA-256 is enough to store them: a database
/// reader cannot turn the hash back into a usable token.
pub fn session_hash(token: &str) -> Vec<u8> {
    digest::digest(&digest::SHA256, token.as_bytes()).as_ref().to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> Keys {
        Keys::from_data_key(&[7u8; 32])
    }

    #[test]
    fn seal_round_trip_and_context_binding() {
        let k = keys();
        let sealed = k.seal_str("r1/title", "歯医者の予約");
        assert!(!sealed.windows(3).any(|w| w == "歯".as_bytes()));
        assert_eq!(k.open_string("r1/title", &sealed).unwrap(), "歯医者の予約");
        assert!(k.open_string("r2/title", &sealed).is_err(), "moved to another row");
        assert!(k.open_string("r1/description", &sealed).is_err(), "moved to another field");
        let mut tampered = sealed.clone();
        *tampered.last_mut().unwrap() ^= 1;
        assert!(k.open("r1/title", &tampered).is_err());
        assert!(k.open("r1/title", &[1, 2, 3]).is_err());
        let other = Keys::from_data_key(&[8u8; 32]);
        assert!(other.open("r1/title", &sealed).is_err(), "another data key");
    }

    /// Seals the way values were sealed before key ids: nonce, then ciphertext and tag.
    fn seal_without_key_id(data_key: &[u8; 32], context: &str, plaintext: &[u8]) -> Vec<u8> {
        let key = seal_key(data_key);
        let mut nonce = [0u8; NONCE_LEN];
        SystemRandom::new().fill(&mut nonce).unwrap();
        let mut buf = plaintext.to_vec();
        key.key.seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(context.as_bytes()), &mut buf).unwrap();
        [nonce.as_slice(), &buf].concat()
    }

    #[test]
    fn values_carry_their_key_id_and_older_keys_still_open() {
        let old = keys();
        let sealed = old.seal_str("r1/title", "歯医者");
        assert_eq!(sealed[0], SEALED_V2);
        assert_eq!(hex(&sealed[1..5]), old.key_id());
        assert!(old.sealed_by_current(&sealed));
        let new = Keys::from_data_key(&[9u8; 32]);
        assert_ne!(new.key_id(), old.key_id());
        assert!(new.open("r1/title", &sealed).is_err(), "the new key alone cannot open it");
        let rekeying = Keys::from_data_key(&[9u8; 32]).also_opening(&[7u8; 32]);
        assert_eq!(rekeying.open_string("r1/title", &sealed).unwrap(), "歯医者");
        assert!(!rekeying.sealed_by_current(&sealed));
        let resealed = rekeying.seal_str("r1/title", "歯医者");
        assert!(rekeying.sealed_by_current(&resealed));
        assert_eq!(new.open_string("r1/title", &resealed).unwrap(), "歯医者");
        // Values from before key ids open with either key that sealed them.
        for _ in 0..50 {
            let legacy = seal_without_key_id(&[7u8; 32], "r1/title", "古い".as_bytes());
            assert_eq!(old.open_string("r1/title", &legacy).unwrap(), "古い");
            assert_eq!(rekeying.open_string("r1/title", &legacy).unwrap(), "古い");
            assert!(!rekeying.sealed_by_current(&legacy) || legacy[1..5] == *rekeying.seal.id.as_slice());
        }
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn sealing_is_randomized() {
        let k = keys();
        assert_ne!(k.seal_str("c", "same"), k.seal_str("c", "same"));
    }

    #[test]
    fn otp_codes_are_six_digits_and_vary() {
        let k = keys();
        let codes: std::collections::HashSet<String> = (0..200).map(|_| k.otp_code()).collect();
        assert!(codes.iter().all(|c| c.len() == 6 && c.bytes().all(|b| b.is_ascii_digit())));
        assert!(codes.len() > 190);
    }

    #[test]
    fn a_members_action_token_names_them_and_no_one_else() {
        let k = keys();
        let log: crate::domain::ids::LogId = uuid::Uuid::from_u128(7).into();
        let (owner, a, b): (crate::domain::ids::UserId, crate::domain::ids::UserId, crate::domain::ids::UserId) =
            (uuid::Uuid::from_u128(1).into(), uuid::Uuid::from_u128(2).into(), uuid::Uuid::from_u128(3).into());
        let people = [owner, a, b];
        assert_eq!(k.action_token_holder(&log, &k.action_token(&log), &owner, &people), Some(owner));
        assert_eq!(k.action_token_holder(&log, &k.member_action_token(&log, &b), &owner, &people), Some(b));
        assert_eq!(k.action_token_holder(&log, &k.member_action_token(&log, &b), &owner, &people[..2]), None, "b left the list");
        let other: crate::domain::ids::LogId = uuid::Uuid::from_u128(8).into();
        assert_eq!(k.action_token_holder(&other, &k.member_action_token(&log, &a), &owner, &people), None);
        assert!(!k.verify_action_token(&log, &k.member_action_token(&log, &owner)));
    }

    #[test]
    fn otp_hash_depends_on_key_purpose_email_and_code() {
        let k = keys();
        let h = k.otp_hash("code", "a@b.co", "123456");
        assert_eq!(h, k.otp_hash("code", "a@b.co", "123456"));
        assert_ne!(h, k.otp_hash("code", "a@b.co", "123457"));
        assert_ne!(h, k.otp_hash("code", "c@b.co", "123456"));
        assert_ne!(h, k.otp_hash("link", "a@b.co", "123456"));
        assert_ne!(h, Keys::from_data_key(&[1u8; 32]).otp_hash("code", "a@b.co", "123456"));
        assert!(hashes_equal(&h, &h.clone()));
        assert!(!hashes_equal(&h, &h[..31]));
    }
}
