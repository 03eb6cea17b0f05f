//! A lobby server that stock Godot 4 clients join (`examples/lobby/`): players authenticate
//! with `name:password`, see who is here, chat, move, and leave. The lobby has a world: each
//! player is spawned in the clients' `World/Spawner` (a custom spawn with the player's name),
//! its position is a synchronized property the server sets from the player's `move` calls, and
//! it is despawned when the player leaves.
//!
//! Typed throughout: the lobby's RPC methods are one enum ([`LobbyRpc`], `#[derive(Rpcs)]`),
//! received calls are `match`ed as values of it and sent with `rpc_to`; a player's synchronized
//! state is one struct ([`PlayerState`], through `TypedSync`). The clients' scripts are
//! generated from these declarations (`--gdscript DIR` writes them; a test checks the
//! committed ones are current): `lobby.gd` (the node: typed `@rpc` functions, typed signals
//! and senders), `replication.gd` (the spawner's list and the player's
//! `SceneReplicationConfig`) and `player_sync.gd` (the player's synchronizer, which checks its
//! config against the declaration at `_ready`).
//!
//! ```sh
//! cargo run -p godot-serde-multiplayer --example lobby_server -- 127.0.0.1:7777
//! godot --headless --path multiplayer/examples/lobby -s res://client.gd -- 127.0.0.1 7777 alice
//! ```
//! A second argument `SECONDS` stops the server after that long. `--gdscript DIR` writes the
//! generated scripts (`lobby.gd`, `replication.gd`, `player_sync.gd`) into `DIR` and exits.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use godot_serde::{Variant, Vector2};
use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::gdscript::Stubs;
use godot_serde_multiplayer::replication::gdscript;
use godot_serde_multiplayer::replication::typed::TypedSync;
use godot_serde_multiplayer::typed::RpcSet;
use godot_serde_multiplayer::{
    Event, NodeId, ProtocolError, ReplicationMode, Rpcs, Settings, SpawnScene, Spawner,
};
use serde::{Deserialize, Serialize};

const PASSWORD: &str = "lobby";

/// The RPC methods of the lobby node `/root/Lobby`, on both sides: the server declares
/// `LobbyRpc::table()`, the clients load `examples/lobby/lobby.gd` generated from it
/// ([`lobby_script`]), so names, ids, modes and the checksum match by construction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Rpcs)]
#[serde(rename_all = "snake_case")]
#[rpcs(node = "/root/Lobby")]
pub enum LobbyRpc {
    /// A player says something (to the server).
    #[rpc(any_peer)]
    Chat {
        /// The line, at most [`MAX_CHAT`] bytes.
        text: String,
    },
    /// A player moves (to the server).
    #[rpc(any_peer, unreliable_ordered)]
    Move {
        /// Where to.
        position: Vector2,
    },
    /// A player is in the lobby (from the server).
    Joined {
        /// Its peer id.
        id: i32,
        /// Its name.
        player: String,
    },
    /// A player left (from the server).
    Left {
        /// Its peer id.
        id: i32,
    },
    /// A player said something (from the server, to everyone).
    Said {
        /// The player's peer id.
        id: i32,
        /// The line.
        text: String,
    },
    /// A player moved (from the server, to the others).
    #[rpc(unreliable_ordered)]
    Moved {
        /// The player's peer id.
        id: i32,
        /// Where to.
        position: Vector2,
    },
}

/// A player's synchronized state: the properties of its `Sync` synchronizer, in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    /// `Node2D.position`.
    pub position: Vector2,
}

/// The world's spawner: players spawn under `World/Players`.
pub fn spawner() -> Spawner {
    Spawner::new("World/Spawner", "World/Players")
}

/// The player's synchronizer `Sync` with its state [`PlayerState`] (its position, in every
/// SYNC and in the spawn state): the one declaration the server and the scripts use.
///
/// # Errors
///
/// None for [`PlayerState`] (a struct with named fields).
pub fn player_sync() -> Result<TypedSync<PlayerState>, ProtocolError> {
    TypedSync::new("Sync", ReplicationMode::Always)
}

/// The lobby node's script (`examples/lobby/lobby.gd`), generated from [`LobbyRpc`].
///
/// # Errors
///
/// None for [`LobbyRpc`] (every name is a GDScript identifier).
pub fn lobby_script() -> Result<String, ProtocolError> {
    Stubs::new().typed4::<LobbyRpc>()
}

/// The replication script (`examples/lobby/replication.gd`): the spawner's list and the
/// player's `SceneReplicationConfig`, with its `check_player`.
///
/// # Errors
///
/// As [`player_sync`].
pub fn replication_script() -> Result<String, ProtocolError> {
    Ok(gdscript::script(
        &[("world", &spawner())],
        &[("player", player_sync()?.synchronizer())],
    ))
}

/// Every generated script of the project, by file name: [`lobby_script`],
/// [`replication_script`], and `player_sync.gd`, the player's synchronizer, which checks its
/// config against the declaration at `_ready` (`check_player`).
///
/// # Errors
///
/// As [`lobby_script`] and [`replication_script`].
pub fn scripts() -> Result<Vec<(&'static str, String)>, ProtocolError> {
    Ok(vec![
        ("lobby.gd", lobby_script()?),
        ("replication.gd", replication_script()?),
        (
            "player_sync.gd",
            gdscript::checked_synchronizer_script("player", "res://replication.gd"),
        ),
    ])
}

/// The longest player name the lobby takes (bytes), so that what one player makes the server
/// hold and send to everyone stays small.
pub const MAX_NAME: usize = 32;
/// The longest chat line the lobby relays (bytes).
pub const MAX_CHAT: usize = 500;

/// Runs the lobby on `server` while `running()` says so, reporting each line to `log`.
///
/// What a player sends never ends the loop: a refused packet, a call that is not one of
/// [`LobbyRpc`]'s or whose arguments do not fit (`session.call_of`), a call under another RPC
/// checksum (its node script differs from ours: refused, never dispatched by id), auth data
/// sent twice or after joining, a player who leaves while its events are queued: each is that
/// player's `Event::Error` (logged as `peer N: ...`) or is ignored. The lobby holds a name (at
/// most [`MAX_NAME`] bytes) per authenticating or joined peer, at most 32 of them (the server's
/// client limit).
///
/// # Errors
///
/// Ours only: the socket failed, or a call of ours names an undeclared node, method or
/// spawner.
pub fn serve(
    mut server: EnetPeer,
    mut running: impl FnMut() -> bool,
    mut log: impl FnMut(String),
) -> Result<(), Box<dyn std::error::Error>> {
    let player = player_sync()?;
    server.session().declare(LobbyRpc::table());
    server.session().declare_spawner(spawner());
    // The names of the authenticated peers not yet admitted, and the players in the lobby with
    // their spawned node.
    let mut pending: BTreeMap<i32, String> = BTreeMap::new();
    let mut players: BTreeMap<i32, (String, NodeId)> = BTreeMap::new();
    let start = Instant::now();
    let mut next_frame = Duration::ZERO;
    while running() {
        server.service()?;
        while let Some(event) = server.poll_event() {
            let session = server.session();
            match event {
                // Auth data again after we accepted the first: nothing to do.
                Event::AuthData { peer, .. } if pending.contains_key(&peer) => {}
                Event::AuthData { peer, data } => {
                    let text = String::from_utf8_lossy(&data);
                    match text.split_once(':') {
                        Some((name, PASSWORD)) if !name.is_empty() && name.len() <= MAX_NAME => {
                            // `false`: the peer left, or was refused, since it sent this.
                            if session.complete_auth(peer) {
                                pending.insert(peer, name.to_owned());
                            }
                        }
                        _ => {
                            log(format!("refused peer {peer}"));
                            session.disconnect_peer(peer);
                        }
                    }
                }
                Event::AuthenticationFailed(peer) => {
                    pending.remove(&peer);
                }
                Event::PeerConnected(peer) => {
                    let name = pending.remove(&peer).unwrap_or_default();
                    log(format!("{name} ({peer}) joined"));
                    for (&id, (other, _)) in &players {
                        let player = other.clone();
                        session.rpc_to(peer, &LobbyRpc::Joined { id, player })?;
                    }
                    let joined = LobbyRpc::Joined {
                        id: peer,
                        player: name.clone(),
                    };
                    session.rpc_to(0, &joined)?;
                    // The player's node, named by its peer id, spawned on everyone (and on
                    // those who join later) with its name as the custom spawn's data.
                    let state = player.values(&PlayerState::default())?;
                    let node = session.spawn(
                        "World/Spawner",
                        SpawnScene::Custom(Variant::from(name.as_str())),
                        &peer.to_string(),
                        vec![(player.synchronizer().clone(), state)],
                    )?;
                    players.insert(peer, (name, node));
                }
                Event::PeerDisconnected(peer) => {
                    if let Some((name, node)) = players.remove(&peer) {
                        log(format!("{name} ({peer}) left"));
                        session.despawn(node)?;
                        session.rpc_to(0, &LobbyRpc::Left { id: peer })?;
                    }
                }
                // A call that is not one of LobbyRpc's, or whose arguments do not fit, is
                // `None` here and the caller's `Event::Error`, logged below.
                Event::Rpc(call) => match session.call_of::<LobbyRpc>(&call) {
                    Some(LobbyRpc::Chat { text }) => {
                        if text.len() > MAX_CHAT {
                            log(format!(
                                "peer {}: chat of {} bytes dropped",
                                call.from,
                                text.len()
                            ));
                            continue;
                        }
                        let name = players.get(&call.from).map_or("?", |p| p.0.as_str());
                        log(format!("{name}: {text}"));
                        session.rpc_to(
                            0,
                            &LobbyRpc::Said {
                                id: call.from,
                                text,
                            },
                        )?;
                    }
                    Some(LobbyRpc::Move { position }) => {
                        let moved = LobbyRpc::Moved {
                            id: call.from,
                            position,
                        };
                        session.rpc_to(-call.from, &moved)?;
                        // The world: the player's synchronized position follows its moves.
                        if let Some(&(_, node)) = players.get(&call.from) {
                            if let Some(&sync) = session.node_synchronizers(node).first() {
                                player.set(session, sync, &PlayerState { position })?;
                            }
                        }
                    }
                    // The server's own methods: the session refuses them from a client
                    // (authority only), so they never arrive here.
                    Some(
                        LobbyRpc::Joined { .. }
                        | LobbyRpc::Left { .. }
                        | LobbyRpc::Said { .. }
                        | LobbyRpc::Moved { .. },
                    )
                    | None => {}
                },
                Event::Error { peer, error } => log(format!("peer {peer}: {error}")),
                _ => {}
            }
        }
        // 30 network frames a second, as a Godot server's default physics rate.
        if start.elapsed() >= next_frame {
            server.session().handle_timeout(std::time::Instant::now());
            next_frame += Duration::from_micros(33_333);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    server.close();
    Ok(())
}

#[allow(dead_code)] // The live test includes this file for `serve`.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().is_some_and(|a| a == "--gdscript") {
        let dir = std::path::PathBuf::from(args.nth(1).unwrap_or_else(|| ".".into()));
        for (name, text) in scripts()? {
            std::fs::write(dir.join(name), text)?;
            println!("wrote {}", dir.join(name).display());
        }
        return Ok(());
    }
    let addr = args
        .next()
        .unwrap_or_else(|| "127.0.0.1:7777".into())
        .parse()?;
    let stop_after = args
        .next()
        .map(|s| s.parse::<u64>())
        .transpose()?
        .map(Duration::from_secs);
    let server = EnetPeer::server(addr, 32, Settings::default().with_auth(true))?;
    println!("lobby on {}", server.local_addr()?);
    let start = Instant::now();
    serve(
        server,
        || stop_after.is_none_or(|d| start.elapsed() < d),
        |line| println!("{line}"),
    )
}
