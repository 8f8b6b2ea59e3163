//! Long-lived secrets: the data key and the VAPID key pair. Configured through the
//! environment, or generated once into the data directory (file mode 0600) and reused.

use secrecy::ExposeSecret;
use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{Context, bail};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::rand::{SecureRandom, SystemRandom};

use crate::infra::config::Config;

/// A VAPID key pair as Web Push uses it: the raw private scalar and the uncompressed public
/// point, both URL-safe base64 without padding.
#[derive(Clone)]
pub struct VapidKeys {
    pub private_key: String,
    pub public_key: String,
}

impl std::fmt::Debug for VapidKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VapidKeys").field("public_key", &self.public_key).finish_non_exhaustive()
    }
}

impl VapidKeys {
    pub fn generate() -> VapidKeys {
        let rng = SystemRandom::new();
        loop {
            let mut scalar = [0u8; 32];
            rng.fill(&mut scalar).expect("system randomness");
            // Not every 32-byte string is a valid P-256 scalar (zero, or above the order).
            if let Ok(secret) = p256::SecretKey::from_slice(&scalar) {
                return VapidKeys::from_secret(&secret);
            }
        }
    }

    pub fn from_private_key(b64: &str) -> anyhow::Result<VapidKeys> {
        let bytes = URL_SAFE_NO_PAD.decode(b64.trim().trim_end_matches('=')).context("the VAPID private key is not URL-safe base64")?;
        let secret = p256::SecretKey::from_slice(&bytes).context("the VAPID private key is not a P-256 scalar")?;
        Ok(VapidKeys::from_secret(&secret))
    }

    fn from_secret(secret: &p256::SecretKey) -> VapidKeys {
        use p256::elliptic_curve::sec1::ToEncodedPoint;
        let public = secret.public_key().to_encoded_point(false);
        VapidKeys { private_key: URL_SAFE_NO_PAD.encode(secret.to_bytes()), public_key: URL_SAFE_NO_PAD.encode(public.as_bytes()) }
    }
}

fn new_key_text() -> String {
    let mut key = [0u8; 32];
    SystemRandom::new().fill(&mut key).expect("system randomness");
    STANDARD.encode(key)
}

/// Where a generated data key lives.
pub fn data_key_file(config: &Config) -> std::path::PathBuf {
    config.data_dir.join("data.key")
}

/// Loads (or creates) the data key: `HIBIKI_DATA_KEY`, else `<data dir>/data.key`.
pub fn data_key(config: &Config) -> anyhow::Result<[u8; 32]> {
    let encoded = match &config.data_key {
        Some(key) => key.expose_secret().to_owned(),
        None => load_or_create(&data_key_file(config), new_key_text)?,
    };
    decode_data_key(&encoded, "HIBIKI_DATA_KEY")
}

fn decode_data_key(encoded: &str, name: &str) -> anyhow::Result<[u8; 32]> {
    let bytes = STANDARD
        .decode(encoded.trim())
        .or_else(|_| URL_SAFE_NO_PAD.decode(encoded.trim().trim_end_matches('=')))
        .with_context(|| format!("{name} is not base64"))?;
    let Ok(key) = <[u8; 32]>::try_from(bytes.as_slice()) else {
        bail!("{name} must be 32 bytes (256 bits), it is {}", bytes.len());
    };
    Ok(key)
}

/// The key `hibiki rekey` re-seals under: `HIBIKI_NEW_DATA_KEY`, or, when the data key was
/// generated into the data directory, a new one generated beside it (`data.key.new`, which the
/// rekey moves over `data.key` once every value is re-sealed; a rekey cut off finds it and
/// goes on with it). `Ok(None)`: the key is configured, so the new one must be too.
pub fn new_data_key(config: &Config) -> anyhow::Result<Option<[u8; 32]>> {
    if let Some(key) = &config.new_data_key {
        return decode_data_key(key.expose_secret(), "HIBIKI_NEW_DATA_KEY").map(Some);
    }
    if config.data_key.is_some() {
        return Ok(None);
    }
    let pending = data_key_file(config).with_extension("key.new");
    decode_data_key(&load_or_create(&pending, new_key_text)?, "the new data key").map(Some)
}

/// After a rekey of a generated key: the new key becomes the data key.
pub fn install_new_data_key(config: &Config) -> anyhow::Result<()> {
    let file = data_key_file(config);
    fs::rename(file.with_extension("key.new"), &file).with_context(|| format!("replacing {}", file.display()))?;
    Ok(())
}

/// Loads (or creates) the VAPID keys: `HIBIKI_VAPID_PRIVATE_KEY`, else `<data dir>/vapid.key`.
pub fn vapid_keys(config: &Config) -> anyhow::Result<VapidKeys> {
    let private = match &config.vapid_private_key {
        Some(key) => key.expose_secret().to_owned(),
        None => load_or_create(&config.data_dir.join("vapid.key"), || VapidKeys::generate().private_key)?,
    };
    VapidKeys::from_private_key(&private)
}

fn load_or_create(path: &Path, make: impl FnOnce() -> String) -> anyhow::Result<String> {
    if let Ok(existing) = fs::read_to_string(path) {
        return Ok(existing.trim().to_owned());
    }
    if let Some(dir) = path.parent() {
        crate::infra::files::create_private_dir(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let value = make();
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(mut file) => {
            file.write_all(value.as_bytes())?;
            file.sync_all()?;
            tracing::info!(path = %path.display(), "generated a new key");
            Ok(value)
        }
        // Another process of this deployment created it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(fs::read_to_string(path)?.trim().to_owned()),
        Err(e) => Err(e).with_context(|| format!("writing {}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_persist_and_reload() {
        let dir = std::env::temp_dir().join(format!("hibiki-keys-{}", uuid::Uuid::new_v4()));
        let config = Config::with_data_dir(&dir);
        let k1 = data_key(&config).unwrap();
        let k2 = data_key(&config).unwrap();
        assert_eq!(k1, k2);
        let v1 = vapid_keys(&config).unwrap();
        let v2 = vapid_keys(&config).unwrap();
        assert_eq!(v1.public_key, v2.public_key);
        // Uncompressed P-256 point: 65 bytes starting with 0x04.
        let public = URL_SAFE_NO_PAD.decode(&v1.public_key).unwrap();
        assert_eq!(public.len(), 65);
        assert_eq!(public[0], 4);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn configured_keys_are_validated() {
        let mut config = Config::with_data_dir("/nonexistent");
        config.data_key = Some(STANDARD.encode([1u8; 16]).into());
        assert!(data_key(&config).is_err());
        config.data_key = Some(STANDARD.encode([1u8; 32]).into());
        assert_eq!(data_key(&config).unwrap(), [1u8; 32]);
        config.vapid_private_key = Some("not base64!".into());
        assert!(vapid_keys(&config).is_err());
        let pair = VapidKeys::generate();
        config.vapid_private_key = Some(pair.private_key.clone().into());
        assert_eq!(vapid_keys(&config).unwrap().public_key, pair.public_key);
    }
}
