//! The recurrence engine's cost per computed occurrence, for each kind, with and without
//! holidays and an end: `cargo run --release -p hibiki-common --example recurrence_bench`.
//!
//! Two figures per rule: walking 1,000 occurrences from one iterator (the preview, the
//! calendar feed), and `next_after` from a fresh iterator each time (what the scheduler does
//! after every fire: it jumps near the instant, so a far-away `send_at` costs nothing).

use std::hint::black_box;
use std::time::Instant;

use hibiki_common::domain::recurrence::{Recurrence, Schedule};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

fn rule(json: &str) -> Recurrence {
    serde_json::from_str(json).expect("a valid rule")
}

fn main() {
    let tz = TimeZone::get("Asia/Tokyo").unwrap();
    let ny = TimeZone::get("America/New_York").unwrap();
    let send_at: Timestamp = "2026-01-05T09:00:00+09:00".parse().unwrap();
    let rules = [
        ("hourly (3 h)", r#"{"kind":"hourly","interval_hours":3}"#),
        ("daily", r#"{"kind":"daily"}"#),
        ("every 3 days", r#"{"kind":"daily","interval":3}"#),
        ("weekly", r#"{"kind":"weekly"}"#),
        ("weekdays", r#"{"kind":"weekdays"}"#),
        ("custom Tue/Thu, every 2 weeks", r#"{"kind":"custom","days":["tue","thu"],"interval":2}"#),
        ("monthly (day of send_at)", r#"{"kind":"monthly"}"#),
        ("monthly, last day", r#"{"kind":"monthly","day":-1}"#),
        ("monthly, 2nd Tuesday", r#"{"kind":"monthly","week":2,"weekday":"tue"}"#),
        ("yearly", r#"{"kind":"yearly"}"#),
        ("weekdays, holidays skipped", r#"{"kind":"weekdays","holidays":"skip"}"#),
        ("daily, next business day", r#"{"kind":"daily","holidays":"next_business_day"}"#),
        ("monthly 25th, previous business day", r#"{"kind":"monthly","day":25,"holidays":"previous_business_day"}"#),
        (
            "daily, 10 skipped dates",
            r#"{"kind":"daily","skip":["2026-01-10","2026-02-11","2026-03-20","2026-04-29","2026-05-03","2026-05-04","2026-05-05","2026-07-20","2026-08-11","2026-09-21"]}"#,
        ),
        ("daily, count 1000", r#"{"kind":"daily","count":1000}"#),
        ("daily, until 2030-12-31", r#"{"kind":"daily","until":"2030-12-31"}"#),
    ];
    println!("Hibiki recurrence engine (one thread; Asia/Tokyo unless noted)\n");
    println!("{:<40} {:>14} {:>16}", "rule", "walk ns/occ", "next_after ns");
    for (name, json) in rules {
        for (zone, label) in [(&tz, ""), (&ny, " [New York]")] {
            if !label.is_empty() && !name.starts_with("daily") && !name.starts_with("weekly") {
                continue;
            }
            let schedule = Schedule::new(send_at, zone.clone(), rule(json));
            // Walk: 1,000 occurrences from one iterator, repeated.
            let rounds = 200;
            let started = Instant::now();
            let mut produced = 0usize;
            for _ in 0..rounds {
                produced += black_box(schedule.iter_from(send_at).take(1000).count());
            }
            let walk = started.elapsed().as_nanos() as f64 / produced.max(1) as f64;
            // next_after from a fresh iterator, at instants spread over two years.
            let steps = 20_000;
            let started = Instant::now();
            for i in 0..steps {
                let at = send_at + SignedDuration::from_secs(i64::from(i) * 3_163);
                black_box(schedule.next_after(at));
            }
            let next = started.elapsed().as_nanos() as f64 / f64::from(steps);
            println!("{:<40} {:>14.0} {:>16.0}", format!("{name}{label}"), walk, next);
        }
    }
}
