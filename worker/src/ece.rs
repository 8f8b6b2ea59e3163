//! Web Push message encryption (RFC 8291) in the aes128gcm content coding (RFC 8188), on
//! ring's primitives: an ephemeral P-256 key and ECDH (`ring::agreement`), HKDF-SHA256
//! (`ring::hkdf`) and AES-128-GCM (`ring::aead`). Only the RFC's construction is written
//! here; every primitive is ring's.
//!
//! A message is one record with a record size of 4096 and no padding beyond the 0x02
//! delimiter of the last record:
//!
//! ```text
//! salt (16) | rs = 4096 (4, big-endian) | idlen = 65 (1) | keyid = sender public key (65)
//! | AES-128-GCM(plaintext || 0x02) with its 16-byte tag
//! ```
//!
//! The `web-push` crate's output has the same header; it pads the plaintext to a multiple of
//! 128 bytes, which this does not.

use ring::aead::{AES_128_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use ring::agreement::{ECDH_P256, EphemeralPrivateKey, UnparsedPublicKey, agree_ephemeral};
use ring::hkdf;
use ring::rand::SecureRandom;

/// The record size written in every header.
pub const RECORD_SIZE: u32 = 4096;
pub const SALT_LEN: usize = 16;
/// An uncompressed P-256 point (0x04 || x || y).
pub const PUBLIC_KEY_LEN: usize = 65;
pub const AUTH_LEN: usize = 16;
pub const TAG_LEN: usize = 16;
/// salt, rs, idlen and the sender's public key as keyid.
pub const HEADER_LEN: usize = SALT_LEN + 4 + 1 + PUBLIC_KEY_LEN;
/// The largest body push services must accept (RFC 8291 section 4).
pub const MAX_BODY: usize = 4096;
/// The largest plaintext whose message stays within `MAX_BODY` (3993 bytes).
pub const MAX_PLAINTEXT: usize = MAX_BODY - HEADER_LEN - 1 - TAG_LEN;

const KEY_INFO: &[u8] = b"WebPush: info\0";
const CEK_INFO: &[u8] = b"Content-Encoding: aes128gcm\0";
const NONCE_INFO: &[u8] = b"Content-Encoding: nonce\0";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EceError {
    #[error("the subscription's p256dh is not a valid uncompressed P-256 public key")]
    BadPublicKey,
    #[error("the subscription's auth secret is not 16 bytes")]
    BadAuthSecret,
    #[error("the plaintext is {0} bytes; at most {MAX_PLAINTEXT} fit in one push message")]
    TooLarge(usize),
    #[error("the system random number generator failed")]
    Random,
}

struct Len(usize);

impl hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

/// The content-encryption key and nonce of a message (RFC 8291 section 3.3 and 3.4, RFC 8188
/// section 2.2 and 2.3), from the ECDH secret, the subscription's auth secret and both public
/// keys.
fn key_schedule(ecdh_secret: &[u8], auth: &[u8], ua_public: &[u8], as_public: &[u8], salt: &[u8; SALT_LEN]) -> ([u8; 16], [u8; 12]) {
    // PRK_key = HKDF-Extract(auth_secret, ecdh_secret)
    // IKM = HKDF-Expand(PRK_key, "WebPush: info" || 0x00 || ua_public || as_public, 32)
    let prk_key = hkdf::Salt::new(hkdf::HKDF_SHA256, auth).extract(ecdh_secret);
    let mut ikm = [0u8; 32];
    prk_key
        .expand(&[KEY_INFO, ua_public, as_public], Len(32))
        .and_then(|okm| okm.fill(&mut ikm))
        .expect("32 bytes is a valid HKDF-SHA256 length");
    // PRK = HKDF-Extract(salt, IKM); CEK and NONCE are expanded from it.
    let prk = hkdf::Salt::new(hkdf::HKDF_SHA256, salt).extract(&ikm);
    let mut cek = [0u8; 16];
    prk.expand(&[CEK_INFO], Len(16)).and_then(|okm| okm.fill(&mut cek)).expect("16 bytes is a valid HKDF-SHA256 length");
    let mut nonce = [0u8; 12];
    prk.expand(&[NONCE_INFO], Len(12)).and_then(|okm| okm.fill(&mut nonce)).expect("12 bytes is a valid HKDF-SHA256 length");
    (cek, nonce)
}

/// The whole message body: the aes128gcm header and the one encrypted record.
fn assemble(ecdh_secret: &[u8], auth: &[u8], ua_public: &[u8], as_public: &[u8], salt: &[u8; SALT_LEN], plaintext: &[u8]) -> Vec<u8> {
    let (cek, nonce) = key_schedule(ecdh_secret, auth, ua_public, as_public, salt);
    let mut body = Vec::with_capacity(HEADER_LEN + plaintext.len() + 1 + TAG_LEN);
    body.extend_from_slice(salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(PUBLIC_KEY_LEN as u8);
    body.extend_from_slice(as_public);
    body.extend_from_slice(plaintext);
    body.push(0x02); // the delimiter of the last (and only) record; no padding follows
    let key = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &cek).expect("a 16-byte AES-128 key"));
    // The nonce is used once: the key is new for every message (fresh salt and ephemeral key).
    let tag = key
        .seal_in_place_separate_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), &mut body[HEADER_LEN..])
        .expect("a record far below AES-GCM's length limit");
    body.extend_from_slice(tag.as_ref());
    body
}

/// Encrypts `plaintext` for a subscription whose `p256dh` is `ua_public` (65 bytes) and whose
/// auth secret is `auth` (16 bytes), with a fresh ephemeral key and salt from `rng`.
pub fn encrypt(rng: &dyn SecureRandom, ua_public: &[u8], auth: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, EceError> {
    if ua_public.len() != PUBLIC_KEY_LEN || ua_public[0] != 0x04 {
        return Err(EceError::BadPublicKey);
    }
    if auth.len() != AUTH_LEN {
        return Err(EceError::BadAuthSecret);
    }
    if plaintext.len() > MAX_PLAINTEXT {
        return Err(EceError::TooLarge(plaintext.len()));
    }
    let mut salt = [0u8; SALT_LEN];
    rng.fill(&mut salt).map_err(|_| EceError::Random)?;
    let ephemeral = EphemeralPrivateKey::generate(&ECDH_P256, rng).map_err(|_| EceError::Random)?;
    let as_public = ephemeral.compute_public_key().map_err(|_| EceError::Random)?;
    let peer = UnparsedPublicKey::new(&ECDH_P256, ua_public);
    // ring checks that the peer's point is on the curve; a bad point fails the agreement.
    agree_ephemeral(ephemeral, &peer, |secret| assemble(secret, auth, ua_public, as_public.as_ref(), &salt, plaintext))
        .map_err(|_| EceError::BadPublicKey)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use ring::rand::SystemRandom;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    fn b64(s: &str) -> Vec<u8> {
        URL_SAFE_NO_PAD.decode(s).unwrap()
    }

    /// A user agent's subscription: its key pair (for the decryptor) and auth secret.
    struct Subscriber {
        private: Vec<u8>,
        public: Vec<u8>,
        auth: [u8; 16],
    }

    fn subscriber(seed: u8) -> Subscriber {
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        let secret = p256::SecretKey::from_slice(&[seed; 32]).unwrap();
        Subscriber {
            private: secret.to_bytes().to_vec(),
            public: secret.public_key().to_encoded_point(false).as_bytes().to_vec(),
            auth: [seed.wrapping_mul(3); 16],
        }
    }

    /// The independent decryptor: the `ece` crate on OpenSSL.
    fn ece_decrypt(sub: &Subscriber, body: &[u8]) -> Vec<u8> {
        let components = ece::EcKeyComponents::new(sub.private.clone(), sub.public.clone());
        ece::decrypt(&components, &sub.auth, body).expect("the ece crate decrypts it")
    }

    /// RFC 8291 Appendix A: from the example's ECDH inputs and salt, the key schedule and the
    /// message are byte for byte the RFC's.
    #[test]
    fn rfc8291_appendix_a() {
        let plaintext = b"When I grow up, I want to be a watermelon";
        let as_private = b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw");
        let as_public = b64("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8");
        let ua_public = b64("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4");
        let auth = b64("BTBZMqHH6r4Tts7J_aSIgg");
        let salt: [u8; 16] = b64("DGv6ra1nlYgDCS1FRnbzlw").try_into().unwrap();
        // The ECDH secret, computed by an implementation other than ring (p256).
        let ecdh = {
            let secret = p256::SecretKey::from_slice(&as_private).unwrap();
            let peer = p256::PublicKey::from_sec1_bytes(&ua_public).unwrap();
            p256::ecdh::diffie_hellman(secret.to_nonzero_scalar(), peer.as_affine()).raw_secret_bytes().to_vec()
        };
        assert_eq!(ecdh, b64("kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs"), "the RFC's shared secret");
        let (cek, nonce) = key_schedule(&ecdh, &auth, &ua_public, &as_public, &salt);
        assert_eq!(cek.to_vec(), b64("oIhVW04MRdy2XN9CiKLxTg"), "CEK");
        assert_eq!(nonce.to_vec(), b64("4h_95klXJ5E_qnoN"), "NONCE");
        let body = assemble(&ecdh, &auth, &ua_public, &as_public, &salt, plaintext);
        let expected = hex(concat!(
            "0c6bfaadad67958803092d454676f397000010004104fe33f4ab0dea71914db55823f73b54948f41306d9207",
            "32dbb9a59a53286482200e597a7b7bc260ba1c227998580992e93973002f3012a28ae8f06bbb78e5ec0ff297",
            "de5b429bba7153d3a4ae0caa091fd425f3b4b5414add8ab37a19c1bbb05cf5cb5b2a2e0562d558635641ec52",
            "812c6c8ff42e95ccb86be7cd"
        ));
        assert_eq!(body, expected, "the RFC's message");
    }

    /// Messages from `encrypt` (random key and salt) decrypt with the `ece` crate, for empty,
    /// small, typical and the largest plaintexts.
    #[test]
    fn an_independent_decryptor_reads_every_message() {
        let rng = SystemRandom::new();
        for (seed, len) in [(1u8, 0usize), (2, 1), (3, 300), (4, 2000), (5, MAX_PLAINTEXT)] {
            let sub = subscriber(seed);
            let plaintext: Vec<u8> = (0..len).map(|i| (i * 7 + seed as usize) as u8).collect();
            let body = encrypt(&rng, &sub.public, &sub.auth, &plaintext).unwrap();
            assert_eq!(body.len(), HEADER_LEN + len + 1 + TAG_LEN, "no padding");
            assert!(body.len() <= MAX_BODY);
            assert_eq!(ece_decrypt(&sub, &body), plaintext);
        }
    }

    #[test]
    fn each_message_has_its_own_key_and_salt() {
        let rng = SystemRandom::new();
        let sub = subscriber(9);
        let a = encrypt(&rng, &sub.public, &sub.auth, b"same").unwrap();
        let b = encrypt(&rng, &sub.public, &sub.auth, b"same").unwrap();
        assert_ne!(a[..16], b[..16], "salt");
        assert_ne!(a[21..86], b[21..86], "sender key");
        assert_ne!(a[86..], b[86..], "ciphertext");
    }

    /// The header matches the `web-push` crate's output field by field: 16-byte salt, rs 4096,
    /// idlen 65, keyid the sender's public key (the key the decryption agrees with). The only
    /// difference is the crate's padding to a multiple of 128 bytes.
    #[test]
    fn same_layout_as_the_web_push_crate() {
        let rng = SystemRandom::new();
        let sub = subscriber(7);
        let plaintext = br#"{"type":"reminder","title":"Stretch"}"#;
        let ours = encrypt(&rng, &sub.public, &sub.auth, plaintext).unwrap();
        let info = web_push::SubscriptionInfo::new(
            "https://push.example.com/x",
            &URL_SAFE_NO_PAD.encode(&sub.public),
            &URL_SAFE_NO_PAD.encode(sub.auth),
        );
        let mut builder = web_push::WebPushMessageBuilder::new(&info);
        builder.set_payload(web_push::ContentEncoding::Aes128Gcm, plaintext);
        let theirs = builder.build().unwrap().payload.unwrap();
        assert_eq!(theirs.content_encoding.to_str(), "aes128gcm");
        let theirs = theirs.content;
        for body in [&ours, &theirs] {
            assert_eq!(u32::from_be_bytes(body[16..20].try_into().unwrap()), RECORD_SIZE, "rs");
            assert_eq!(body[20] as usize, PUBLIC_KEY_LEN, "idlen");
            let keyid = &body[21..HEADER_LEN];
            assert!(p256::PublicKey::from_sec1_bytes(keyid).is_ok() && keyid[0] == 0x04, "keyid is an uncompressed point");
            assert!(body.len() - HEADER_LEN < RECORD_SIZE as usize, "one record");
            assert_eq!(ece_decrypt(&sub, body), plaintext);
        }
        assert_eq!(ours.len(), HEADER_LEN + plaintext.len() + 1 + TAG_LEN);
        assert_eq!((theirs.len() - HEADER_LEN - TAG_LEN) % 128, 0, "the crate pads to 128-byte blocks");
        // keyid is the sender key: a body with another valid point as keyid does not decrypt.
        let mut swapped = ours.clone();
        swapped[21..HEADER_LEN].copy_from_slice(&theirs[21..HEADER_LEN]);
        let components = ece::EcKeyComponents::new(sub.private.clone(), sub.public.clone());
        assert!(ece::decrypt(&components, &sub.auth, &swapped).is_err());
    }

    #[test]
    fn bad_inputs_are_refused() {
        let rng = SystemRandom::new();
        let sub = subscriber(5);
        assert_eq!(encrypt(&rng, &sub.public[..64], &sub.auth, b"x"), Err(EceError::BadPublicKey));
        let mut compressed = sub.public.clone();
        compressed[0] = 0x02;
        assert_eq!(encrypt(&rng, &compressed, &sub.auth, b"x"), Err(EceError::BadPublicKey));
        let mut off_curve = sub.public.clone();
        off_curve[64] ^= 1;
        assert_eq!(encrypt(&rng, &off_curve, &sub.auth, b"x"), Err(EceError::BadPublicKey));
        assert_eq!(encrypt(&rng, &sub.public, &sub.auth[..15], b"x"), Err(EceError::BadAuthSecret));
        assert_eq!(encrypt(&rng, &sub.public, &sub.auth, &vec![0; MAX_PLAINTEXT + 1]), Err(EceError::TooLarge(MAX_PLAINTEXT + 1)));
    }
}
