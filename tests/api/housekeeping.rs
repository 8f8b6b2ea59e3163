//! Housekeeping runs on its apalis-cron schedule; with several worker processes one of them
//! takes each pass (a database lease).

use jiff::{SignedDuration, Timestamp};
use serde_json::json as body;

use crate::both_backends;
use crate::helpers::{TestApp, json, unique_email};

both_backends!(the_cron_worker_archives_unanswered_reminders);

async fn the_cron_worker_archives_unanswered_reminders(app: &TestApp) {
    let (token, _) = app.sign_in(&unique_email()).await;
    let r = json(
        app.post(
            "/api/reminders",
            &body!({ "title": "old", "send_at": (Timestamp::now() + SignedDuration::from_hours(1)).to_string() }),
            Some(&token),
        )
        .await,
    )
    .await;
    let id = r["data"]["id"].as_str().unwrap().to_owned();
    // It rings in an hour and nobody answers for eight days: steps of the app's clock.
    let due: Timestamp = r["data"]["send_at"].as_str().unwrap().parse().unwrap();
    app.run_until(due).await;
    let fired = json(app.get(&format!("/api/reminders/{id}"), Some(&token)).await).await;
    assert_eq!(
        (fired["data"]["status"].as_str(), fired["data"]["scheduled_at"].as_str()),
        (Some("pending"), Some(due.to_string().as_str())),
        "{fired}"
    );
    app.advance_clock(SignedDuration::from_hours(24 * 8));

    // Two "worker processes", each with the schedule at every second.
    let stop = tokio_util::sync::CancellationToken::new();
    let started = std::time::Instant::now();
    let runners: Vec<_> = (0..2)
        .map(|_| {
            tokio::spawn(hibiki_worker::housekeeping::run(app.db.clone(), Default::default(), "* * * * * *", app.clock(), stop.clone()))
        })
        .collect();
    let mut status = String::new();
    for _ in 0..100 {
        status = json(app.get(&format!("/api/reminders/{id}"), Some(&token)).await).await["data"]["status"].as_str().unwrap().to_owned();
        if status == "completed" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, "completed", "archived by a scheduled pass");
    // Let a few more ticks go by: each is one pass, by whichever process holds the lease.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    stop.cancel();
    let ticks = started.elapsed().as_secs() + 1;
    let mut passes = Vec::new();
    for runner in runners {
        passes.push(tokio::time::timeout(std::time::Duration::from_secs(5), runner).await.expect("stops on shutdown").unwrap().unwrap());
    }
    let total: u64 = passes.iter().sum();
    assert!(total >= 3, "passes ran: {passes:?}");
    // Without the lease both would run every tick (twice the ticks).
    assert!(total <= ticks, "{passes:?} passes in {ticks} ticks: two processes ran the same pass");
}
