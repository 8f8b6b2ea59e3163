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
    // As if it fired 8 days ago and nobody answered.
    let eight_days_ago = (Timestamp::now() - SignedDuration::from_hours(24 * 8)).as_millisecond();
    sqlx::query("DELETE FROM fires WHERE reminder_id = $1").bind(&id).execute(app.db.pool()).await.unwrap();
    sqlx::query("UPDATE reminders SET scheduled_at = $1 WHERE id = $2")
        .bind(eight_days_ago)
        .bind(&id)
        .execute(app.db.pool())
        .await
        .unwrap();

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
