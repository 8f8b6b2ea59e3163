//! Files in the data directory: only Hibiki's own user may read them (the directory 0700,
//! every file 0600), whatever the umask it was started with.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// From now on, files this process creates (the databases, their journals, mails, keys)
/// are its user's alone, even when a library creates them.
pub fn restrict_umask() {
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
}

/// Creates `dir` (and its parents) and makes it 0700.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
}

/// Writes a new file readable by Hibiki's user only.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(path)?;
    file.set_permissions(fs::Permissions::from_mode(0o600))?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// What Hibiki keeps in its data directory: the databases and their journals, the keys, the
/// outbox and backups' temporary files. Nothing else there is touched (an operator may point
/// the data directory at a folder that holds other things).
fn is_ours(name: &str) -> bool {
    ["hibiki.sqlite", "queue.sqlite", "data.key", "vapid.key", "outbox"].iter().any(|ours| name.starts_with(ours))
}

/// Makes the data directory 0700 and Hibiki's files in it 0600 (the outbox's directory 0700):
/// what earlier versions, or a database library under a looser umask, made readable.
pub fn tighten(dir: &Path) -> std::io::Result<()> {
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.file_name().to_str().is_some_and(is_ours) {
            continue;
        }
        tighten_entry(&entry.path(), entry.file_type()?)?;
    }
    Ok(())
}

fn tighten_entry(path: &Path, kind: fs::FileType) -> std::io::Result<()> {
    if kind.is_dir() {
        fs::set_permissions(path, fs::Permissions::from_mode(0o700))?;
        for entry in fs::read_dir(path)? {
            let entry = entry?;
            tighten_entry(&entry.path(), entry.file_type()?)?;
        }
    } else if kind.is_file() {
        fs::set_permissions(path, fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn private_files_and_directories_whatever_the_umask() {
        let root = std::env::temp_dir().join(format!("hibiki-files-{}", uuid::Uuid::new_v4()));
        let dir = root.join("outbox");
        create_private_dir(&dir).unwrap();
        assert_eq!(mode(&dir), 0o700);
        let file = dir.join("a.eml");
        write_private(&file, b"x").unwrap();
        assert_eq!(mode(&file), 0o600);
        let loose = root.join("hibiki.sqlite-wal");
        let other = root.join("notes.txt");
        for f in [&loose, &other, &file] {
            fs::write(f, b"y").unwrap();
            fs::set_permissions(f, fs::Permissions::from_mode(0o644)).unwrap();
        }
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        tighten(&root).unwrap();
        assert_eq!((mode(&root), mode(&dir), mode(&loose), mode(&file)), (0o700, 0o700, 0o600, 0o600));
        assert_eq!(mode(&other), 0o644, "not Hibiki's: left alone");
        fs::remove_dir_all(root).unwrap();
    }
}
