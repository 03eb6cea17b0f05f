//! The path cache of the Godot 4 session (`SceneCacheInterface`): the declared tables with our
//! cache ids, and per connected peer the ids it announced, which of ours it confirmed, and
//! the nodes whose RPC checksum it disagrees with. Private state; the session reaches it
//! through the methods here.

use std::collections::BTreeMap;

use crate::core::cache::{self, HasPaths, PathCache, PeerPaths, Repeat};
use crate::rpc::relative_path;
use crate::wire::NodeRef;
use crate::{ProtocolError, RpcTable};

/// The per-peer record of the path cache.
#[derive(Debug, Default)]
struct Peer {
    /// The ids it announced (→ table slot) and which of ours it confirmed.
    paths: PeerPaths<usize>,
    /// Table slots whose checksum differs between us, with its checksum (empty when it only
    /// told us through CONFIRM_PATH that ours differs). A vector: usually empty, at most one
    /// entry per declared table, and 24 bytes in every peer's record where a hash map took 48.
    mismatched: Vec<(usize, String)>,
}

impl Peer {
    /// The peer's checksum of the table in slot `index`, when it differs from ours.
    fn mismatch(&self, index: usize) -> Option<&String> {
        self.mismatched
            .iter()
            .find_map(|(i, md5)| (*i == index).then_some(md5))
    }

    /// Records that the checksums of slot `index` differ; `theirs` replaces a checksum known
    /// before unless it is `None`.
    fn set_mismatch(&mut self, index: usize, theirs: Option<&str>) {
        match self.mismatched.iter_mut().find(|(i, _)| *i == index) {
            Some((_, md5)) => {
                if let Some(theirs) = theirs {
                    theirs.clone_into(md5);
                }
            }
            None => self
                .mismatched
                .push((index, theirs.map(str::to_owned).unwrap_or_default())),
        }
    }
}

/// What a connected peer without a record reads as.
static EMPTY: Peer = Peer {
    paths: PeerPaths::new(),
    mismatched: Vec::new(),
};

impl HasPaths<usize> for Peer {
    fn paths(&self) -> &PeerPaths<usize> {
        &self.paths
    }
    fn paths_mut(&mut self) -> &mut PeerPaths<usize> {
        &mut self.paths
    }
}

/// The path-cache room: the connected peers (a sorted vector of ids, 4 bytes each), and a
/// record only for the peers that announced a path to us or were sent one of ours: a peer
/// that never names a node (every other client, on a client) costs its id alone.
#[derive(Debug)]
pub(super) struct Paths {
    cache: PathCache<RpcTable>,
    /// Sorted.
    connected: Vec<i32>,
    peers: BTreeMap<i32, Peer>,
}

/// What a send of one table to some targets needs: our id, the targets that must be sent
/// SIMPLIFY_PATH first, and whether every target confirmed the id already.
pub(super) struct Send {
    pub(super) id: u32,
    pub(super) announce: Vec<i32>,
    pub(super) all_confirmed: bool,
}

impl Paths {
    pub(super) fn new() -> Self {
        Self {
            cache: PathCache::new(u32::MAX),
            connected: Vec::new(),
            peers: BTreeMap::new(),
        }
    }

    /// Declares a table (replacing one of the same path); its slot.
    pub(super) fn declare(&mut self, table: RpcTable) -> usize {
        self.cache.declare(table)
    }

    /// The table in slot `index`.
    pub(super) fn table(&self, index: usize) -> Option<&RpcTable> {
        self.cache.table(index)
    }

    /// The slot of the table at `path` (relative to the multiplayer root).
    pub(super) fn index(&self, path: &str) -> Option<usize> {
        self.cache.index(path)
    }

    /// The table at `path`, with its slot.
    pub(super) fn by_path(&self, path: &str) -> Option<(usize, &RpcTable)> {
        self.cache.by_path(path)
    }

    // ---- peers ----------------------------------------------------------------------------

    /// Adds a connected peer (its record comes with its first path).
    pub(super) fn add_peer(&mut self, peer: i32) {
        if let Err(at) = self.connected.binary_search(&peer) {
            self.connected.insert(at, peer);
        }
    }

    /// Drops a peer and its record; whether it was connected.
    pub(super) fn remove_peer(&mut self, peer: i32) -> bool {
        self.peers.remove(&peer);
        match self.connected.binary_search(&peer) {
            Ok(at) => {
                self.connected.remove(at);
                true
            }
            Err(_) => false,
        }
    }

    /// Whether `peer` is connected.
    pub(super) fn is_connected(&self, peer: i32) -> bool {
        self.connected.binary_search(&peer).is_ok()
    }

    /// The connected peers, in id order.
    pub(super) fn ids(&self) -> impl Iterator<Item = i32> + '_ {
        self.connected.iter().copied()
    }

    /// A connected peer's record (an empty one while it has none); `NoSuchPeer` otherwise.
    fn record(&self, peer: i32) -> Result<&Peer, ProtocolError> {
        if !self.is_connected(peer) {
            return Err(ProtocolError::NoSuchPeer(peer));
        }
        Ok(self.peers.get(&peer).unwrap_or(&EMPTY))
    }

    /// A connected peer's record, made now if it has none.
    fn record_mut(&mut self, peer: i32) -> Result<&mut Peer, ProtocolError> {
        if !self.is_connected(peer) {
            return Err(ProtocolError::NoSuchPeer(peer));
        }
        Ok(self.peers.entry(peer).or_default())
    }

    // ---- receiving ------------------------------------------------------------------------

    /// The slot a REMOTE_CALL of `from` names. Calls on a node whose checksum `from`
    /// disagrees with are refused ([`ProtocolError::MismatchedCall`]): its method ids would
    /// name other methods here.
    pub(super) fn resolve(&self, from: i32, node: &NodeRef<'_>) -> Result<usize, ProtocolError> {
        let peer = self.record(from)?;
        let index =
            match *node {
                NodeRef::Cached(id) => peer
                    .paths
                    .lookup(id)
                    .ok_or(ProtocolError::UnknownCacheId { peer: from, id })?,
                NodeRef::Path(path) => self.cache.index(relative_path(path)).ok_or_else(|| {
                    ProtocolError::UnknownNode {
                        peer: from,
                        path: path.to_owned(),
                    }
                })?,
            };
        if let Some(theirs) = peer.mismatch(index) {
            let table = self.cache.table(index);
            return Err(ProtocolError::MismatchedCall {
                peer: from,
                path: table.map(|t| t.path().to_owned()).unwrap_or_default(),
                theirs: theirs.clone(),
                ours: table.map(|t| t.md5().to_owned()).unwrap_or_default(),
            });
        }
        Ok(index)
    }

    /// Whether `from` announced `id` already (Godot 4 refuses a second announcement).
    pub(super) fn announced(&self, from: i32, id: u32) -> Result<bool, ProtocolError> {
        let peer = self.record(from)?;
        Ok(peer.paths.lookup(id).is_some())
    }

    /// A SIMPLIFY_PATH of `from`: remembers its `id` for slot `index` (within `limit` ids)
    /// and compares the checksums. Whether they agree, and the mismatch to report when not.
    pub(super) fn receive_simplify(
        &mut self,
        from: i32,
        (md5, id, index): (&str, u32, usize),
        limit: usize,
    ) -> Result<(bool, Option<ProtocolError>), ProtocolError> {
        let table = self
            .cache
            .table(index)
            .ok_or(ProtocolError::UnknownCacheId { peer: from, id })?;
        let valid = table.md5() == md5;
        let mismatch = (!valid).then(|| ProtocolError::ChecksumMismatch {
            peer: from,
            path: table.path().to_owned(),
            theirs: md5.to_owned(),
            ours: table.md5().to_owned(),
            methods: table.method_names(),
        });
        let peer = self.record_mut(from)?;
        peer.paths
            .remember(from, id, index, limit, Repeat::Refuse)?;
        if !valid {
            peer.set_mismatch(index, Some(md5));
        }
        Ok((valid, mismatch))
    }

    /// A CONFIRM_PATH of `from` for our `id`; `valid` false: its checksum differs from ours.
    pub(super) fn receive_confirm(
        &mut self,
        from: i32,
        valid: bool,
        id: u32,
    ) -> Result<(), ProtocolError> {
        let Some(index) = self.cache.index_of_id(id) else {
            return Ok(()); // Godot: may confirm a node that was removed.
        };
        if !self.is_connected(from) {
            return Err(ProtocolError::NoSuchPeer(from));
        }
        // A peer without a record was sent no path: its confirmation is refused below.
        let mut none = Peer::default();
        let peer = self.peers.get_mut(&from).unwrap_or(&mut none);
        if !peer.paths.confirm(index) {
            return Err(ProtocolError::State {
                peer: from,
                detail: "confirmed a path that was not sent to it",
            });
        }
        if valid {
            return Ok(());
        }
        peer.set_mismatch(index, None);
        let table = self.cache.table(index);
        Err(ProtocolError::ChecksumMismatch {
            peer: from,
            path: table.map(|t| t.path().to_owned()).unwrap_or_default(),
            theirs: String::new(),
            ours: table.map(|t| t.md5().to_owned()).unwrap_or_default(),
            methods: table.map(RpcTable::method_names).unwrap_or_default(),
        })
    }

    /// The path `from` announced as `id`.
    pub(super) fn announced_path(&self, from: i32, id: u32) -> Option<&str> {
        let index = self.peers.get(&from)?.paths.lookup(id)?;
        self.cache.table(index).map(RpcTable::path)
    }

    // ---- sending --------------------------------------------------------------------------

    /// Prepares a send of slot `index` to `targets` (`make_object_cache`, then
    /// `send_object_cache`): gives the id, and records the SIMPLIFY_PATH the caller sends.
    pub(super) fn send(&mut self, index: usize, targets: &[i32]) -> Send {
        let id = self.cache.id_for(index);
        // The targets' records (a SIMPLIFY_PATH goes to those that have none).
        for &target in targets {
            let _ = self.record_mut(target);
        }
        let mut announce = Vec::new();
        let all_confirmed = cache::announce(&mut self.peers, index, targets, |t| announce.push(t));
        Send {
            id,
            announce,
            all_confirmed,
        }
    }

    /// Whether `peer` confirmed our id of slot `index`.
    pub(super) fn confirmed(&self, peer: i32, index: usize) -> bool {
        cache::confirmed(&self.peers, peer, index)
    }

    /// Forgets the table at `path` unless it has RPC methods (a path replication made for a
    /// node that is gone), and what peers announced for it; its slot is reused.
    pub(super) fn forget(&mut self, path: &str) {
        let keep = self
            .cache
            .by_path(path)
            .is_none_or(|(_, t)| !t.methods().is_empty());
        if keep {
            return;
        }
        if let Some(index) = self.cache.forget(path) {
            for peer in self.peers.values_mut() {
                peer.paths.forget(index, index);
                peer.mismatched.retain(|(i, _)| *i != index);
            }
        }
    }

    /// Takes our ids from `counter`, shared with the sessions of other rooms.
    pub(super) fn share_ids(&mut self, counter: std::sync::Arc<std::sync::atomic::AtomicU32>) {
        self.cache.share_ids(counter);
    }

    /// `peer`'s checksum of the table in slot `index` when it differs from ours (empty when
    /// only its CONFIRM_PATH told us).
    pub(super) fn their_md5(&self, peer: i32, index: usize) -> Option<&str> {
        self.peers.get(&peer)?.mismatch(index).map(String::as_str)
    }

    // ---- read access ----------------------------------------------------------------------

    /// Each declared path with our id (0: never sent), by path.
    pub(super) fn entries(&self) -> Vec<(String, u32)> {
        let mut all: Vec<(String, u32)> = self
            .cache
            .entries()
            .map(|(t, id)| (t.path().to_owned(), id))
            .collect();
        all.sort();
        all
    }

    /// The ids `peer` announced with their paths, by id.
    pub(super) fn peer_entries(&self, peer: i32) -> Vec<(u32, String)> {
        self.sorted(peer, |p| p.paths.announced().collect::<Vec<_>>())
            .into_iter()
            .map(|((id, _), path)| (id, path))
            .collect()
    }

    /// The paths sent to `peer` with whether it confirmed them, by path.
    pub(super) fn confirmations(&self, peer: i32) -> Vec<(String, bool)> {
        let mut all: Vec<(String, bool)> = self
            .sorted(peer, |p| {
                p.paths.sent().map(|(i, c)| (c, i)).collect::<Vec<_>>()
            })
            .into_iter()
            .map(|((c, _), path)| (path, c))
            .collect();
        all.sort();
        all
    }

    /// `pick`'s `(key, slot)` pairs of `peer`'s record with the slots' paths, sorted.
    fn sorted<K: Ord + Copy>(
        &self,
        peer: i32,
        pick: impl Fn(&Peer) -> Vec<(K, usize)>,
    ) -> Vec<((K, usize), String)> {
        let Some(record) = self.peers.get(&peer) else {
            return Vec::new();
        };
        let mut all: Vec<((K, usize), String)> = pick(record)
            .into_iter()
            .filter_map(|(k, i)| Some(((k, i), self.cache.table(i)?.path().to_owned())))
            .collect();
        all.sort();
        all
    }
}
