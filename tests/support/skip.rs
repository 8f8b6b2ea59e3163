//! The one rule for a test that cannot run because a service or tool is missing: locally it
//! says `SKIPPED: …` and is counted (scripts/test prints the count at the end); with
//! `CI=true` it fails. Included by path by every test crate that may skip.

/// Records that the calling test could not run because `what` is missing (and fails it
/// under `CI=true`).
pub fn unavailable(what: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("{what} is not available, and CI=true requires it");
    }
    eprintln!("SKIPPED: {what} is not available");
    // libtest hides a passing test's output, so the skip is also written where the test
    // command counts it.
    if let Ok(path) = std::env::var("HIBIKI_SKIP_LOG") {
        use std::io::Write;
        let test = std::thread::current().name().unwrap_or("a test").to_owned();
        if let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = writeln!(file, "{test}: {what}");
        }
    }
}
