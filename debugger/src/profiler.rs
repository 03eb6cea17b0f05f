//! Profiler samples: the performance monitors (sent once a second while a game runs) and the
//! network profilers (sent while enabled), in both engines' layouts.

use crate::event::Items;
use crate::wire::Protocol;
use godot_serde::Variant;

/// Godot 4's built-in monitors in `Performance.Monitor` order, as far as it is the same from
/// 4.0 to 4.6 (later ones — navigation, pipeline compilations — changed between versions).
const MONITORS4: [&str; 24] = [
    "TIME_FPS",
    "TIME_PROCESS",
    "TIME_PHYSICS_PROCESS",
    "TIME_NAVIGATION_PROCESS",
    "MEMORY_STATIC",
    "MEMORY_STATIC_MAX",
    "MEMORY_MESSAGE_BUFFER_MAX",
    "OBJECT_COUNT",
    "OBJECT_RESOURCE_COUNT",
    "OBJECT_NODE_COUNT",
    "OBJECT_ORPHAN_NODE_COUNT",
    "RENDER_TOTAL_OBJECTS_IN_FRAME",
    "RENDER_TOTAL_PRIMITIVES_IN_FRAME",
    "RENDER_TOTAL_DRAW_CALLS_IN_FRAME",
    "RENDER_VIDEO_MEM_USED",
    "RENDER_TEXTURE_MEM_USED",
    "RENDER_BUFFER_MEM_USED",
    "PHYSICS_2D_ACTIVE_OBJECTS",
    "PHYSICS_2D_COLLISION_PAIRS",
    "PHYSICS_2D_ISLAND_COUNT",
    "PHYSICS_3D_ACTIVE_OBJECTS",
    "PHYSICS_3D_COLLISION_PAIRS",
    "PHYSICS_3D_ISLAND_COUNT",
    "AUDIO_OUTPUT_LATENCY",
];

/// Godot 3.2's first monitors in `Performance.Monitor` order (3.x has dynamic memory too).
const MONITORS3: [&str; 12] = [
    "TIME_FPS",
    "TIME_PROCESS",
    "TIME_PHYSICS_PROCESS",
    "MEMORY_STATIC",
    "MEMORY_DYNAMIC",
    "MEMORY_STATIC_MAX",
    "MEMORY_DYNAMIC_MAX",
    "MEMORY_MESSAGE_BUFFER_MAX",
    "OBJECT_COUNT",
    "OBJECT_RESOURCE_COUNT",
    "OBJECT_NODE_COUNT",
    "OBJECT_ORPHAN_NODE_COUNT",
];

/// One sample of the game's performance monitors (the editor's Monitors tab): Godot 4's
/// `performance:profile_frame`, Godot 3.2's `performance`, about once a second.
#[derive(Clone, Debug, PartialEq)]
pub struct Monitors {
    /// Every value in the engine's order: the built-in monitors, then Godot 4's custom
    /// monitors (`Performance.add_custom_monitor`). `None` where the engine sent no number (a
    /// custom monitor whose value is not one).
    pub values: Vec<Option<f64>>,
    /// The custom monitors' names, the last `custom.len()` of `values` (Godot 4's
    /// `performance:profile_names`, as last received).
    pub custom: Vec<String>,
    protocol: Protocol,
}

impl Monitors {
    /// A built-in monitor by its `Performance` constant name (`"TIME_FPS"`,
    /// `"OBJECT_NODE_COUNT"`, ...), or a custom monitor by its name (`"game/enemies"`).
    /// Named here: Godot 4's first 24 (to `AUDIO_OUTPUT_LATENCY`), Godot 3.2's first 12 (to
    /// `OBJECT_ORPHAN_NODE_COUNT`); [`values`](Self::values) has them all by index.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<f64> {
        let builtin = self.values.len().saturating_sub(self.custom.len());
        let names: &[&str] = match self.protocol {
            Protocol::Godot4 => &MONITORS4,
            Protocol::Godot3 => &MONITORS3,
        };
        let index = match names.iter().position(|n| *n == name) {
            Some(i) if i < builtin => i,
            _ => builtin + self.custom.iter().position(|n| n == name)?,
        };
        self.values.get(index).copied().flatten()
    }

    /// The named built-in monitors and the custom ones, with their values, in order.
    #[must_use]
    pub fn named(&self) -> Vec<(&str, Option<f64>)> {
        let builtin = self.values.len().saturating_sub(self.custom.len());
        let names: &[&str] = match self.protocol {
            Protocol::Godot4 => &MONITORS4,
            Protocol::Godot3 => &MONITORS3,
        };
        let known = names.iter().take(builtin).copied();
        let custom = self.custom.iter().map(String::as_str);
        let values = self
            .values
            .iter()
            .take(names.len().min(builtin))
            .chain(self.values.iter().skip(builtin));
        known.chain(custom).zip(values.copied()).collect()
    }
}

fn number(value: &Variant) -> Option<f64> {
    match value {
        Variant::Int(n) => Some(*n as f64),
        Variant::Float(f) => Some(*f),
        _ => None,
    }
}

/// Godot 4: the values themselves; Godot 3.2: one Array of them.
pub(crate) fn monitors(
    protocol: Protocol,
    data: Vec<Variant>,
    custom: &[String],
) -> Result<Monitors, String> {
    let values = match protocol {
        Protocol::Godot4 => data,
        Protocol::Godot3 => {
            let mut it = Items::new(data);
            let values = it.array()?;
            it.end()?;
            values
        }
    };
    let values: Vec<Option<f64>> = values.iter().map(number).collect();
    let custom = if custom.len() <= values.len() {
        custom.to_vec()
    } else {
        Vec::new()
    };
    Ok(Monitors {
        values,
        custom,
        protocol,
    })
}

/// Godot 4.6: `[names, types]`; before 4.6: the names alone.
pub(crate) fn monitor_names(data: Vec<Variant>) -> Result<Vec<String>, String> {
    let list: Vec<Variant> = match data.first() {
        Some(Variant::Array(_) | Variant::PackedStringArray(_)) => match data.into_iter().next() {
            Some(Variant::Array(a)) => a.items,
            Some(Variant::PackedStringArray(a)) => a.into_iter().map(Variant::from).collect(),
            _ => Vec::new(),
        },
        _ => data,
    };
    list.into_iter()
        .map(|n| {
            n.as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("a monitor name is a {:?}", n.variant_type()))
        })
        .collect()
}

/// The multiplayer bandwidth over the last second, in bytes (Godot 4's
/// `multiplayer:bandwidth`, Godot 3.2's `network_bandwidth`; every 200 ms while the network
/// profiler runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bandwidth {
    /// Bytes received.
    pub incoming: i64,
    /// Bytes sent.
    pub outgoing: i64,
}

pub(crate) fn bandwidth(data: Vec<Variant>) -> Result<Bandwidth, String> {
    let mut it = Items::new(data);
    let incoming = it.int()?;
    let outgoing = it.int()?;
    it.end()?;
    Ok(Bandwidth { incoming, outgoing })
}

/// One node's remote calls since the previous sample (Godot 4's `multiplayer:rpc`, Godot
/// 3.2's `network_profile`; every 100 ms while the network profiler runs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RpcNodeStats {
    /// The node's instance id.
    pub node: u64,
    /// The node's path, e.g. `/root/Game`.
    pub path: String,
    /// Remote calls received.
    pub incoming_rpc: i64,
    /// Remote calls sent.
    pub outgoing_rpc: i64,
    /// Bytes of the calls received (Godot 4).
    pub incoming_size: Option<i64>,
    /// Bytes of the calls sent (Godot 4).
    pub outgoing_size: Option<i64>,
    /// Remote property sets received (Godot 3.2's `rset`).
    pub incoming_rset: Option<i64>,
    /// Remote property sets sent (Godot 3.2).
    pub outgoing_rset: Option<i64>,
}

/// Godot 4: `[6n, (node, path, in_rpc, in_size, out_rpc, out_size) * n]`; Godot 3.2 (the
/// count is the message's item count): `(node, path, in_rpc, in_rset, out_rpc, out_rset) *
/// n`.
pub(crate) fn rpc_profile(
    protocol: Protocol,
    data: Vec<Variant>,
) -> Result<Vec<RpcNodeStats>, String> {
    let total = data.len();
    let mut it = Items::new(data);
    let size = match protocol {
        Protocol::Godot4 => it.count(total)?,
        Protocol::Godot3 => total,
    };
    if size % 6 != 0 {
        return Err(format!("{size} items are not a multiple of 6"));
    }
    let mut nodes = Vec::new();
    for _ in 0..size / 6 {
        let node = it.int()? as u64;
        let path = it.string()?;
        let (a, b, c, d) = (it.int()?, it.int()?, it.int()?, it.int()?);
        nodes.push(match protocol {
            Protocol::Godot4 => RpcNodeStats {
                node,
                path,
                incoming_rpc: a,
                incoming_size: Some(b),
                outgoing_rpc: c,
                outgoing_size: Some(d),
                incoming_rset: None,
                outgoing_rset: None,
            },
            Protocol::Godot3 => RpcNodeStats {
                node,
                path,
                incoming_rpc: a,
                incoming_rset: Some(b),
                outgoing_rpc: c,
                outgoing_rset: Some(d),
                incoming_size: None,
                outgoing_size: None,
            },
        });
    }
    it.end()?;
    Ok(nodes)
}

/// One `MultiplayerSynchronizer`'s traffic since the previous sample (Godot 4's
/// `multiplayer:syncs`; every 100 ms while the replication profiler runs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncStats {
    /// The synchronizer's instance id.
    pub synchronizer: u64,
    /// Its `SceneReplicationConfig`'s instance id (0 without one).
    pub config: u64,
    /// Its root node's instance id (0 without one).
    pub root_node: u64,
    /// Synchronizations received.
    pub incoming_syncs: i64,
    /// Their bytes.
    pub incoming_size: i64,
    /// Synchronizations sent.
    pub outgoing_syncs: i64,
    /// Their bytes.
    pub outgoing_size: i64,
}

/// `[7n, (synchronizer, config, root, in_syncs, in_size, out_syncs, out_size) * n]`.
pub(crate) fn sync_profile(data: Vec<Variant>) -> Result<Vec<SyncStats>, String> {
    let total = data.len();
    let mut it = Items::new(data);
    let size = it.count(total)?;
    if size % 7 != 0 {
        return Err(format!("{size} items are not a multiple of 7"));
    }
    let mut syncs = Vec::new();
    for _ in 0..size / 7 {
        syncs.push(SyncStats {
            synchronizer: it.int()? as u64,
            config: it.int()? as u64,
            root_node: it.int()? as u64,
            incoming_syncs: it.int()?,
            incoming_size: it.int()?,
            outgoing_syncs: it.int()?,
            outgoing_size: it.int()?,
        });
    }
    it.end()?;
    Ok(syncs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Variant {
        Variant::from(text)
    }

    /// multiplayer_debugger.cpp's RPCFrame::serialize: `[6n, (node, path, in_rpc, in_size,
    /// out_rpc, out_size) * n]`.
    #[test]
    fn godot4_rpc_frame() {
        let data = vec![
            Variant::Int(6),
            Variant::Int(77),
            s("/root/Game"),
            Variant::Int(3),
            Variant::Int(18),
            Variant::Int(0),
            Variant::Int(0),
        ];
        let nodes = rpc_profile(Protocol::Godot4, data).unwrap();
        assert_eq!(
            nodes,
            [RpcNodeStats {
                node: 77,
                path: "/root/Game".into(),
                incoming_rpc: 3,
                outgoing_rpc: 0,
                incoming_size: Some(18),
                outgoing_size: Some(0),
                incoming_rset: None,
                outgoing_rset: None,
            }]
        );
        assert_eq!(
            rpc_profile(Protocol::Godot4, vec![Variant::Int(0)]),
            Ok(vec![])
        );
    }

    #[test]
    fn misshapen_frames_are_errors() {
        // A count that is no multiple of 6, one larger than the items, a negative one.
        for count in [5, 12, -6] {
            let mut data = vec![Variant::Int(count)];
            data.extend([Variant::Int(1), s("/a")]);
            data.extend(std::iter::repeat_n(Variant::Int(0), 4));
            assert!(rpc_profile(Protocol::Godot4, data).is_err(), "{count}");
        }
        // Godot 3.2: the items themselves, 6 per node.
        assert!(rpc_profile(Protocol::Godot3, vec![Variant::Int(1)]).is_err());
        assert!(sync_profile(vec![Variant::Int(7)]).is_err());
        assert!(bandwidth(vec![Variant::Int(1)]).is_err());
        assert!(bandwidth(vec![Variant::Int(1), s("x")]).is_err());
        assert!(monitors(Protocol::Godot3, vec![Variant::Int(1)], &[]).is_err());
    }

    /// remote_debugger.cpp's PerformanceProfiler: the built-in monitors, then the custom
    /// ones; a custom monitor whose value is not a number is sent as null.
    #[test]
    fn monitors_by_name() {
        let mut data: Vec<Variant> = (0..24).map(|i| Variant::Float(f64::from(i))).collect();
        data.extend([Variant::Int(9), Variant::Nil]);
        let custom = ["game/a".to_owned(), "game/b".to_owned()];
        let m = monitors(Protocol::Godot4, data, &custom).unwrap();
        assert_eq!(m.get("TIME_FPS"), Some(0.0));
        assert_eq!(m.get("OBJECT_NODE_COUNT"), Some(9.0));
        assert_eq!(m.get("game/a"), Some(9.0));
        assert_eq!(m.get("game/b"), None);
        assert_eq!(m.get("nothing"), None);
        assert_eq!(m.named().len(), 26);
        // Godot 3.2: one Array of the values; OBJECT_NODE_COUNT is index 10 there.
        let values: Vec<Variant> = (0..12).map(|i| Variant::Float(f64::from(i))).collect();
        let m = monitors(Protocol::Godot3, vec![Variant::from(values)], &[]).unwrap();
        assert_eq!(m.get("OBJECT_NODE_COUNT"), Some(10.0));
        assert_eq!(m.get("MEMORY_DYNAMIC"), Some(4.0));
    }

    /// Godot 4.6 sends `[names, types]`; earlier 4.x the names alone.
    #[test]
    fn monitor_names_in_both_layouts() {
        let names = Variant::from(vec![s("game/a")]);
        let types = Variant::from(vec![Variant::Int(0)]);
        assert_eq!(
            monitor_names(vec![names, types]),
            Ok(vec!["game/a".to_owned()])
        );
        assert_eq!(
            monitor_names(vec![s("game/a")]),
            Ok(vec!["game/a".to_owned()])
        );
        assert!(monitor_names(vec![Variant::Int(1)]).is_err());
    }
}
