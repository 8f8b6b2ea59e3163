//! The outbox: without SMTP, mails are written to `<data dir>/outbox/` (and the log says
//! where). Mails there are kept 24 hours, and an account's mails go with the account.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How long a mail stays in the outbox.
pub const KEEP: Duration = Duration::from_secs(24 * 3600);

pub fn dir(data_dir: &Path) -> PathBuf {
    data_dir.join("outbox")
}

/// Removes mails written more than `keep` before `now`; returns how many.
pub fn prune(dir: &Path, now: SystemTime, keep: Duration) -> std::io::Result<u64> {
    let mut removed = 0;
    for entry in read(dir)? {
        let written = entry.metadata()?.modified()?;
        if now.duration_since(written).unwrap_or_default() >= keep {
            std::fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// Removes every mail addressed to `email` (account deletion); returns how many.
pub fn forget(dir: &Path, email: &str) -> std::io::Result<u64> {
    let needle = email.to_ascii_lowercase();
    let mut removed = 0;
    for entry in read(dir)? {
        let text = std::fs::read(entry.path())?;
        if String::from_utf8_lossy(&text).to_ascii_lowercase().contains(&needle) {
            std::fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

fn read(dir: &Path) -> std::io::Result<Vec<std::fs::DirEntry>> {
    match std::fs::read_dir(dir) {
        Ok(entries) => entries.filter(|e| e.as_ref().map_or(true, |e| e.path().extension().is_some_and(|x| x == "eml"))).collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prunes_old_mails_and_forgets_an_address() {
        let dir = std::env::temp_dir().join(format!("hibiki-outbox-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("1.eml"), "To: Alice@Example.com\r\n\r\nhi").unwrap();
        std::fs::write(dir.join("2.eml"), "To: bob@example.com\r\n\r\nhi").unwrap();
        std::fs::write(dir.join("notes.txt"), "alice@example.com").unwrap();
        assert_eq!(forget(&dir, "alice@example.com").unwrap(), 1);
        assert!(!dir.join("1.eml").exists() && dir.join("2.eml").exists() && dir.join("notes.txt").exists());
        let now = SystemTime::now();
        assert_eq!(prune(&dir, now, KEEP).unwrap(), 0, "just written");
        assert_eq!(prune(&dir, now + KEEP + Duration::from_secs(1), KEEP).unwrap(), 1);
        assert!(dir.join("notes.txt").exists(), "only mails are pruned");
        assert_eq!(forget(&dir.join("missing"), "x@y.z").unwrap(), 0);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
