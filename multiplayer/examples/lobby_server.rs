//! A lobby server that stock Godot 4 clients join (`examples/lobby/`): players authenticate
//! with `name:password`, see who is here, chat, move, and leave. The lobby has a world: each
//! player is spawned in the clients' `World/Spawner` (a custom spawn with the player's name),
//! its position is a synchronized property the server sets from the player's `move` calls, and
//! it is despawned when the player leaves.
//!
//! ```sh
//! cargo run -p godot-serde-multiplayer --example lobby_server -- 127.0.0.1:7777
//! godot --headless --path multiplayer/examples/lobby -s res://client.gd -- 127.0.0.1 7777 alice
//! ```
//! A second argument `SECONDS` stops the server after that long. `--gdscript` prints the
//! replication script of the world (`examples/lobby/replication.gd`) and exits.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use godot_serde::{Variant, Vector2};
use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::replication::gdscript;
use godot_serde_multiplayer::{
    Event, NodeId, ReplicationConfig, ReplicationMode, RpcMethod, RpcTable, Settings, SpawnScene,
    Spawner, Synchronizer, TransferMode,
};
use serde::{Deserialize, Serialize};

const PASSWORD: &str = "lobby";

/// The GDScript node `examples/lobby/lobby.gd`, declared on the Rust side.
pub fn lobby() -> RpcTable {
    RpcTable::new("/root/Lobby")
        .with(RpcMethod::any_peer("chat"))
        .with(RpcMethod::any_peer("move").transfer(TransferMode::UnreliableOrdered))
        .with(RpcMethod::authority("joined"))
        .with(RpcMethod::authority("left"))
        .with(RpcMethod::authority("said"))
        .with(RpcMethod::authority("moved").transfer(TransferMode::UnreliableOrdered))
}

/// A player's synchronized state: the properties of its `Sync` synchronizer, in order.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PlayerState {
    /// `Node2D.position`.
    pub position: Vector2,
}

/// The world's spawner: players spawn under `World/Players`.
pub fn spawner() -> Spawner {
    Spawner::new("World/Spawner", "World/Players")
}

/// The player's synchronizer (its position, in every SYNC and in the spawn state).
pub fn player_sync() -> Synchronizer {
    let config = ReplicationConfig::for_struct::<PlayerState>(ReplicationMode::Always)
        .expect("PlayerState is a struct");
    Synchronizer::new("Sync", config)
}

/// The GDScript the lobby project loads (`examples/lobby/replication.gd`).
pub fn replication_script() -> String {
    gdscript::script(&[("world", &spawner())], &[("player", &player_sync())])
}

/// The longest player name the lobby takes (bytes), so that what one player makes the server
/// hold and send to everyone stays small.
pub const MAX_NAME: usize = 32;
/// The longest chat line the lobby relays (bytes).
pub const MAX_CHAT: usize = 500;

/// Runs the lobby on `server` while `running()` says so, reporting each line to `log`.
///
/// What a player sends never ends the loop: a refused packet, a call whose arguments do not fit
/// (`session.args_of`), auth data sent twice or after joining, a player who leaves while its
/// events are queued: each is that player's `Event::Error` (logged as `peer N: ...`) or is
/// ignored. The lobby holds a name (at most [`MAX_NAME`] bytes) per authenticating or joined
/// peer, at most 32 of them (the server's client limit).
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
    server.session().declare(lobby());
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
                        session.rpc(peer, "Lobby", "joined", &(id, other))?;
                    }
                    session.rpc(0, "Lobby", "joined", &(peer, &name))?;
                    // The player's node, named by its peer id, spawned on everyone (and on
                    // those who join later) with its name as the custom spawn's data.
                    let state = PlayerState::default();
                    let node = session.spawn(
                        "World/Spawner",
                        SpawnScene::Custom(Variant::from(name.as_str())),
                        &peer.to_string(),
                        vec![(
                            player_sync(),
                            godot_serde_multiplayer::args::to_arguments(&state)?,
                        )],
                    )?;
                    players.insert(peer, (name, node));
                }
                Event::PeerDisconnected(peer) => {
                    if let Some((name, node)) = players.remove(&peer) {
                        log(format!("{name} ({peer}) left"));
                        session.despawn(node)?;
                        session.rpc(0, "Lobby", "left", &(peer,))?;
                    }
                }
                Event::Rpc(call) if call.method == "chat" => {
                    // A call that does not fit is the caller's `Event::Error`, logged below.
                    let Some((text,)) = session.args_of::<(String,)>(&call) else {
                        continue;
                    };
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
                    session.rpc(0, "Lobby", "said", &(call.from, text))?;
                }
                Event::Rpc(call) if call.method == "move" => {
                    let Some((position,)) = session.args_of::<(Vector2,)>(&call) else {
                        continue;
                    };
                    session.rpc(-call.from, "Lobby", "moved", &(call.from, position))?;
                    // The world: the player's synchronized position follows its moves.
                    if let Some(&(_, node)) = players.get(&call.from) {
                        if let Some(&sync) = session.node_synchronizers(node).first() {
                            session.set_state_as(sync, &PlayerState { position })?;
                        }
                    }
                }
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
        print!("{}", replication_script());
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
