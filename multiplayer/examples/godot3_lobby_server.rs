//! A lobby server that stock Godot 3.2.3 clients join (`examples/lobby_godot3/`): players
//! register a name, get a welcome, see who is here, chat, move, and leave.
//!
//! Typed throughout: the lobby's RPC methods are one enum ([`LobbyRpc`], `#[derive(Rpcs)]`;
//! the server declares its `node_table()`), received calls are `match`ed as values of it
//! (`call_of`) and sent with `rpc_to`. The clients' `lobby.gd` is generated from the enum by
//! `Stubs::typed3` (typed `remote`/`puppet` functions, a signal per method, typed senders;
//! `tests/suite/lobby_godot3.rs` checks that the committed copy is current).
//!
//! ```sh
//! cargo run -p godot-serde-multiplayer --example godot3_lobby_server -- 127.0.0.1:7777
//! godot3-server --no-window --path multiplayer/examples/lobby_godot3 -s res://client.gd -- 127.0.0.1 7777 alice
//! ```
//! A second argument `SECONDS` stops the server after that long; `--print-script` prints
//! `lobby.gd` and exits.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use godot_serde::Vector2;
use godot_serde_multiplayer::gdscript::Stubs;
use godot_serde_multiplayer::godot3::enet::Enet3Peer;
use godot_serde_multiplayer::typed::RpcSet;
use godot_serde_multiplayer::{Event, Limits, ProtocolError, Rpcs};
use serde::{Deserialize, Serialize};

/// The RPC methods of the lobby node `/root/Lobby`, on both sides: the server declares
/// `LobbyRpc::node_table()` (`any_peer` methods are `remote`, the server's own `puppet`), the
/// clients load `examples/lobby_godot3/lobby.gd` generated from it ([`lobby_script`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Rpcs)]
#[serde(rename_all = "snake_case")]
#[rpcs(node = "/root/Lobby")]
pub enum LobbyRpc {
    /// A player gives its name, at most [`MAX_NAME`] bytes (to the server).
    #[rpc(any_peer)]
    Register {
        /// The name.
        player: String,
    },
    /// A player says something, at most [`MAX_CHAT`] bytes (to the server).
    #[rpc(any_peer)]
    Chat {
        /// The line.
        text: String,
    },
    /// A player moves (to the server).
    #[rpc(any_peer, unreliable)]
    Move {
        /// Where to.
        position: Vector2,
    },
    /// The server's welcome to a player who registered.
    Welcome {
        /// The message of the day.
        motd: String,
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
    #[rpc(unreliable)]
    Moved {
        /// The player's peer id.
        id: i32,
        /// Where to.
        position: Vector2,
    },
}

/// The GDScript of the Lobby node (`examples/lobby_godot3/lobby.gd`), generated from
/// [`LobbyRpc`].
///
/// # Errors
///
/// None for [`LobbyRpc`] (every name and type has a Godot 3 form).
pub fn lobby_script() -> Result<String, ProtocolError> {
    Stubs::new().typed3::<LobbyRpc>()
}

/// The longest player name the lobby takes (bytes), so that what one player makes the server
/// hold and send to everyone stays small.
pub const MAX_NAME: usize = 32;
/// The longest chat line the lobby relays (bytes).
pub const MAX_CHAT: usize = 500;

/// Runs the lobby on `addr` until `stop_after` (forever with `None`); `log` gets one line per
/// event.
///
/// What a player sends never ends the loop: a refused packet, a call that is not one of
/// [`LobbyRpc`]'s or whose arguments do not fit (`session.call_of`), a name or chat line over
/// [`MAX_NAME`] or [`MAX_CHAT`] bytes, a player who leaves while its events are queued: each
/// is logged as `peer N: ...` and the lobby goes on. It holds one name per connected peer, at
/// most 32 of them (the server's client limit).
///
/// # Errors
///
/// Ours only: the socket could not be bound or failed, or a call of ours names an undeclared
/// node or member.
pub fn run(
    addr: SocketAddr,
    stop_after: Option<Duration>,
    log: &mut dyn FnMut(String),
) -> Result<(), Box<dyn std::error::Error>> {
    let mut server = Enet3Peer::server(addr, 32, Limits::default())?;
    server.session().declare(LobbyRpc::node_table());
    log(format!("lobby on {}", server.local_addr()?));
    let mut players: BTreeMap<i32, String> = BTreeMap::new();
    let start = Instant::now();
    while stop_after.is_none_or(|d| start.elapsed() < d) {
        server.service()?;
        while let Some(event) = server.poll_event() {
            let session = server.session();
            match event {
                Event::PeerDisconnected(peer) => {
                    if let Some(name) = players.remove(&peer) {
                        log(format!("{name} ({peer}) left"));
                        session.rpc_to(0, &LobbyRpc::Left { id: peer })?;
                    }
                }
                // A call that is not one of LobbyRpc's, or whose arguments do not fit, is
                // `None` here and the caller's `Event::Error`, logged below.
                Event::Rpc(call) => match session.call_of::<LobbyRpc>(&call) {
                    Some(LobbyRpc::Register { player: name }) => {
                        if name.len() > MAX_NAME {
                            log(format!(
                                "peer {}: name of {} bytes refused",
                                call.from,
                                name.len()
                            ));
                            continue;
                        }
                        log(format!("{name} ({}) joined", call.from));
                        let motd = format!("welcome, {name}");
                        session.rpc_to(call.from, &LobbyRpc::Welcome { motd })?;
                        for (&id, other) in &players {
                            let player = other.clone();
                            session.rpc_to(call.from, &LobbyRpc::Joined { id, player })?;
                        }
                        players.insert(call.from, name.clone());
                        let joined = LobbyRpc::Joined {
                            id: call.from,
                            player: name,
                        };
                        session.rpc_to(0, &joined)?;
                    }
                    Some(LobbyRpc::Chat { text }) => {
                        if text.len() > MAX_CHAT {
                            log(format!(
                                "peer {}: chat of {} bytes dropped",
                                call.from,
                                text.len()
                            ));
                            continue;
                        }
                        let name = players.get(&call.from).map_or("?", String::as_str);
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
                        log(format!(
                            "{} moved to {} {}",
                            call.from, position.x, position.y
                        ));
                        let moved = LobbyRpc::Moved {
                            id: call.from,
                            position,
                        };
                        session.rpc_to(-call.from, &moved)?;
                    }
                    // The server's own methods (puppet): the session refuses them from a
                    // client, so they never arrive here.
                    Some(
                        LobbyRpc::Welcome { .. }
                        | LobbyRpc::Joined { .. }
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
        std::thread::sleep(Duration::from_millis(1));
    }
    server.close();
    Ok(())
}

#[allow(dead_code)] // the tests include this file for `run` and `lobby_script`
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() == Some("--print-script") {
        print!("{}", lobby_script()?);
        return Ok(());
    }
    let mut args = std::env::args().skip(1);
    let addr = args
        .next()
        .unwrap_or_else(|| "127.0.0.1:7777".into())
        .parse()?;
    let stop_after = args
        .next()
        .map(|s| s.parse::<u64>())
        .transpose()?
        .map(Duration::from_secs);
    run(addr, stop_after, &mut |line| println!("{line}"))
}
