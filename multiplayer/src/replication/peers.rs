//! Replication's peers: the connected ones (a sorted vector of ids, 4 bytes each), and a
//! record only for those it replicates with: a node spawned on or by the peer, a synchronizer
//! it sees, a SYNC sequence it was sent. A connected peer replication has nothing for (every
//! other client, on a client; an idle peer on a server) costs its id and nothing more.
//!
//! The record's sets and maps are vectors sorted by key, searched by bisection: a peer has a
//! handful of entries each, and an empty vector is 24 bytes where an empty hash map took 48
//! and an entry in a B-tree set its share of a 100-byte-plus node. They grow 1, 2, 4, ...
//! entries (`Vec`'s own growth starts at 4). Handles count up, so the usual insertion is an
//! append.

use std::collections::BTreeMap;

use super::{NodeId, SyncId};

/// A set as a sorted vector.
#[derive(Debug)]
pub(crate) struct SortedSet<T>(Vec<T>);

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

/// Makes room for one more entry, the vector growing 1, 2, 4, ... entries.
fn grow<T>(entries: &mut Vec<T>) {
    if entries.len() == entries.capacity() {
        entries.reserve_exact(entries.len().max(1));
    }
}

impl<T: Ord + Copy> SortedSet<T> {
    /// An empty set (no allocation).
    pub(crate) const fn new() -> Self {
        Self(Vec::new())
    }

    /// Adds `v`; whether it was not there.
    pub(crate) fn insert(&mut self, v: T) -> bool {
        match self.0.binary_search(&v) {
            Ok(_) => false,
            Err(at) => {
                grow(&mut self.0);
                self.0.insert(at, v);
                true
            }
        }
    }

    /// Removes `v`; whether it was there.
    pub(crate) fn remove(&mut self, v: &T) -> bool {
        match self.0.binary_search(v) {
            Ok(at) => {
                self.0.remove(at);
                true
            }
            Err(_) => false,
        }
    }

    /// Whether `v` is in the set.
    pub(crate) fn contains(&self, v: &T) -> bool {
        self.0.binary_search(v).is_ok()
    }

    /// The entries in order.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'a, T> IntoIterator for &'a SortedSet<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// A map as a vector of pairs sorted by key.
#[derive(Debug)]
pub(crate) struct SortedMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<K: Ord + Copy, V: Copy> SortedMap<K, V> {
    /// An empty map (no allocation).
    pub(crate) const fn new() -> Self {
        Self(Vec::new())
    }

    fn find(&self, k: &K) -> Result<usize, usize> {
        self.0.binary_search_by(|(key, _)| key.cmp(k))
    }

    /// The value of `k`.
    pub(crate) fn get(&self, k: &K) -> Option<&V> {
        let at = self.find(k).ok()?;
        self.0.get(at).map(|(_, v)| v)
    }

    /// Sets `k` to `v` (replacing a value).
    pub(crate) fn insert(&mut self, k: K, v: V) {
        match self.find(&k) {
            Ok(at) => {
                if let Some(entry) = self.0.get_mut(at) {
                    entry.1 = v;
                }
            }
            Err(at) => {
                grow(&mut self.0);
                self.0.insert(at, (k, v));
            }
        }
    }

    /// Removes `k`; its value.
    pub(crate) fn remove(&mut self, k: &K) -> Option<V> {
        let at = self.find(k).ok()?;
        Some(self.0.remove(at).1)
    }

    /// Whether `k` has a value.
    pub(crate) fn contains_key(&self, k: &K) -> bool {
        self.find(k).is_ok()
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// The values, in key order.
    pub(crate) fn into_values(self) -> impl Iterator<Item = V> {
        self.0.into_iter().map(|(_, v)| v)
    }
}

/// Replication's record of a peer it replicates with.
#[derive(Debug, Default)]
pub(crate) struct PeerRep {
    /// Our nodes spawned on the peer.
    pub(crate) spawned: SortedSet<NodeId>,
    /// Our synchronizers the peer sees (`sync_nodes`).
    pub(crate) sync_nodes: SortedSet<SyncId>,
    /// The last full SYNC's time sent to the peer.
    pub(crate) last_sent_sync: u16,
    /// When each synchronizer's last delta went to the peer.
    pub(crate) last_watch: SortedMap<SyncId, u64>,
    /// What the peer spawned here (client role: the server's spawns), boxed: a server's
    /// records never have it, and it takes 8 bytes of theirs where its two maps took 48.
    received: Option<Box<Received>>,
}

/// The nodes a peer spawned here, and their synchronizers, by its net ids.
#[derive(Debug, Default)]
pub(crate) struct Received {
    /// The nodes, by net id.
    pub(crate) nodes: SortedMap<u32, NodeId>,
    /// Their synchronizers, by net id.
    pub(crate) syncs: SortedMap<u32, SyncId>,
}

/// What a record that received nothing reads as.
static NOTHING: Received = Received {
    nodes: SortedMap::new(),
    syncs: SortedMap::new(),
};

impl PeerRep {
    /// What the peer spawned here (empty when it spawned nothing).
    pub(crate) fn received(&self) -> &Received {
        self.received.as_deref().unwrap_or(&NOTHING)
    }

    /// What the peer spawned here, to change, if it spawned anything.
    pub(crate) fn received_mut(&mut self) -> Option<&mut Received> {
        self.received.as_deref_mut()
    }

    /// What the peer spawned here, to add to (made now if it spawned nothing yet).
    pub(crate) fn receiving(&mut self) -> &mut Received {
        self.received.get_or_insert_default()
    }

    /// What the peer spawned here, taken out of the record.
    pub(crate) fn take_received(&mut self) -> Received {
        self.received.take().map(|r| *r).unwrap_or_default()
    }
}

/// What a connected peer without a record reads as.
static EMPTY: PeerRep = PeerRep {
    spawned: SortedSet::new(),
    sync_nodes: SortedSet::new(),
    last_sent_sync: 0,
    last_watch: SortedMap::new(),
    received: None,
};

/// The connected peers and the records of those replication works with.
#[derive(Debug, Default)]
pub(crate) struct Peers {
    /// Sorted.
    connected: Vec<i32>,
    records: BTreeMap<i32, PeerRep>,
}

impl Peers {
    /// Adds a connected peer (no record yet).
    pub(crate) fn connect(&mut self, peer: i32) {
        if let Err(at) = self.connected.binary_search(&peer) {
            self.connected.insert(at, peer);
        }
    }

    /// Removes a peer; its record, if it had one.
    pub(crate) fn disconnect(&mut self, peer: i32) -> Option<PeerRep> {
        if let Ok(at) = self.connected.binary_search(&peer) {
            self.connected.remove(at);
        }
        self.records.remove(&peer)
    }

    /// The connected peers, in id order.
    pub(crate) fn keys(&self) -> std::slice::Iter<'_, i32> {
        self.connected.iter()
    }

    /// Whether `peer` is connected.
    pub(crate) fn contains_key(&self, peer: &i32) -> bool {
        self.connected.binary_search(peer).is_ok()
    }

    /// A connected peer's record (an empty one when replication has nothing for it).
    pub(crate) fn get(&self, peer: &i32) -> Option<&PeerRep> {
        if !self.contains_key(peer) {
            return None;
        }
        Some(self.records.get(peer).unwrap_or(&EMPTY))
    }

    /// A peer's record, to change, if it has one.
    pub(crate) fn get_mut(&mut self, peer: &i32) -> Option<&mut PeerRep> {
        self.records.get_mut(peer)
    }

    /// A connected peer's record, made now if it has none (something is spawned on, synced
    /// to or received from it).
    pub(crate) fn record(&mut self, peer: i32) -> Option<&mut PeerRep> {
        if !self.contains_key(&peer) {
            return None;
        }
        Some(self.records.entry(peer).or_default())
    }

    /// The peers with a record, and their records.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&i32, &PeerRep)> + '_ {
        self.records.iter()
    }

    /// The records.
    pub(crate) fn values(&self) -> impl Iterator<Item = &PeerRep> + '_ {
        self.records.values()
    }

    /// The records, to change.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut PeerRep> + '_ {
        self.records.values_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_and_maps_keep_their_keys_sorted_and_grow_one_two_four() {
        let mut set = SortedSet::new();
        for v in [5u64, 1, 3, 3] {
            set.insert(v);
        }
        assert_eq!(set.iter().copied().collect::<Vec<_>>(), [1, 3, 5]);
        assert!(set.remove(&3) && !set.remove(&3) && !set.contains(&3));
        let mut map = SortedMap::new();
        let mut capacities = Vec::new();
        for k in [9u32, 2, 7, 2] {
            map.insert(k, k * 10);
            capacities.push(map.0.capacity());
        }
        // One entry, then two, then four (not `Vec`'s first four).
        assert_eq!(capacities, [1, 2, 4, 4]);
        assert_eq!(map.get(&2), Some(&20));
        assert_eq!(map.remove(&7), Some(70));
        assert_eq!(map.into_values().collect::<Vec<_>>(), [20, 90]);
    }

    #[test]
    fn a_connected_peer_has_a_record_only_once_asked_for_one() {
        let mut peers = Peers::default();
        peers.connect(7);
        peers.connect(3);
        assert_eq!(peers.keys().copied().collect::<Vec<_>>(), [3, 7]);
        // Read as empty, changed only through a record made on purpose.
        assert!(peers.get(&7).is_some_and(|p| p.spawned.is_empty()));
        assert!(peers.get_mut(&7).is_none());
        assert!(peers.record(9).is_none(), "not connected");
        if let Some(p) = peers.record(7) {
            p.spawned.insert(NodeId(1));
        }
        assert_eq!(peers.iter().map(|(&id, _)| id).collect::<Vec<_>>(), [7]);
        assert!(
            peers
                .disconnect(7)
                .is_some_and(|p| p.spawned.contains(&NodeId(1)))
        );
        assert!(peers.disconnect(3).is_none());
        assert_eq!(peers.keys().count(), 0);
    }
}
