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
    seal: std::sync::Arc<LessSafeKey>,
    otp: hmac::Key,
    rng: SystemRandom,
}

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

impl Keys {
    pub fn from_data_key(data_key: &[u8; 32]) -> Keys {
        let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, b"hibiki/v1").extract(data_key);
        let seal = derive(&prk, b"reminder-contents");
        let otp = derive(&prk, b"otp-hmac");
        Keys {
            seal: std::sync::Arc::new(LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &seal).expect("32-byte AES-256 key"))),
            otp: hmac::Key::new(hmac::HMAC_SHA256, &otp),
            rng: SystemRandom::new(),
        }
    }

    /// Seals `plaintext` with AES-256-GCM. `context` (row id and field name) is bound as
    /// associated data, so a sealed value copied to another row or field does not open.
    /// Layout: 12-byte random nonce, then ciphertext and tag.
    pub fn seal(&self, context: &str, plaintext: &[u8]) -> Vec<u8> {
        let mut nonce = [0u8; NONCE_LEN];
        self.rng.fill(&mut nonce).expect("system randomness");
        let mut buf = plaintext.to_vec();
        self.seal
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(context.as_bytes()), &mut buf)
            .expect("sealing cannot fail for in-memory buffers");
        let mut out = Vec::with_capacity(NONCE_LEN + buf.len());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&buf);
        out
    }

    pub fn open(&self, context: &str, sealed: &[u8]) -> Result<Vec<u8>> {
        if sealed.len() < NONCE_LEN {
            return Err(Error::Crypto);
        }
        let (nonce, rest) = sealed.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| Error::Crypto)?;
        let mut buf = rest.to_vec();
        let plain = self.seal.open_in_place(nonce, Aad::from(context.as_bytes()), &mut buf).map_err(|_| Error::Crypto)?;
        Ok(plain.to_vec())
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
    pub fn action_token(&self, log_id: &crate::ids::LogId) -> String {
        URL_SAFE_NO_PAD.encode(self.otp_hash("action", "", log_id.as_str()))
    }

    pub fn verify_action_token(&self, log_id: &crate::ids::LogId, token: &str) -> bool {
        let Ok(given) = URL_SAFE_NO_PAD.decode(token.trim()) else { return false };
        hashes_equal(&given, &self.otp_hash("action", "", log_id.as_str()))
    }

    /// A 256-bit random token, URL-safe base64.
    pub fn token(&self) -> String {
        let mut b = [0u8; 32];
        self.rng.fill(&mut b).expect("system randomness");
        URL_SAFE_NO_PAD.encode(b)
    }
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
