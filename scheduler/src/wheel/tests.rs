//! The wheel against a plain sorted model, and its edge cases.

use super::*;

#[test]
fn counts_what_is_due_at_a_second() {
    let mut w: TimingWheel<u32> = TimingWheel::new(100, 60);
    for k in 0..5 {
        w.insert(k, 110);
    }
    w.insert(9, 111);
    w.insert(10, 90); // overdue
    assert_eq!(w.count_at(110, 100), 5);
    assert_eq!(w.count_at(110, 3), 3, "stops at the limit");
    assert_eq!(w.count_at(111, 100), 1);
    assert_eq!(w.count_at(112, 100), 0);
    assert_eq!(w.count_at(90, 100), 1);
    assert_eq!(w.count_at(500, 100), 0, "beyond the horizon");
    w.remove(&2);
    assert_eq!(w.count_at(110, 100), 4);
}
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};

type Key = (u128, u8);

fn drain<K: Copy + Eq + Hash>(w: &mut TimingWheel<K>, now: i64) -> Vec<(K, i64)> {
    let mut out = Vec::new();
    w.advance(now, &mut out);
    w.check_invariants();
    out
}

#[test]
fn insert_and_advance_basics() {
    let mut w = TimingWheel::new(1000, 60);
    assert!(w.is_empty());
    assert_eq!(w.horizon_end(), 1060);
    assert!(w.insert(1u32, 1005));
    assert!(w.insert(2, 1003));
    assert!(w.insert(3, 1059));
    assert_eq!(w.len(), 3);
    assert_eq!(drain(&mut w, 1002), vec![]);
    assert_eq!(drain(&mut w, 1003), vec![(2, 1003)]);
    assert_eq!(drain(&mut w, 1004), vec![]);
    assert_eq!(drain(&mut w, 1010), vec![(1, 1005)]);
    assert_eq!(w.horizon_end(), 1070);
    assert_eq!(w.len(), 1);
    // The ring has turned: 1065 shares no slot confusion with 1059.
    assert!(w.insert(4, 1065));
    assert_eq!(drain(&mut w, 1065), vec![(3, 1059), (4, 1065)]);
    assert!(w.is_empty());
    assert_eq!(w.next_due(), None);
}

#[test]
fn replace_moves_the_entry() {
    let mut w = TimingWheel::new(0, 100);
    assert!(w.insert(7u32, 10));
    assert!(w.insert(7, 20));
    assert_eq!(w.len(), 1);
    assert_eq!(w.due_of(&7), Some(20));
    assert_eq!(drain(&mut w, 15), vec![]);
    assert_eq!(drain(&mut w, 25), vec![(7, 20)]);
    // Moving earlier, and moving to the same second after a remove, fire exactly once.
    assert!(w.insert(7, 50));
    assert!(w.insert(7, 30));
    assert!(w.remove(&7));
    assert!(w.insert(7, 30));
    assert!(w.insert(7, 30));
    assert_eq!(drain(&mut w, 100), vec![(7, 30)]);
    assert!(w.is_empty());
}

#[test]
fn remove_entries() {
    let mut w = TimingWheel::new(0, 10);
    assert!(!w.remove(&1u32));
    w.insert(1, 5);
    w.insert(2, 5);
    w.insert(3, 0); // overdue
    assert!(w.remove(&1));
    assert!(!w.remove(&1));
    assert!(w.remove(&3));
    assert_eq!(w.due_of(&1), None);
    assert_eq!(w.len(), 1);
    assert_eq!(drain(&mut w, 9), vec![(2, 5)]);
}

#[test]
fn past_due_fires_on_next_advance_in_due_order() {
    let mut w = TimingWheel::new(100, 10);
    assert!(w.insert(1u32, 100));
    assert!(w.insert(2, 40));
    assert!(w.insert(3, 101));
    assert!(w.insert(4, 40));
    assert_eq!(w.next_due(), Some(40));
    // Advancing to the current second emits only the overdue ones.
    assert_eq!(drain(&mut w, 100), vec![(2, 40), (4, 40), (1, 100)]);
    assert_eq!(w.next_due(), Some(101));
    assert!(w.insert(5, 99));
    assert_eq!(drain(&mut w, 101), vec![(5, 99), (3, 101)]);
}

#[test]
fn beyond_horizon_is_refused() {
    let mut w = TimingWheel::new(0, 10);
    assert!(w.insert(1u32, 9));
    assert!(!w.insert(2, 10));
    assert!(!w.insert(3, i64::MAX));
    assert_eq!(w.len(), 1);
    // Refusing a re-insert drops the old entry.
    assert!(!w.insert(1, 11));
    assert!(w.is_empty());
    assert_eq!(drain(&mut w, 100), vec![]);
    // Horizon of one second: only overdue entries fit.
    let mut w = TimingWheel::new(0, 1);
    assert!(!w.insert(1u32, 1));
    assert!(w.insert(1, 0));
    assert_eq!(drain(&mut w, 0), vec![(1, 0)]);
}

#[test]
fn next_due_tracks_the_earliest() {
    let mut w = TimingWheel::new(0, 300);
    assert_eq!(w.next_due(), None);
    w.insert(1u32, 250);
    assert_eq!(w.next_due(), Some(250));
    w.insert(2, 70);
    assert_eq!(w.next_due(), Some(70));
    w.remove(&2);
    assert_eq!(w.next_due(), Some(250));
    drain(&mut w, 200);
    w.insert(3, 420); // wraps around the ring, still later than 250
    assert_eq!(w.next_due(), Some(250));
    w.insert(4, 3);
    assert_eq!(w.next_due(), Some(3));
    drain(&mut w, 250);
    assert_eq!(w.next_due(), Some(420));
}

#[test]
fn jump_larger_than_horizon() {
    let mut w = TimingWheel::new(0, 60);
    for k in 0..59u32 {
        assert!(w.insert(k, 59 - i64::from(k)));
    }
    w.insert(100, -5);
    let out = drain(&mut w, 10_000);
    let mut expected = vec![(100, -5)];
    expected.extend((0..59u32).rev().map(|k| (k, 59 - i64::from(k))));
    assert_eq!(out, expected);
    assert!(w.is_empty());
    assert_eq!(w.horizon_end(), 10_060);
    assert!(w.insert(1, 10_030));
    assert_eq!(drain(&mut w, 1_000_000), vec![(1, 10_030)]);
}

#[test]
fn advance_backwards_is_a_noop() {
    let mut w = TimingWheel::new(50, 10);
    w.insert(1u32, 55);
    w.insert(2, 45);
    assert_eq!(drain(&mut w, 40), vec![]);
    assert_eq!(w.horizon_end(), 60);
    assert_eq!(w.len(), 2);
    assert_eq!(drain(&mut w, 55), vec![(2, 45), (1, 55)]);
    assert_eq!(drain(&mut w, 20), vec![]);
    assert_eq!(w.current(), 55);
}

#[test]
fn ordered_by_due_then_insertion() {
    let mut w = TimingWheel::new(0, 100);
    w.insert(1u32, 30);
    w.insert(2, 20);
    w.insert(3, 30);
    w.insert(4, 20);
    w.insert(1, 30); // re-insert: now the newest at 30
    w.insert(5, 10);
    assert_eq!(drain(&mut w, 99), vec![(5, 10), (2, 20), (4, 20), (3, 30), (1, 30)]);
}

#[test]
fn one_hundred_thousand_in_one_second() {
    let mut w: TimingWheel<Key> = TimingWheel::new(0, 3600);
    for i in 0..100_000u128 {
        assert!(w.insert((i << 64 | 0xabcd, (i % 3) as u8), 1800));
    }
    assert_eq!(w.len(), 100_000);
    assert_eq!(w.next_due(), Some(1800));
    let out = drain(&mut w, 1799);
    assert!(out.is_empty());
    let out = drain(&mut w, 1800);
    assert_eq!(out.len(), 100_000);
    for (i, (key, due)) in out.into_iter().enumerate() {
        assert_eq!(due, 1800);
        assert_eq!(key, ((i as u128) << 64 | 0xabcd, (i % 3) as u8));
    }
    assert!(w.is_empty());
    assert_eq!(w.next_due(), None);
}

/// Bytes per entry for 100,000 `(u128, u8)` keys, spread over an hour and in one second.
/// Run with `--nocapture` to see the figures.
#[test]
fn memory_per_entry_is_bounded() {
    const N: u128 = 100_000;
    let measure = |spread: bool| {
        let mut w: TimingWheel<Key> = TimingWheel::new(0, 3600);
        for i in 0..N {
            let due = if spread { 1 + (i * 7919 % 3599) as i64 } else { 1800 };
            w.insert((i * 0x9e37_79b9_7f4a_7c15, 1), due);
        }
        let fresh = w.heap_bytes() as f64 / N as f64;
        // Steady churn: delete and re-create entries; the slab and index must not grow.
        for i in 0..N {
            w.remove(&(i * 0x9e37_79b9_7f4a_7c15, 1));
            w.insert((i * 0x9e37_79b9_7f4a_7c15, 2), 1 + (i % 3599) as i64);
        }
        let churned = w.heap_bytes() as f64 / N as f64;
        assert_eq!(w.len(), N as usize);
        (fresh, churned)
    };
    let (spread, spread_churned) = measure(true);
    let (one, one_churned) = measure(false);
    println!(
        "bytes/entry: spread over 3600 s {spread:.1} (after churn {spread_churned:.1}), \
         one second {one:.1} (after churn {one_churned:.1})"
    );
    for b in [spread, spread_churned, one, one_churned] {
        assert!(b <= 128.0, "{b} bytes per entry");
    }
}

/// The reference: entries ordered by (due, insertion sequence), plus each key's due.
struct Model {
    current: i64,
    horizon: i64,
    seq: u64,
    order: BTreeMap<(i64, u64), Key>,
    dues: HashMap<Key, (i64, u64)>,
}

impl Model {
    fn remove(&mut self, key: &Key) -> bool {
        match self.dues.remove(key) {
            Some(at) => {
                self.order.remove(&at);
                true
            }
            None => false,
        }
    }

    fn insert(&mut self, key: Key, due: i64) -> bool {
        self.remove(&key);
        if due >= self.current + self.horizon {
            return false;
        }
        self.seq += 1;
        self.order.insert((due, self.seq), key);
        self.dues.insert(key, (due, self.seq));
        true
    }

    fn advance(&mut self, now: i64) -> Vec<(Key, i64)> {
        if now < self.current {
            return Vec::new();
        }
        self.current = now;
        let rest = self.order.split_off(&(now + 1, 0));
        let due = mem::replace(&mut self.order, rest);
        due.into_iter()
            .map(|((due, _), key)| {
                self.dues.remove(&key);
                (key, due)
            })
            .collect()
    }
}

#[derive(Debug, Clone)]
enum Op {
    /// Key number and due relative to the current second.
    Insert(u16, i64),
    Remove(u16),
    /// Seconds to move (negative: backwards).
    Advance(i64),
}

fn key(k: u16) -> Key {
    // Spread the bits like real ids, and vary the kind byte.
    (u128::from(k).wrapping_mul(0x0123_4567_89ab_cdef_0fed_cba9_8765_4321), (k % 3) as u8)
}

fn ops(keys: u16, horizon: i64) -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        5 => (0..keys, -3 * horizon..=horizon + 3).prop_map(|(k, d)| Op::Insert(k, d)),
        2 => (0..keys).prop_map(Op::Remove),
        3 => (0..=3i64).prop_map(Op::Advance),
        1 => (-5..=4 * horizon).prop_map(Op::Advance),
    ];
    prop::collection::vec(op, 1..300)
}

fn run_against_model(start: i64, horizon: u32, ops: Vec<Op>) -> Result<(), TestCaseError> {
    let mut wheel: TimingWheel<Key> = TimingWheel::new(start, horizon);
    let mut model = Model { current: start, horizon: i64::from(horizon), seq: 0, order: BTreeMap::new(), dues: HashMap::new() };
    // Keys holding a live insert: an emission consumes it, so none is emitted twice.
    let mut live: HashMap<Key, bool> = HashMap::new();
    for op in ops {
        match op {
            Op::Insert(k, rel) => {
                let (k, due) = (key(k), wheel.current() + rel);
                let stored = wheel.insert(k, due);
                prop_assert_eq!(stored, model.insert(k, due));
                live.insert(k, stored);
            }
            Op::Remove(k) => {
                let k = key(k);
                prop_assert_eq!(wheel.remove(&k), model.remove(&k));
                live.insert(k, false);
            }
            Op::Advance(step) => {
                let now = wheel.current() + step;
                let mut out = Vec::new();
                wheel.advance(now, &mut out);
                prop_assert_eq!(&out, &model.advance(now));
                for (k, _) in &out {
                    prop_assert!(live.insert(*k, false) == Some(true), "{:?} emitted twice", k);
                }
            }
        }
        wheel.check_invariants();
        prop_assert_eq!(wheel.current(), model.current);
        prop_assert_eq!(wheel.len(), model.dues.len());
        prop_assert_eq!(wheel.is_empty(), model.dues.is_empty());
        prop_assert_eq!(wheel.next_due(), model.order.keys().next().map(|&(d, _)| d));
        prop_assert_eq!(wheel.horizon_end(), model.current + model.horizon);
        for k in 0..64u16 {
            let k = key(k);
            prop_assert_eq!(wheel.due_of(&k), model.dues.get(&k).map(|&(d, _)| d));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Few keys: the same key is inserted, moved, removed and re-inserted often.
    #[test]
    fn matches_model_few_keys(
        (horizon, ops) in (1u32..24).prop_flat_map(|h| (Just(h), ops(6, i64::from(h)))),
        start in -1_000i64..1_000,
    ) {
        run_against_model(start, horizon, ops)?;
    }

    /// More keys: exercises index growth and backward-shift deletion, and fuller slots.
    #[test]
    fn matches_model_many_keys(
        (horizon, ops) in (1u32..200).prop_flat_map(|h| (Just(h), ops(64, i64::from(h)))),
        start in -100_000i64..100_000,
    ) {
        run_against_model(start, horizon, ops)?;
    }
}
