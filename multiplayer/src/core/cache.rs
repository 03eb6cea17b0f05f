//! The path cache, written once for both dialects (Godot 4's `SceneCacheInterface`, Godot 3's
//! `path_send_cache`/`path_get_cache`): the declared node tables with our cache ids (the send
//! side), and per peer which of our ids it confirmed and which ids it announced (the receive
//! side, bounded by [`Limits::max_cached_paths`](crate::Limits)).

use std::collections::{BTreeMap, HashMap};

use crate::ProtocolError;

/// A node table the cache holds: anything with a path.
pub(crate) trait Named {
    /// The path relative to the multiplayer root.
    fn path(&self) -> &str;
}

impl Named for crate::RpcTable {
    fn path(&self) -> &str {
        crate::RpcTable::path(self)
    }
}

impl Named for crate::godot3::NodeTable {
    fn path(&self) -> &str {
        crate::godot3::NodeTable::path(self)
    }
}

/// The send side: the declared tables by path, each with the cache id we gave it (0: none
/// yet); freed slots are reused.
#[derive(Debug)]
pub(crate) struct PathCache<T> {
    tables: Vec<T>,
    by_path: HashMap<String, usize>,
    free: Vec<usize>,
    ids: Vec<u32>,
    next_id: u32,
    /// The bits an id may use (Godot 3 keeps `0x80000000` for "path in packet").
    id_mask: u32,
    /// A counter shared with other caches (the sessions of `rooms`, which one client meets in
    /// turn): ids are then unique across them, `next_id` unused.
    shared_ids: Option<std::sync::Arc<std::sync::atomic::AtomicU32>>,
}

impl<T: Named> PathCache<T> {
    /// An empty cache whose ids start at 1 (`last_send_cache_id`) and use `id_mask`'s bits.
    pub(crate) fn new(id_mask: u32) -> Self {
        Self {
            tables: Vec::new(),
            by_path: HashMap::new(),
            free: Vec::new(),
            ids: Vec::new(),
            next_id: 1,
            id_mask,
            shared_ids: None,
        }
    }

    /// Declares a table (replacing one of the same path); its slot index.
    pub(crate) fn declare(&mut self, table: T) -> usize {
        if let Some(&i) = self.by_path.get(table.path()) {
            if let Some(slot) = self.tables.get_mut(i) {
                *slot = table;
            }
            return i;
        }
        if let Some(i) = self.free.pop() {
            self.by_path.insert(table.path().to_owned(), i);
            if let (Some(slot), Some(id)) = (self.tables.get_mut(i), self.ids.get_mut(i)) {
                *slot = table;
                *id = 0;
            }
            return i;
        }
        let i = self.tables.len();
        self.by_path.insert(table.path().to_owned(), i);
        self.tables.push(table);
        self.ids.push(0);
        i
    }

    /// Forgets the table at `path` (its slot is reused): its index, if it was declared.
    pub(crate) fn forget(&mut self, path: &str) -> Option<usize> {
        let index = self.by_path.remove(path)?;
        if let Some(id) = self.ids.get_mut(index) {
            *id = 0;
        }
        self.free.push(index);
        Some(index)
    }

    /// The slot of the table declared at `path`.
    pub(crate) fn index(&self, path: &str) -> Option<usize> {
        self.by_path.get(path).copied()
    }

    /// The table in slot `index`.
    pub(crate) fn table(&self, index: usize) -> Option<&T> {
        self.tables.get(index)
    }

    /// The table in slot `index`, to change.
    pub(crate) fn table_mut(&mut self, index: usize) -> Option<&mut T> {
        self.tables.get_mut(index)
    }

    /// The table declared at `path`.
    pub(crate) fn by_path(&self, path: &str) -> Option<(usize, &T)> {
        let i = self.index(path)?;
        Some((i, self.tables.get(i)?))
    }

    /// The declared tables with their cache ids (0: not sent yet).
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&T, u32)> + '_ {
        self.by_path.values().filter_map(|&i| {
            let table = self.tables.get(i)?;
            Some((table, self.ids.get(i).copied().unwrap_or_default()))
        })
    }

    /// Our cache id for slot `index`, given now if it has none (`make_object_cache`).
    pub(crate) fn id_for(&mut self, index: usize) -> u32 {
        match self.ids.get(index).copied() {
            Some(0) | None => {
                let id = match &self.shared_ids {
                    Some(counter) => next_shared_id(counter, self.id_mask),
                    None => self.next_id,
                };
                self.next_id = (self.next_id.wrapping_add(1) & self.id_mask).max(1);
                if let Some(slot) = self.ids.get_mut(index) {
                    *slot = id;
                }
                id
            }
            Some(id) => id,
        }
    }

    /// Takes the ids given from now on from `counter`, shared with other caches, so that an
    /// id names one path in all of them (a client keeps every id it was sent for as long as
    /// it is connected, and refuses a second announcement of one).
    pub(crate) fn share_ids(&mut self, counter: std::sync::Arc<std::sync::atomic::AtomicU32>) {
        self.shared_ids = Some(counter);
    }

    /// The slot our cache id `id` names (a CONFIRM_PATH's).
    pub(crate) fn index_of_id(&self, id: u32) -> Option<usize> {
        self.ids.iter().position(|&c| c == id && c != 0)
    }
}

/// The next id of a shared counter (holding the next id to give), within `mask`, never 0.
fn next_shared_id(counter: &std::sync::atomic::AtomicU32, mask: u32) -> u32 {
    use std::sync::atomic::Ordering::Relaxed;
    let step = |id: u32| Some((id.wrapping_add(1) & mask).max(1));
    let previous = counter
        .fetch_update(Relaxed, Relaxed, step)
        .unwrap_or_else(|id| id);
    (previous & mask).max(1)
}

/// The per-peer record of the path cache: the ids the peer announced (→ `V`, what the id
/// stands for here) and, per slot of ours, whether the peer confirmed our id (`false`: sent,
/// not confirmed yet).
///
/// Two vectors sorted by key, searched by bisection: a peer names a handful of nodes, and a
/// vector holds one entry in its 16 bytes where a hash map took 48 bytes inline plus 84 bytes
/// of table for its first entry (the record is per connected peer). Inserting is linear in the
/// entries, at most `max_cached_paths` (1,024 by default) announced ids and one per declared
/// table.
#[derive(Debug)]
pub(crate) struct PeerPaths<V> {
    recv: Vec<(u32, V)>,
    confirmed: Vec<(usize, bool)>,
}

impl<V> Default for PeerPaths<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V> PeerPaths<V> {
    /// An empty record (no allocation).
    pub(crate) const fn new() -> Self {
        Self {
            recv: Vec::new(),
            confirmed: Vec::new(),
        }
    }
}

/// Inserts `entry` at `at`, the vector growing 1, 2, 4, ... entries (`Vec`'s own growth starts
/// at 4).
fn insert_at<K, V>(entries: &mut Vec<(K, V)>, at: usize, entry: (K, V)) {
    if entries.len() == entries.capacity() {
        entries.reserve_exact(entries.len().max(1));
    }
    entries.insert(at, entry);
}

/// What a peer announcing an id it announced before gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Repeat {
    /// An error (Godot 4: `ERR_FAIL_COND(... has(id))`).
    Refuse,
    /// The new path replaces the old one (Godot 3: `nodes[id] = ni`).
    Replace,
}

impl<V: Copy + PartialEq> PeerPaths<V> {
    /// Remembers that `peer` announced `id` for `value`, within `limit` ids per peer.
    pub(crate) fn remember(
        &mut self,
        peer: i32,
        id: u32,
        value: V,
        limit: usize,
        repeat: Repeat,
    ) -> Result<(), ProtocolError> {
        match self.recv.binary_search_by_key(&id, |&(k, _)| k) {
            Ok(_) if repeat == Repeat::Refuse => Err(ProtocolError::DuplicateCacheId { peer, id }),
            Ok(at) => {
                if let Some(entry) = self.recv.get_mut(at) {
                    entry.1 = value;
                }
                Ok(())
            }
            Err(_) if self.recv.len() >= limit => Err(ProtocolError::PathCacheFull { peer, limit }),
            Err(at) => {
                insert_at(&mut self.recv, at, (id, value));
                Ok(())
            }
        }
    }

    /// What the peer's id `id` stands for.
    pub(crate) fn lookup(&self, id: u32) -> Option<V> {
        let at = self.recv.binary_search_by_key(&id, |&(k, _)| k).ok()?;
        self.recv.get(at).map(|&(_, v)| v)
    }

    /// Whether the peer confirmed our id of slot `index`: `None` when it was never sent.
    pub(crate) fn confirmation(&self, index: usize) -> Option<bool> {
        let at = self
            .confirmed
            .binary_search_by_key(&index, |&(k, _)| k)
            .ok()?;
        self.confirmed.get(at).map(|&(_, c)| c)
    }

    /// Records that our id of slot `index` was sent, unconfirmed.
    pub(crate) fn mark_sent(&mut self, index: usize) {
        match self.confirmed.binary_search_by_key(&index, |&(k, _)| k) {
            Ok(at) => {
                if let Some(entry) = self.confirmed.get_mut(at) {
                    entry.1 = false;
                }
            }
            Err(at) => insert_at(&mut self.confirmed, at, (index, false)),
        }
    }

    /// Records the peer's confirmation of slot `index`; false when it was never sent.
    pub(crate) fn confirm(&mut self, index: usize) -> bool {
        let found = self.confirmed.binary_search_by_key(&index, |&(k, _)| k);
        match found.ok().and_then(|at| self.confirmed.get_mut(at)) {
            Some(entry) => {
                entry.1 = true;
                true
            }
            None => false,
        }
    }

    /// Forgets slot `index` (and the ids announced for `value`).
    pub(crate) fn forget(&mut self, index: usize, value: V) {
        self.recv.retain(|&(_, v)| v != value);
        if let Ok(at) = self.confirmed.binary_search_by_key(&index, |&(k, _)| k) {
            self.confirmed.remove(at);
        }
    }

    /// The ids the peer announced, with what they stand for (in id order).
    pub(crate) fn announced(&self) -> impl Iterator<Item = (u32, V)> + '_ {
        self.recv.iter().copied()
    }

    /// The slots whose id we sent, with whether the peer confirmed it (in slot order).
    pub(crate) fn sent(&self) -> impl Iterator<Item = (usize, bool)> + '_ {
        self.confirmed.iter().copied()
    }
}

/// A per-peer record that holds a path-cache record (the record itself, or a dialect's larger
/// one).
pub(crate) trait HasPaths<V> {
    /// The path-cache part.
    fn paths(&self) -> &PeerPaths<V>;
    /// The path-cache part, to change.
    fn paths_mut(&mut self) -> &mut PeerPaths<V>;
}

impl<V> HasPaths<V> for PeerPaths<V> {
    fn paths(&self) -> &PeerPaths<V> {
        self
    }
    fn paths_mut(&mut self) -> &mut PeerPaths<V> {
        self
    }
}

/// For a send of slot `index` to `targets`: calls `announce` (a SIMPLIFY_PATH) for each
/// target never sent the id and records it sent; whether every target confirmed it already
/// (then the compact form goes to all, else [`confirmed`] tells the form per target).
pub(crate) fn announce<V: Copy + PartialEq, P: HasPaths<V>>(
    peers: &mut BTreeMap<i32, P>,
    index: usize,
    targets: &[i32],
    mut announce: impl FnMut(i32),
) -> bool {
    let mut all_confirmed = true;
    for &target in targets {
        let Some(peer) = peers.get_mut(&target).map(P::paths_mut) else {
            all_confirmed = false;
            continue;
        };
        match peer.confirmation(index) {
            Some(true) => {}
            Some(false) => all_confirmed = false,
            None => {
                all_confirmed = false;
                announce(target);
                peer.mark_sent(index);
            }
        }
    }
    all_confirmed
}

/// Whether `peer` confirmed our id of slot `index`.
pub(crate) fn confirmed<V: Copy + PartialEq, P: HasPaths<V>>(
    peers: &BTreeMap<i32, P>,
    peer: i32,
    index: usize,
) -> bool {
    peers.get(&peer).and_then(|p| p.paths().confirmation(index)) == Some(true)
}
