//! Interest management: which spawned nodes each peer sees, computed by the server on a
//! schedule from a rule the application gives (a radius over positions, groups, or a
//! callback), applied with Godot's own per-peer visibility (`set_visibility_for`,
//! `_update_spawn_visibility`, `_update_sync_visibility`): a node that enters a peer's interest
//! is spawned on it and its synchronizers start to reach it; one that leaves is despawned and
//! its state stops.
//!
//! Godot's `MultiplayerSynchronizer` offers visibility filters (`add_visibility_filter`),
//! called for every peer and every synchronizer on every frame (`update_visibility(0)` in the
//! synchronizer's process): work in peers × nodes. Here a rule is evaluated once per
//! interval ([`InterestRule::with_interval`], the visibility interval Godot does not have),
//! and a radius rule finds its candidates in a grid of cells of side `radius` (the 9
//! neighbouring cells in 2D, 27 in 3D), so an update costs peers × the nodes near each, not
//! peers × nodes. What changes between two updates (the diff of each peer's sorted interest
//! set) is all that turns into packets.
//!
//! The rule filters the spawned nodes only (declared synchronizers, part of every side's
//! scene, keep their own visibility): a spawned node is seen by a peer when
//! - the rule gives it to the peer (a node without a position under a radius rule, or in no
//!   group of the peer under a groups rule, is seen by nobody), or the node is the peer's
//!   focus ([`Session::set_peer_focus`]), or one of the node's synchronizers has the peer as
//!   its authority (the authority always sees what it owns);
//! - and the engine's visibility allows it: a synchronizer is visible to a peer when it is
//!   public or visible to that peer (`set_visibility_for`) and the interest gives the node,
//!   as a visibility filter ANDs with the engine's visibility; the node is spawned on a peer
//!   when one of its synchronizers we own is visible to it (OR, as the engine composes spawn
//!   visibility), or when it has none.
//!
//! What a peer's interest can hold is bounded by [`Limits::max_interest_per_peer`]
//! (default 1,024 nodes; the nearest under a radius rule, the lowest node ids otherwise),
//! which bounds its spawned nodes, visible synchronizers and delta times too (plus its focus
//! and the nodes it owns).
//!
//! ```
//! use godot_serde_multiplayer::replication::{InterestRule, Position};
//! use godot_serde_multiplayer::{ReplicationConfig, Session, Settings, SpawnScene, Spawner, Synchronizer};
//!
//! let mut session = Session::server(Settings::default());
//! session.declare_spawner(Spawner::new("World/Spawner", "World/Units").scene("res://unit.tscn"));
//! // Each peer sees the nodes within 50 units of its own, checked 10 times a second.
//! session.set_interest(InterestRule::radius_2d(50.0).with_interval(0.1));
//! session.connected(2, std::time::Instant::now());
//! let sync = Synchronizer::new("Sync", ReplicationConfig::new().property(".:position"));
//! let mine = session.spawn("World/Spawner", SpawnScene::Index(0), "Two", vec![(sync.clone(),
//!     vec![godot_serde::Variant::Nil])])?;
//! let far = session.spawn("World/Spawner", SpawnScene::Index(0), "Far", vec![(sync,
//!     vec![godot_serde::Variant::Nil])])?;
//! session.set_node_position(mine, [0.0, 0.0])?;
//! session.set_node_position(far, [500.0, 0.0])?;
//! session.set_peer_focus(2, Some(mine)); // peer 2 is where its node is, and always sees it
//! session.update_interest(); // or on the interval, in handle_timeout
//! assert!(session.spawned_on(mine).contains(&2));
//! assert!(!session.spawned_on(far).contains(&2));
//! session.set_node_position(far, [30.0, 0.0])?; // comes within 50: spawned at the next update
//! session.update_interest();
//! assert!(session.spawned_on(far).contains(&2));
//! # let _ = Position::from([0.0f32, 0.0]);
//! # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
//! ```
//!
//! [`Limits::max_interest_per_peer`]: crate::Limits::max_interest_per_peer
//! [`Session::set_peer_focus`]: crate::Session::set_peer_focus

use std::collections::{BTreeSet, HashMap};

use super::{NodeId, SyncId};
use crate::{ProtocolError, Session};

/// A position for the radius rule: x, y and z (z is 0 in 2D and ignored by a 2D rule).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Position(pub [f32; 3]);

impl From<[f32; 2]> for Position {
    fn from([x, y]: [f32; 2]) -> Self {
        Self([x, y, 0.0])
    }
}

impl From<[f32; 3]> for Position {
    fn from(p: [f32; 3]) -> Self {
        Self(p)
    }
}

/// `Real` is `f32`, or `f64` with the `double-precision` feature of `godot-serde`.
#[allow(clippy::unnecessary_cast)]
fn single(v: godot_serde::Real) -> f32 {
    v as f32
}

impl From<godot_serde::Vector2> for Position {
    fn from(v: godot_serde::Vector2) -> Self {
        Self([single(v.x), single(v.y), 0.0])
    }
}

impl From<godot_serde::Vector3> for Position {
    fn from(v: godot_serde::Vector3) -> Self {
        Self([single(v.x), single(v.y), single(v.z)])
    }
}

type Callback = Box<dyn Fn(i32, NodeId) -> bool + Send + Sync>;

enum Kind {
    Radius { radius: f32, three_d: bool },
    Groups,
    Callback(Callback),
}

/// The rule that decides which spawned nodes a peer is interested in, and how often it is
/// evaluated (see the [module](self) documentation).
pub struct InterestRule {
    kind: Kind,
    interval_us: u64,
    margin: f32,
}

impl std::fmt::Debug for InterestRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.kind {
            Kind::Radius { radius, three_d } => format!("radius {radius} (3D: {three_d})"),
            Kind::Groups => "groups".to_owned(),
            Kind::Callback(_) => "callback".to_owned(),
        };
        f.debug_struct("InterestRule")
            .field("kind", &kind)
            .field("interval_us", &self.interval_us)
            .field("margin", &self.margin)
            .finish()
    }
}

impl InterestRule {
    fn new(kind: Kind) -> Self {
        Self {
            kind,
            interval_us: 0,
            margin: 0.0,
        }
    }

    /// A peer sees the nodes within `radius` of its position in the x-y plane (z ignored).
    /// A radius that is not a positive finite number gives nobody anything.
    pub fn radius_2d(radius: f32) -> Self {
        Self::new(Kind::Radius {
            radius,
            three_d: false,
        })
    }

    /// A peer sees the nodes within `radius` of its position in space.
    pub fn radius_3d(radius: f32) -> Self {
        Self::new(Kind::Radius {
            radius,
            three_d: true,
        })
    }

    /// A peer sees the nodes of the groups it is in ([`Session::add_peer_to_group`],
    /// [`Session::add_node_to_group`]).
    pub fn groups() -> Self {
        Self::new(Kind::Groups)
    }

    /// A peer sees the nodes for which `f(peer, node)` is true. It is called for every peer
    /// and spawned node at each update (peers × nodes calls, as Godot's visibility filters):
    /// keep it cheap or the interval long.
    pub fn callback(f: impl Fn(i32, NodeId) -> bool + Send + Sync + 'static) -> Self {
        Self::new(Kind::Callback(Box::new(f)))
    }

    /// Radius rules: a node a peer sees stays seen until it is farther than `radius + margin`
    /// (it enters within `radius`), so that a node moving to and fro across the radius is not
    /// despawned and spawned again each update. 0 (the default) is the exact radius; a
    /// negative or NaN margin counts as 0.
    #[must_use]
    pub fn with_margin(mut self, margin: f32) -> Self {
        self.margin = if margin > 0.0 { margin } else { 0.0 };
        self
    }

    /// Evaluated every `seconds` (0, the default: on every `handle_timeout`, each network
    /// frame).
    #[must_use]
    pub fn with_interval(mut self, seconds: f64) -> Self {
        self.interval_us = (seconds.max(0.0) * 1_000_000.0) as u64;
        self
    }
}

type Cell = (i32, i32, i32);

#[derive(Debug, Default)]
struct NodeInterest {
    pos: Option<[f32; 3]>,
    cell: Option<Cell>,
    groups: BTreeSet<String>,
}

#[derive(Debug, Default)]
struct PeerInterest {
    pos: Option<[f32; 3]>,
    focus: Option<NodeId>,
    groups: BTreeSet<String>,
    /// The nodes the rule gives this peer, sorted.
    sees: Vec<NodeId>,
}

/// The interest state of a session's replication.
#[derive(Default)]
pub(crate) struct Interest {
    rule: Option<InterestRule>,
    last_us: u64,
    nodes: HashMap<NodeId, NodeInterest, super::IdHash>,
    /// The placed nodes of each cell, with their positions (no lookup per candidate).
    cells: HashMap<Cell, Vec<(NodeId, [f32; 3])>>,
    peers: HashMap<i32, PeerInterest>,
    groups: HashMap<String, BTreeSet<NodeId>>,
    /// Nodes a radius rule looked at in the last update (for the tests of its cost).
    examined: usize,
}

impl std::fmt::Debug for Interest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interest")
            .field("rule", &self.rule)
            .field("nodes", &self.nodes.len())
            .field("peers", &self.peers.len())
            .finish()
    }
}

fn cell_of(p: [f32; 3], side: f32, three_d: bool) -> Cell {
    // `as` saturates (and NaN gives 0): a far or broken position lands in some cell, and the
    // distance check (false for NaN) decides.
    let c = |v: f32| (v / side).floor() as i32;
    let [x, y, z] = p;
    (c(x), c(y), if three_d { c(z) } else { 0 })
}

fn dist2(a: [f32; 3], b: [f32; 3], three_d: bool) -> f32 {
    let [dx, dy, dz] = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    dx * dx + dy * dy + if three_d { dz * dz } else { 0.0 }
}

fn valid_radius(radius: f32) -> bool {
    radius.is_finite() && radius > 0.0
}

impl Interest {
    pub(crate) fn active(&self) -> bool {
        self.rule.is_some()
    }

    /// The cell side (the radius and its margin: the 3 × 3 (× 3) cells around a peer hold
    /// every node it may keep) and the dimensions of a radius rule.
    fn grid(&self) -> Option<(f32, bool)> {
        let rule = self.rule.as_ref()?;
        match &rule.kind {
            Kind::Radius { radius, three_d }
                if valid_radius(*radius) && valid_radius(*radius + rule.margin) =>
            {
                Some((*radius + rule.margin, *three_d))
            }
            _ => None,
        }
    }

    /// The next update time, for `poll_timeout` (none with an interval of 0: every frame).
    pub(crate) fn deadline_us(&self) -> Option<u64> {
        let rule = self.rule.as_ref()?;
        (rule.interval_us > 0).then(|| self.last_us.saturating_add(rule.interval_us))
    }

    pub(crate) fn due(&self, now_us: u64) -> bool {
        self.rule
            .as_ref()
            .is_some_and(|r| now_us >= self.last_us.saturating_add(r.interval_us))
    }

    /// Whether the rule gives `node` to `peer` (or the node is its focus).
    pub(crate) fn gives(&self, peer: i32, node: NodeId) -> bool {
        self.peers
            .get(&peer)
            .is_some_and(|p| p.focus == Some(node) || p.sees.binary_search(&node).is_ok())
    }

    fn rebuild_cells(&mut self) {
        self.cells.clear();
        let grid = self.grid();
        for (&id, n) in &mut self.nodes {
            n.cell = None;
            if let (Some((side, three_d)), Some(pos)) = (grid, n.pos) {
                let cell = cell_of(pos, side, three_d);
                n.cell = Some(cell);
                self.cells.entry(cell).or_default().push((id, pos));
            }
        }
    }

    fn unplace(&mut self, node: NodeId, cell: Cell) {
        if let Some(list) = self.cells.get_mut(&cell) {
            list.retain(|&(n, _)| n != node);
            if list.is_empty() {
                self.cells.remove(&cell);
            }
        }
    }

    fn set_node_position(&mut self, node: NodeId, pos: [f32; 3]) {
        let grid = self.grid();
        let n = self.nodes.entry(node).or_default();
        n.pos = Some(pos);
        let Some((side, three_d)) = grid else {
            return;
        };
        let cell = cell_of(pos, side, three_d);
        let old = n.cell.replace(cell);
        if old == Some(cell) {
            // Same cell: its entry moves (a cell holds a few nodes at the radius' density).
            if let Some(e) = self
                .cells
                .get_mut(&cell)
                .and_then(|list| list.iter_mut().find(|(n, _)| *n == node))
            {
                e.1 = pos;
            }
            return;
        }
        if let Some(old) = old {
            self.unplace(node, old);
        }
        self.cells.entry(cell).or_default().push((node, pos));
    }

    pub(crate) fn forget_node(&mut self, node: NodeId) {
        if let Some(n) = self.nodes.remove(&node) {
            if let Some(cell) = n.cell {
                self.unplace(node, cell);
            }
            for g in n.groups {
                if let Some(set) = self.groups.get_mut(&g) {
                    set.remove(&node);
                    if set.is_empty() {
                        self.groups.remove(&g);
                    }
                }
            }
        }
    }

    pub(crate) fn forget_peer(&mut self, peer: i32) {
        self.peers.remove(&peer);
    }

    /// The rule's nodes for `peer`, sorted, at most `limit`; `examined` counts the nodes a
    /// radius rule looked at.
    fn compute(
        &self,
        peer: i32,
        p: &PeerInterest,
        all: &[NodeId],
        limit: usize,
        examined: &mut usize,
    ) -> Vec<NodeId> {
        let Some(rule) = &self.rule else {
            return Vec::new();
        };
        let mut out = match &rule.kind {
            Kind::Radius { radius, three_d } => {
                let pos = p
                    .focus
                    .and_then(|f| self.nodes.get(&f))
                    .and_then(|n| n.pos)
                    .or(p.pos);
                let (Some(pos), Some((side, _))) = (pos, self.grid()) else {
                    return Vec::new();
                };
                let (r2, keep2) = (radius * radius, side * side);
                let (cx, cy, cz) = cell_of(pos, side, *three_d);
                let zs = if *three_d { -1..=1 } else { 0..=0 };
                let mut near: Vec<(f32, NodeId)> = Vec::new();
                for dz in zs {
                    for dy in -1..=1 {
                        for dx in -1..=1 {
                            let cell = (
                                cx.saturating_add(dx),
                                cy.saturating_add(dy),
                                cz.saturating_add(dz),
                            );
                            let Some(list) = self.cells.get(&cell) else {
                                continue;
                            };
                            *examined += list.len();
                            for &(id, np) in list {
                                let d = dist2(pos, np, *three_d);
                                // Within the radius, or within its margin and seen already.
                                if d <= r2 || (d <= keep2 && p.sees.binary_search(&id).is_ok()) {
                                    near.push((d, id));
                                }
                            }
                        }
                    }
                }
                if near.len() > limit {
                    // The nearest `limit`.
                    near.select_nth_unstable_by(limit, |a, b| a.0.total_cmp(&b.0));
                    near.truncate(limit);
                }
                near.into_iter().map(|(_, id)| id).collect::<Vec<_>>()
            }
            Kind::Groups => {
                let mut v: Vec<NodeId> = p
                    .groups
                    .iter()
                    .filter_map(|g| self.groups.get(g))
                    .flatten()
                    .copied()
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            }
            Kind::Callback(f) => all
                .iter()
                .copied()
                .filter(|&n| f(peer, n))
                .take(limit)
                .collect(),
        };
        out.sort_unstable();
        out.dedup();
        out.truncate(limit);
        // The candidates' buffer may be reused by the collect (a radius rule's can hold every
        // node of a crowded cell): what a peer keeps is sized by what it sees.
        out.shrink_to_fit();
        out
    }

    /// Evaluates the rule for every peer in `peers`: the (peer, node) pairs whose interest
    /// changed (entered or left), in peer order.
    fn update(
        &mut self,
        peers: &[i32],
        all: &[NodeId],
        limit: usize,
        now_us: Option<u64>,
    ) -> Vec<(i32, NodeId)> {
        if let Some(now) = now_us {
            self.last_us = now;
        }
        let mut examined = 0;
        let mut changes = Vec::new();
        let none = PeerInterest::default();
        for &peer in peers {
            let p = self.peers.get(&peer).unwrap_or(&none);
            let new = self.compute(peer, p, all, limit, &mut examined);
            diff(&p.sees, &new, |n| changes.push((peer, n)));
            match self.peers.get_mut(&peer) {
                Some(p) => p.sees = new,
                None if !new.is_empty() => {
                    let p = PeerInterest {
                        sees: new,
                        ..PeerInterest::default()
                    };
                    self.peers.insert(peer, p);
                }
                None => {}
            }
        }
        self.examined = examined;
        changes
    }

    /// Interest entries held (nodes placed, peers, seen pairs), for the footprint.
    pub(crate) fn count(&self) -> usize {
        self.nodes.len() + self.peers.values().map(|p| 1 + p.sees.len()).sum::<usize>()
    }
}

/// Calls `f` for every element in exactly one of two sorted lists.
fn diff(old: &[NodeId], new: &[NodeId], mut f: impl FnMut(NodeId)) {
    let (mut i, mut j) = (0, 0);
    loop {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                f(*a);
                i += 1;
            }
            (Some(_), Some(b)) | (None, Some(b)) => {
                f(*b);
                j += 1;
            }
            (Some(a), None) => {
                f(*a);
                i += 1;
            }
            (None, None) => break,
        }
    }
}

impl Session {
    /// Sets the interest rule (replacing any): from the next update (at once with
    /// [`update_interest`](Self::update_interest)), each peer sees the spawned nodes the rule
    /// gives it. Setting or replacing a rule re-evaluates every peer and node once. A server's
    /// matter: on a client it changes nothing (its own synchronizers still reach the server).
    pub fn set_interest(&mut self, rule: InterestRule) {
        let interest = &mut self.rep_mut().interest;
        interest.rule = Some(rule);
        interest.last_us = 0;
        interest.rebuild_cells();
        self.update_interest();
        self.reevaluate_all();
    }

    /// Removes the interest rule: every spawned node is again visible as the engine's
    /// visibility alone says (spawned where it was hidden by interest alone).
    pub fn clear_interest(&mut self) {
        let interest = &mut self.rep_mut().interest;
        interest.rule = None;
        interest.cells.clear();
        for p in interest.peers.values_mut() {
            p.sees.clear();
        }
        self.reevaluate_all();
    }

    fn reevaluate_all(&mut self) {
        let peers: Vec<i32> = self.rep().peers.keys().copied().collect();
        let nodes: Vec<NodeId> = self.rep().nodes.keys().copied().collect();
        for &peer in &peers {
            for &node in &nodes {
                self.apply_interest_change(peer, node);
            }
        }
    }

    /// Places a spawned node for a radius rule (x, y in 2D; x, y, z in 3D). A position with a
    /// NaN is within nobody's radius.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`] for a node that is not spawned.
    pub fn set_node_position(
        &mut self,
        node: NodeId,
        pos: impl Into<Position>,
    ) -> Result<(), ProtocolError> {
        self.known_node(node)?;
        self.rep_mut()
            .interest
            .set_node_position(node, pos.into().0);
        Ok(())
    }

    /// Places a peer for a radius rule (its focus node's position, when it has one, wins). A
    /// peer that is not connected is ignored (it may have left meanwhile).
    pub fn set_peer_position(&mut self, peer: i32, pos: impl Into<Position>) {
        if let Some(p) = self.interest_peer(peer) {
            p.pos = Some(pos.into().0);
        }
    }

    /// A peer's focus: the node it always sees and, under a radius rule, whose position is the
    /// peer's (its avatar). `None` removes it. A peer that is not connected is ignored.
    pub fn set_peer_focus(&mut self, peer: i32, node: Option<NodeId>) {
        let Some(p) = self.interest_peer(peer) else {
            return;
        };
        let old = std::mem::replace(&mut p.focus, node);
        // The new focus is seen at once, the old one is left to the rule at once.
        for n in old.into_iter().chain(node) {
            self.apply_interest_change(peer, n);
        }
    }

    /// Puts a spawned node in a group (for a groups rule).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`] for a node that is not spawned.
    pub fn add_node_to_group(&mut self, node: NodeId, group: &str) -> Result<(), ProtocolError> {
        self.known_node(node)?;
        let interest = &mut self.rep_mut().interest;
        interest
            .nodes
            .entry(node)
            .or_default()
            .groups
            .insert(group.to_owned());
        interest
            .groups
            .entry(group.to_owned())
            .or_default()
            .insert(node);
        Ok(())
    }

    /// Takes a node out of a group.
    pub fn remove_node_from_group(&mut self, node: NodeId, group: &str) {
        let interest = &mut self.rep_mut().interest;
        if let Some(n) = interest.nodes.get_mut(&node) {
            n.groups.remove(group);
        }
        if let Some(set) = interest.groups.get_mut(group) {
            set.remove(&node);
            if set.is_empty() {
                interest.groups.remove(group);
            }
        }
    }

    /// Puts a peer in a group: under a groups rule it sees the group's nodes from the next
    /// update. A peer that is not connected is ignored.
    pub fn add_peer_to_group(&mut self, peer: i32, group: &str) {
        if let Some(p) = self.interest_peer(peer) {
            p.groups.insert(group.to_owned());
        }
    }

    /// Takes a peer out of a group.
    pub fn remove_peer_from_group(&mut self, peer: i32, group: &str) {
        if let Some(p) = self.rep_mut().interest.peers.get_mut(&peer) {
            p.groups.remove(group);
        }
    }

    /// The nodes the interest rule gave `peer` at the last update, sorted (its focus and the
    /// nodes it owns are seen besides).
    pub fn interest_of(&self, peer: i32) -> &[NodeId] {
        self.rep()
            .interest
            .peers
            .get(&peer)
            .map_or(&[], |p| p.sees.as_slice())
    }

    /// Evaluates the interest rule now for every peer (besides the updates on its interval in
    /// [`handle_timeout`](Self::handle_timeout)), and spawns, despawns, starts and stops the
    /// state of the nodes that entered or left a peer's interest. Without a rule it does
    /// nothing.
    pub fn update_interest(&mut self) {
        self.run_interest(None);
    }

    /// The scheduled update, from the network process.
    pub(crate) fn interest_tick(&mut self, now_us: u64) {
        if self.rep().interest.due(now_us) {
            self.run_interest(Some(now_us));
        }
    }

    fn run_interest(&mut self, now_us: Option<u64>) {
        if !self.rep().interest.active() {
            return;
        }
        let limit = self.settings().limits.max_interest_per_peer;
        let rep = self.rep_mut();
        let peers: Vec<i32> = rep.peers.keys().copied().collect();
        let callback = matches!(
            rep.interest.rule.as_ref().map(|r| &r.kind),
            Some(Kind::Callback(_))
        );
        let all: Vec<NodeId> = if callback {
            rep.nodes.keys().copied().collect()
        } else {
            Vec::new()
        };
        let mut changes = rep.interest.update(&peers, &all, limit, now_us);
        // Node by node, so that a node entering several peers' interest is encoded once (as
        // the engine's `_update_spawn_visibility` makes one packet for all its peers). Each
        // peer's packets keep the node order either way.
        changes.sort_unstable_by_key(|&(peer, node)| (node, peer));
        for group in changes.chunk_by(|a, b| a.1 == b.1) {
            let Some(&(_, node)) = group.first() else {
                continue;
            };
            let peers: Vec<i32> = group.iter().map(|&(peer, _)| peer).collect();
            self.apply_interest_changes(node, &peers);
        }
    }

    /// `_visibility_changed` of one node for several peers: its spawn visibility (one SPAWN
    /// encoding for all the peers it enters), then each of its synchronizers' visibility.
    fn apply_interest_changes(&mut self, node: NodeId, peers: &[i32]) {
        let (mut spawn, mut despawn) = (Vec::new(), Vec::new());
        for &peer in peers {
            let Some(p) = self.rep().peers.get(&peer) else {
                continue;
            };
            let has = p.spawned.contains(&node);
            match (self.spawn_visible(node, peer), has) {
                (true, false) => spawn.push(peer),
                (false, true) => despawn.push(peer),
                _ => {}
            }
        }
        if self.rep().node(node).is_some() {
            // A node whose custom argument no longer encodes was refused at spawn.
            let _ = self.send_spawn(node, &spawn);
            self.send_despawn(node, &despawn);
        }
        let syncs: Vec<SyncId> = self.node_synchronizers(node).to_vec();
        for &peer in peers {
            for &sid in &syncs {
                self.update_sync_visibility(peer, sid);
            }
        }
    }

    /// `_visibility_changed` for one peer and node: spawn visibility, then the visibility of
    /// each of its synchronizers.
    fn apply_interest_change(&mut self, peer: i32, node: NodeId) {
        if !self.rep().peers.contains_key(&peer) {
            return;
        }
        let syncs: Vec<SyncId> = self.node_synchronizers(node).to_vec();
        // A node whose custom argument no longer encodes was refused at spawn.
        let _ = self.update_spawn_visibility(peer, node);
        for sid in syncs {
            self.update_sync_visibility(peer, sid);
        }
    }

    /// Whether interest lets `peer` see `node` (always without a rule, and on a client: the
    /// server decides who sees what).
    pub(crate) fn interest_allows(&self, peer: i32, node: NodeId) -> bool {
        let rep = self.rep();
        if !self.is_server() || !rep.interest.active() || rep.interest.gives(peer, node) {
            return true;
        }
        rep.nodes.get(&node).is_some_and(|n| {
            n.syncs
                .iter()
                .any(|s| rep.sync(*s).is_some_and(|s| s.decl.authority == peer))
        })
    }

    fn known_node(&self, node: NodeId) -> Result<(), ProtocolError> {
        if self.rep().nodes.contains_key(&node) {
            Ok(())
        } else {
            Err(ProtocolError::Replication(format!(
                "no spawned node {node:?}"
            )))
        }
    }

    fn interest_peer(&mut self, peer: i32) -> Option<&mut PeerInterest> {
        if !self.rep().peers.contains_key(&peer) {
            return None;
        }
        Some(self.rep_mut().interest.peers.entry(peer).or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[u64]) -> Vec<NodeId> {
        v.iter().map(|&i| NodeId(i)).collect()
    }

    #[test]
    fn diff_reports_each_side() {
        let mut got = Vec::new();
        diff(&ids(&[1, 3, 5]), &ids(&[2, 3, 6]), |n| got.push(n.0));
        got.sort_unstable();
        assert_eq!(got, [1, 2, 5, 6]);
    }

    #[test]
    fn radius_keeps_the_nearest_within_the_limit() {
        let mut i = Interest {
            rule: Some(InterestRule::radius_2d(10.0)),
            ..Interest::default()
        };
        for (n, x) in [(1, 9.0), (2, 1.0), (3, 5.0), (4, 10.5), (5, -3.0)] {
            i.set_node_position(NodeId(n), [x, 0.0, 0.0]);
        }
        let p = PeerInterest {
            pos: Some([0.0; 3]),
            ..PeerInterest::default()
        };
        // Within 10: 1 (9), 2 (1), 3 (5), 5 (3); 4 is at 10.5.
        assert_eq!(i.compute(2, &p, &[], 100, &mut 0), ids(&[1, 2, 3, 5]));
        // The nearest 2: node 2 (1) and node 5 (3).
        assert_eq!(i.compute(2, &p, &[], 2, &mut 0), ids(&[2, 5]));
        // NaN is nowhere.
        i.set_node_position(NodeId(2), [f32::NAN, 0.0, 0.0]);
        assert_eq!(i.compute(2, &p, &[], 100, &mut 0), ids(&[1, 3, 5]));
    }

    #[test]
    fn the_margin_keeps_what_is_seen_and_lets_nothing_new_in() {
        let mut i = Interest {
            rule: Some(InterestRule::radius_2d(10.0).with_margin(2.0)),
            ..Interest::default()
        };
        // Node 1 at 11 (in the margin), node 2 at 11.5 (in the margin), node 3 at 12.5.
        for (n, x) in [(1, 11.0), (2, 11.5), (3, 12.5)] {
            i.set_node_position(NodeId(n), [x, 0.0, 0.0]);
        }
        let mut p = PeerInterest {
            pos: Some([0.0; 3]),
            ..PeerInterest::default()
        };
        // Nothing within 10: nothing new comes in through the margin.
        assert_eq!(i.compute(2, &p, &[], 100, &mut 0), ids(&[]));
        // Seen before (1 and 3): 1 stays (11 <= 12), 3 goes (12.5 > 12).
        p.sees = ids(&[1, 3]);
        assert_eq!(i.compute(2, &p, &[], 100, &mut 0), ids(&[1]));
    }

    /// An update looks at the nodes near each peer, not at every node: 100 peers with 5
    /// nodes each around them look at the same number of nodes whether 1,000 or 10,000 more
    /// stand elsewhere.
    #[test]
    fn an_update_costs_what_is_near_not_what_exists() {
        let examined = |far: u64| {
            let mut i = Interest {
                rule: Some(InterestRule::radius_2d(10.0)),
                ..Interest::default()
            };
            let mut peers = Vec::new();
            for p in 0..100u64 {
                // Peers 100 apart on a line, each with 5 nodes within 4 of it.
                let x = p as f32 * 100.0;
                for k in 0..5 {
                    i.set_node_position(NodeId(p * 5 + k), [x + k as f32, 0.0, 0.0]);
                }
                let peer = p as i32 + 2;
                i.peers.insert(
                    peer,
                    PeerInterest {
                        pos: Some([x, 0.0, 0.0]),
                        ..PeerInterest::default()
                    },
                );
                peers.push(peer);
            }
            // The others, far from every peer (y = 1,000 and beyond).
            for n in 0..far {
                let pos = [(n % 100) as f32 * 100.0, 1000.0 + (n / 100) as f32, 0.0];
                i.set_node_position(NodeId(1_000_000 + n), pos);
            }
            let changes = i.update(&peers, &[], 1024, None);
            assert_eq!(changes.len(), 100 * 5);
            i.examined
        };
        let (small, large) = (examined(1_000), examined(10_000));
        // Each peer's 9 cells of side 10 hold its own 5 nodes only.
        assert_eq!((small, large), (500, 500));
    }

    /// A session with any rule (a callback included) still moves between threads and is
    /// shared by reference, as one world per thread needs.
    #[test]
    fn a_session_with_a_rule_is_send_and_sync() {
        fn check<T: Send + Sync>(_: &T) {}
        let mut s = Session::server(crate::Settings::default());
        s.set_interest(InterestRule::callback(|_, _| true));
        check(&s);
    }

    #[test]
    fn moving_across_cells_keeps_one_entry() {
        let mut i = Interest {
            rule: Some(InterestRule::radius_3d(4.0)),
            ..Interest::default()
        };
        for x in 0..100 {
            i.set_node_position(NodeId(1), [x as f32, 0.0, 0.0]);
        }
        assert_eq!(i.cells.len(), 1);
        assert_eq!(i.cells.values().map(Vec::len).sum::<usize>(), 1);
        i.forget_node(NodeId(1));
        assert!(i.cells.is_empty() && i.nodes.is_empty());
    }
}
