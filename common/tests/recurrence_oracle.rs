//! The recurrence engine against an independent implementation: python-dateutil's rrule
//! (RFC 5545) with zoneinfo and the `holidays` package, over thousands of random schedules
//! in 14 zones and fifty years (tests/oracle/recurrence_oracle.py draws and expands them).

#[path = "../../tests/support/skip.rs"]
mod skip;

use std::process::Command;

use hibiki_common::domain::holidays;
use hibiki_common::domain::recurrence::{Recurrence, Schedule};
use jiff::Timestamp;
use jiff::tz::TimeZone;

const CASES: usize = 4000;

#[test]
fn the_engine_agrees_with_dateutil_rrule() {
    let python = std::env::var("HIBIKI_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/oracle/recurrence_oracle.py");
    let table = holidays::table();
    let out = Command::new(&python)
        .args([
            script,
            &std::env::var("HIBIKI_ORACLE_SEED").unwrap_or_else(|_| "20261125".into()),
            &CASES.to_string(),
            &table.first.to_string(),
            &table.last.to_string(),
        ])
        .output();
    let out = match out {
        Ok(out) if out.status.success() => out,
        other => {
            skip::unavailable(&format!("the oracle ({python} with python-dateutil and holidays): {other:?}"));
            return;
        }
    };
    let text = String::from_utf8(out.stdout).unwrap();
    let (mut compared, mut occurrences) = (0, 0);
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let recurrence: Recurrence = serde_json::from_value(case["recurrence"].clone()).unwrap();
        recurrence.validate().unwrap_or_else(|e| panic!("the oracle drew an invalid rule {case}: {e}"));
        let tz = TimeZone::get(case["tz"].as_str().unwrap()).unwrap();
        let send_at: Timestamp = case["send_at"].as_str().unwrap().parse().unwrap();
        let from: Timestamp = case["from"].as_str().unwrap().parse().unwrap();
        let count = case["count"].as_u64().unwrap() as usize;
        let got: Vec<String> = Schedule::new(send_at, tz, recurrence).occurrences(from, count).iter().map(|t| t.to_string()).collect();
        let expect: Vec<String> = case["expect"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect();
        assert_eq!(got, expect, "case {case}");
        compared += 1;
        occurrences += expect.len();
    }
    assert_eq!(compared, CASES);
    assert!(occurrences > CASES * 5, "the cases exercise real sequences: {occurrences} occurrences");
    eprintln!("{compared} schedules, {occurrences} occurrences equal to dateutil's");
}
