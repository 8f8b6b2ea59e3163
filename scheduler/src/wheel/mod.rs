//! A second-resolution hashed timing wheel for the occurrences due within a horizon.
//!
//! Layout (all containers are flat vectors indexed by `u32`, so an entry costs its node plus a
//! few bytes of index, with no per-entry allocation):
//!
//! * `nodes`: a slab of entries (`key`, `due`, two links), reused through a free list.
//! * `index`: an open-addressing hash table (linear probing, backward-shift deletion) of node
//!   numbers plus 32 bits of the key's hash. It finds a key's node without storing the key a
//!   second time, which is what a `HashMap<K, _>` would do (for `K = (u128, u8)` that alone is
//!   ~64 bytes per entry).
//! * `slots`: the ring, one doubly linked list per second (`due mod horizon`), in insertion
//!   order. Removal unlinks in O(1), so there are no stale entries and nothing to compact.
//! * `occupied` / `summary`: a two-level bitmap of non-empty slots, so `next_due` and a long
//!   `advance` skip empty seconds 64 (or 4096) at a time.
//! * `overdue`: entries inserted with `due <= current`, ordered by `(due, insertion sequence)`.
//!   They are rare and short-lived (gone at the next `advance`), but must come out ordered by
//!   their real due second, which the ring cannot do.
//!
//! Invariant: a node in the ring has `current < due < current + horizon`; a node in `overdue`
//! has `due <= current`. Since the ring's dues span `horizon - 1` consecutive seconds, each slot
//! holds a single due second, and the slot of `current` itself is always empty.

use std::collections::BTreeMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash};
use std::mem;

/// "No node": end of a list, an empty slot, an empty index cell.
const NIL: u32 = u32::MAX;
/// Node numbers must fit below `NIL`, and the index (kept at most 3/4 full, a power of two)
/// must stay within 2^32 cells so that 32 hash bits address it.
const MAX_ENTRIES: usize = 1 << 31;

/// One stored entry. For a node in the ring `prev`/`next` link its slot's list; for a node in
/// `overdue` they hold the two halves of its insertion sequence (its key in `overdue`); for a
/// free node `next` links the free list.
#[derive(Clone, Copy)]
struct Node<K> {
    key: K,
    due: i64,
    prev: u32,
    next: u32,
}

/// A cell of the hash index: a node number (or `NIL`) and the low 32 bits of its key's hash,
/// which give its home cell and spare most key comparisons.
#[derive(Clone, Copy)]
struct Cell {
    node: u32,
    hash: u32,
}

const EMPTY_CELL: Cell = Cell { node: NIL, hash: 0 };

#[derive(Clone, Copy)]
struct Slot {
    head: u32,
    tail: u32,
}

const EMPTY_SLOT: Slot = Slot { head: NIL, tail: NIL };

/// Holds the occurrences due within `horizon` seconds of the current second; see the module docs.
pub struct TimingWheel<K: Copy + Eq + Hash> {
    /// The wheel's current second: everything due at or before it has been emitted, except
    /// entries inserted since with such a due (those wait in `overdue`).
    current: i64,
    horizon: u32,
    nodes: Vec<Node<K>>,
    free: u32,
    index: Vec<Cell>,
    hasher: RandomState,
    len: usize,
    slots: Vec<Slot>,
    ring_len: usize,
    occupied: Vec<u64>,
    summary: Vec<u64>,
    overdue: BTreeMap<(i64, u64), u32>,
    seq: u64,
}

impl<K: Copy + Eq + Hash> TimingWheel<K> {
    /// `now` is the current second; `horizon_secs` (>= 1) the number of slots.
    pub fn new(now: i64, horizon_secs: u32) -> Self {
        assert!(horizon_secs >= 1, "a timing wheel needs a horizon of at least one second");
        let h = horizon_secs as usize;
        let words = h.div_ceil(64);
        TimingWheel {
            current: now,
            horizon: horizon_secs,
            nodes: Vec::new(),
            free: NIL,
            index: Vec::new(),
            hasher: RandomState::new(),
            len: 0,
            slots: vec![EMPTY_SLOT; h],
            ring_len: 0,
            occupied: vec![0; words],
            summary: vec![0; words.div_ceil(64)],
            overdue: BTreeMap::new(),
            seq: 0,
        }
    }

    /// Schedules `key` at `due` (whole seconds), replacing any entry the key already has.
    /// A `due` at or before the wheel's current second is due at the next `advance`.
    /// Returns false (and stores nothing, removing any old entry for the key) when `due` is at
    /// or beyond `horizon_end()`: the caller loads it later.
    pub fn insert(&mut self, key: K, due: i64) -> bool {
        if due >= self.horizon_end() {
            self.remove(&key);
            return false;
        }
        let hash = self.hash(&key);
        let node = match self.find(&key, hash) {
            // Re-insertion reuses the key's node: unlinking it first is what guarantees the old
            // due can never fire, and relinking at the tail makes it the newest at its second.
            Ok(cell) => {
                let node = self.index[cell].node;
                self.unlink(node);
                node
            }
            Err(_) => {
                let node = self.alloc(key);
                self.index_insert(hash, node);
                node
            }
        };
        self.nodes[node as usize].due = due;
        self.link(node);
        true
    }

    /// Removes the key's entry; true when there was one.
    pub fn remove(&mut self, key: &K) -> bool {
        let hash = self.hash(key);
        match self.find(key, hash) {
            Ok(cell) => {
                let node = self.index[cell].node;
                self.unlink(node);
                self.index_delete(cell);
                self.release(node);
                true
            }
            Err(_) => false,
        }
    }

    /// The due second of the key's entry, if any.
    pub fn due_of(&self, key: &K) -> Option<i64> {
        let cell = self.find(key, self.hash(key)).ok()?;
        Some(self.nodes[self.index[cell].node as usize].due)
    }

    /// Moves the wheel to `now` and appends every entry with `due <= now` to `out`, ordered by
    /// due second (ties in insertion order), removing them.
    ///
    /// A `now` before the current second is a no-op (the wheel never goes backwards; entries
    /// keep waiting for the clock to catch up). `now` equal to it emits only overdue inserts.
    /// Cost: O(entries emitted + non-empty seconds passed + bitmap words skipped), whatever the
    /// jump; a jump of a whole horizon or more simply empties the ring.
    pub fn advance(&mut self, now: i64, out: &mut Vec<(K, i64)>) {
        if now < self.current {
            return;
        }
        if !self.overdue.is_empty() {
            // All overdue dues are <= current < any ring due, so they come first.
            let overdue = mem::take(&mut self.overdue);
            out.reserve(overdue.len());
            for &node in overdue.values() {
                self.emit(node, out);
            }
        }
        // Ring dues lie in (current, current + horizon), so past `last` there is nothing.
        let last = now.min(self.current.saturating_add(i64::from(self.horizon) - 1));
        let mut from = self.current.saturating_add(1);
        while self.ring_len > 0 {
            // The slots of dues in (current, from) are already drained and the slot of
            // `current` is always empty, so the first occupied slot found circularly from
            // `from` holds the smallest due >= from.
            let Some(slot) = self.next_occupied(self.slot_of(from)) else {
                break;
            };
            let head = self.slots[slot].head;
            let due = self.nodes[head as usize].due;
            if due > last {
                break;
            }
            self.slots[slot] = EMPTY_SLOT;
            self.clear_occupied(slot);
            let mut node = head;
            while node != NIL {
                let next = self.nodes[node as usize].next;
                self.ring_len -= 1;
                self.emit(node, out);
                node = next;
            }
            from = due + 1;
        }
        self.current = now;
    }

    /// The earliest due second among stored entries (so the daemon can sleep until then).
    /// O(log overdue) or O(1 + horizon / 4096) bitmap words.
    pub fn next_due(&self) -> Option<i64> {
        if let Some((&(due, _), _)) = self.overdue.first_key_value() {
            return Some(due);
        }
        if self.ring_len == 0 {
            return None;
        }
        let slot = self.next_occupied(self.slot_of(self.current.saturating_add(1)))?;
        Some(self.nodes[self.slots[slot].head as usize].due)
    }

    /// How many entries are due at `second`, counting no further than `limit` (the scheduler
    /// claims a big second earlier than a small one). O(min(count, limit)).
    pub fn count_at(&self, second: i64, limit: usize) -> usize {
        if second <= self.current {
            return self.overdue.keys().filter(|(due, _)| *due == second).take(limit).count();
        }
        if second >= self.horizon_end() {
            return 0;
        }
        let mut count = 0;
        let mut node = self.slots[self.slot_of(second)].head;
        while node != NIL && count < limit {
            count += 1;
            node = self.nodes[node as usize].next;
        }
        count
    }

    /// First second not covered: current second + horizon.
    pub fn horizon_end(&self) -> i64 {
        self.current.saturating_add(i64::from(self.horizon))
    }

    /// The wheel's current second (the `now` of the last effective `advance`, or of `new`).
    pub fn current(&self) -> i64 {
        self.current
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of heap the wheel uses now (approximate: capacities * element sizes of its
    /// containers; the B-tree of overdue entries is counted at twice its payload, as its nodes
    /// are at least about half full).
    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * mem::size_of::<Node<K>>()
            + self.index.capacity() * mem::size_of::<Cell>()
            + self.slots.capacity() * mem::size_of::<Slot>()
            + (self.occupied.capacity() + self.summary.capacity()) * mem::size_of::<u64>()
            + self.overdue.len() * 2 * mem::size_of::<((i64, u64), u32)>()
    }

    // ---- ring and overdue placement ----

    fn slot_of(&self, due: i64) -> usize {
        due.rem_euclid(i64::from(self.horizon)) as usize
    }

    /// Puts a node (its `due` already set, below `horizon_end`) in the ring or in `overdue`.
    fn link(&mut self, node: u32) {
        let due = self.nodes[node as usize].due;
        if due <= self.current {
            let seq = self.seq;
            self.seq += 1;
            let n = &mut self.nodes[node as usize];
            n.prev = (seq >> 32) as u32;
            n.next = seq as u32;
            self.overdue.insert((due, seq), node);
            return;
        }
        let slot = self.slot_of(due);
        let tail = self.slots[slot].tail;
        let n = &mut self.nodes[node as usize];
        n.prev = tail;
        n.next = NIL;
        if tail == NIL {
            self.slots[slot].head = node;
            self.set_occupied(slot);
        } else {
            self.nodes[tail as usize].next = node;
        }
        self.slots[slot].tail = node;
        self.ring_len += 1;
    }

    /// Takes a node out of the ring or `overdue` (where its due says it is).
    fn unlink(&mut self, node: u32) {
        let Node { due, prev, next, .. } = self.nodes[node as usize];
        if due <= self.current {
            let seq = (u64::from(prev) << 32) | u64::from(next);
            let removed = self.overdue.remove(&(due, seq));
            debug_assert_eq!(removed, Some(node));
            return;
        }
        let slot = self.slot_of(due);
        if prev == NIL {
            self.slots[slot].head = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next == NIL {
            self.slots[slot].tail = prev;
        } else {
            self.nodes[next as usize].prev = prev;
        }
        if self.slots[slot].head == NIL {
            self.clear_occupied(slot);
        }
        self.ring_len -= 1;
    }

    /// Appends a node (already out of the ring/`overdue`) to `out` and forgets it.
    fn emit(&mut self, node: u32, out: &mut Vec<(K, i64)>) {
        let Node { key, due, .. } = self.nodes[node as usize];
        out.push((key, due));
        let hash = self.hash(&key);
        match self.find(&key, hash) {
            Ok(cell) => self.index_delete(cell),
            Err(_) => unreachable!("a linked node is always indexed"),
        }
        self.release(node);
    }

    // ---- occupancy bitmap ----

    fn set_occupied(&mut self, slot: usize) {
        let word = slot / 64;
        self.occupied[word] |= 1 << (slot % 64);
        self.summary[word / 64] |= 1 << (word % 64);
    }

    fn clear_occupied(&mut self, slot: usize) {
        let word = slot / 64;
        self.occupied[word] &= !(1 << (slot % 64));
        if self.occupied[word] == 0 {
            self.summary[word / 64] &= !(1 << (word % 64));
        }
    }

    /// First occupied slot in `[from, horizon)`.
    fn occupied_from(&self, from: usize) -> Option<usize> {
        let word = from / 64;
        let bits = *self.occupied.get(word)? & (!0u64 << (from % 64));
        if bits != 0 {
            return Some(word * 64 + bits.trailing_zeros() as usize);
        }
        let next_word = word + 1;
        if next_word >= self.occupied.len() {
            return None;
        }
        let mut group = next_word / 64;
        let mut words = self.summary[group] & (!0u64 << (next_word % 64));
        loop {
            if words != 0 {
                let w = group * 64 + words.trailing_zeros() as usize;
                return Some(w * 64 + self.occupied[w].trailing_zeros() as usize);
            }
            group += 1;
            words = *self.summary.get(group)?;
        }
    }

    /// First occupied slot at or after `from`, wrapping around the ring.
    fn next_occupied(&self, from: usize) -> Option<usize> {
        self.occupied_from(from).or_else(|| self.occupied_from(0))
    }

    // ---- node slab ----

    fn alloc(&mut self, key: K) -> u32 {
        let node = Node { key, due: 0, prev: NIL, next: NIL };
        if self.free != NIL {
            let n = self.free;
            self.free = self.nodes[n as usize].next;
            self.nodes[n as usize] = node;
            n
        } else {
            assert!(self.nodes.len() < MAX_ENTRIES, "TimingWheel holds at most 2^31 entries");
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    fn release(&mut self, node: u32) {
        self.nodes[node as usize].next = self.free;
        self.free = node;
    }

    // ---- hash index ----

    fn hash(&self, key: &K) -> u32 {
        // The low bits of SipHash are as good as any; RandomState keeps keys from being
        // chosen to collide.
        self.hasher.hash_one(key) as u32
    }

    /// `Ok(cell)` holding the key, or `Err(cell)`: the empty cell ending its probe sequence.
    fn find(&self, key: &K, hash: u32) -> Result<usize, usize> {
        if self.index.is_empty() {
            return Err(0);
        }
        let mask = self.index.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let cell = self.index[i];
            if cell.node == NIL {
                return Err(i);
            }
            if cell.hash == hash && self.nodes[cell.node as usize].key == *key {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds a cell for a key known to be absent, growing the table past 3/4 full.
    fn index_insert(&mut self, hash: u32, node: u32) {
        if (self.len + 1) * 4 > self.index.len() * 3 {
            let cells = (self.index.len() * 2).max(16);
            let old = mem::replace(&mut self.index, vec![EMPTY_CELL; cells]);
            for cell in old.into_iter().filter(|c| c.node != NIL) {
                self.place(cell);
            }
        }
        self.place(Cell { node, hash });
        self.len += 1;
    }

    fn place(&mut self, cell: Cell) {
        let mask = self.index.len() - 1;
        let mut i = cell.hash as usize & mask;
        while self.index[i].node != NIL {
            i = (i + 1) & mask;
        }
        self.index[i] = cell;
    }

    /// Empties a cell, shifting later cells of the same probe run back so that every key stays
    /// reachable from its home cell without crossing an empty one (no tombstones to pile up).
    fn index_delete(&mut self, mut hole: usize) {
        let mask = self.index.len() - 1;
        let mut i = hole;
        loop {
            i = (i + 1) & mask;
            let cell = self.index[i];
            if cell.node == NIL {
                break;
            }
            let home = cell.hash as usize & mask;
            // The cell may fill the hole when the hole lies on its path from home to `i`.
            if i.wrapping_sub(home) & mask >= i.wrapping_sub(hole) & mask {
                self.index[hole] = cell;
                hole = i;
            }
        }
        self.index[hole] = EMPTY_CELL;
        self.len -= 1;
    }

    /// Checks every structural invariant; for tests.
    #[cfg(test)]
    fn check_invariants(&self) {
        let h = i64::from(self.horizon);
        // Index: each cell reachable from home, points at a live node with that hash.
        let mut indexed = 0;
        if !self.index.is_empty() {
            let mask = self.index.len() - 1;
            assert!(self.index.len().is_power_of_two());
            assert!(self.len * 4 <= self.index.len() * 3);
            for (i, cell) in self.index.iter().enumerate() {
                if cell.node == NIL {
                    continue;
                }
                indexed += 1;
                let key = self.nodes[cell.node as usize].key;
                assert_eq!(self.hash(&key), cell.hash);
                assert_eq!(self.find(&key, cell.hash), Ok(i));
                let mut j = cell.hash as usize & mask;
                while j != i {
                    assert_ne!(self.index[j].node, NIL, "probe run broken");
                    j = (j + 1) & mask;
                }
            }
        }
        assert_eq!(indexed, self.len);
        // Ring: lists consistent, one due per slot, dues in (current, current + h), bitmap.
        let mut in_ring = 0;
        for (s, slot) in self.slots.iter().enumerate() {
            let bit = self.occupied[s / 64] >> (s % 64) & 1 == 1;
            assert_eq!(bit, slot.head != NIL, "occupied bit of slot {s}");
            let mut prev = NIL;
            let mut node = slot.head;
            while node != NIL {
                let n = self.nodes[node as usize];
                assert_eq!(n.prev, prev);
                assert!(n.due > self.current && n.due < self.current + h);
                assert_eq!(self.slot_of(n.due), s);
                assert!(self.find(&n.key, self.hash(&n.key)).is_ok());
                in_ring += 1;
                prev = node;
                node = n.next;
            }
            assert_eq!(slot.tail, prev);
        }
        for (w, &word) in self.occupied.iter().enumerate() {
            assert_eq!(word != 0, self.summary[w / 64] >> (w % 64) & 1 == 1);
        }
        assert_eq!(in_ring, self.ring_len);
        for (&(due, seq), &node) in &self.overdue {
            let n = self.nodes[node as usize];
            assert_eq!(n.due, due);
            assert!(due <= self.current);
            assert_eq!((u64::from(n.prev) << 32) | u64::from(n.next), seq);
        }
        assert_eq!(self.ring_len + self.overdue.len(), self.len);
        // Free list + live nodes account for the whole slab.
        let mut free = 0;
        let mut node = self.free;
        while node != NIL {
            free += 1;
            node = self.nodes[node as usize].next;
        }
        assert_eq!(free + self.len, self.nodes.len());
    }
}

#[cfg(test)]
mod tests;
