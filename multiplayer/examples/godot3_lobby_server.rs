//! A lobby server that stock Godot 3.2.3 clients join (`examples/lobby_godot3/`): players
//! register a name, see who is here, chat, move, and leave. The clients' `lobby.gd` is generated
//! from [`lobby`] by `gdscript::Stubs` (`tests/suite/lobby_godot3.rs` checks that it is current).
//!
//! ```sh
//! cargo run -p godot-serde-multiplayer --example godot3_lobby_server -- 127.0.0.1:7777
//! godot3-server --no-window --path multiplayer/examples/lobby_godot3 -s res://client.gd -- 127.0.0.1 7777 alice
//! ```
//! A second argument `SECONDS` stops the server after that long.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use godot_serde::Vector2;
use godot_serde_multiplayer::Event;
use godot_serde_multiplayer::Limits;
use godot_serde_multiplayer::gdscript::{Signature, Stubs};
use godot_serde_multiplayer::godot3::enet::Enet3Peer;
use godot_serde_multiplayer::godot3::{NodeTable, RemoteMode};
use serde::{Deserialize, Serialize};

/// The Lobby node, on both sides.
pub fn lobby() -> NodeTable {
    NodeTable::new("/root/Lobby")
        .method("register", RemoteMode::Remote)
        .method("chat", RemoteMode::Remote)
        .method("move", RemoteMode::Remote)
        .method("joined", RemoteMode::Puppet)
        .method("left", RemoteMode::Puppet)
        .method("said", RemoteMode::Puppet)
        .method("moved", RemoteMode::Puppet)
        .property("motd", RemoteMode::Puppet)
}

/// The GDScript of the Lobby node (`examples/lobby_godot3/lobby.gd`).
pub fn lobby_script() -> String {
    let sig = |s: Result<Signature, _>| s.unwrap_or_default();
    Stubs::new()
        .signature("register", sig(Signature::of(&Register::default())))
        .signature("chat", sig(Signature::of(&Chat::default())))
        .signature("move", sig(Signature::of(&Move::default())))
        .signature("joined", Signature::named(&["id", "player"]))
        .signature("left", Signature::named(&["id"]))
        .signature("said", Signature::named(&["id", "text"]))
        .signature("moved", Signature::named(&["id", "position"]))
        .property_type("motd", "")
        .and_then(|s| s.godot3(&lobby()))
        .unwrap_or_else(|e| format!("# {e}\n"))
}

/// `register(player)`: the arguments, typed.
#[derive(Serialize, Deserialize, Default)]
pub struct Register {
    /// The player's name.
    pub player: String,
}

/// `chat(text)`.
#[derive(Serialize, Deserialize, Default)]
pub struct Chat {
    /// The message.
    pub text: String,
}

/// `move(position)`.
#[derive(Serialize, Deserialize, Default)]
pub struct Move {
    /// Where to.
    pub position: Vector2,
}

/// The longest player name the lobby takes (bytes), so that what one player makes the server
/// hold and send to everyone stays small.
pub const MAX_NAME: usize = 32;
/// The longest chat line the lobby relays (bytes).
pub const MAX_CHAT: usize = 500;

/// Runs the lobby on `addr` until `stop_after` (forever with `None`); `log` gets one line per
/// event.
///
/// What a player sends never ends the loop: a refused packet, a call whose arguments do not fit
/// (`session.args_of`), a name or chat line over [`MAX_NAME`] or [`MAX_CHAT`] bytes, a player
/// who leaves while its events are queued: each is logged as `peer N: ...` and the lobby goes
/// on. It holds one name per connected peer, at most 32 of them (the server's client limit).
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
    server.session().declare(lobby());
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
                        session.rpc(0, "Lobby", "left", &(peer,))?;
                    }
                }
                Event::Rpc(call) => match call.method.as_str() {
                    "register" => {
                        // A call that does not fit is the caller's `Event::Error`, logged below.
                        let Some(Register { player: name }) = session.args_of(&call) else {
                            continue;
                        };
                        if name.len() > MAX_NAME {
                            log(format!(
                                "peer {}: name of {} bytes refused",
                                call.from,
                                name.len()
                            ));
                            continue;
                        }
                        log(format!("{name} ({}) joined", call.from));
                        session.rset(call.from, "Lobby", "motd", &format!("welcome, {name}"))?;
                        for (&id, other) in &players {
                            session.rpc(call.from, "Lobby", "joined", &(id, other))?;
                        }
                        players.insert(call.from, name.clone());
                        session.rpc(0, "Lobby", "joined", &(call.from, name))?;
                    }
                    "chat" => {
                        let Some(Chat { text }) = session.args_of(&call) else {
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
                        let name = players.get(&call.from).map_or("?", String::as_str);
                        log(format!("{name}: {text}"));
                        session.rpc(0, "Lobby", "said", &(call.from, text))?;
                    }
                    "move" => {
                        let Some(Move { position: pos }) = session.args_of(&call) else {
                            continue;
                        };
                        log(format!("{} moved to {} {}", call.from, pos.x, pos.y));
                        session.rpc_unreliable(-call.from, "Lobby", "moved", &(call.from, pos))?;
                    }
                    _ => {}
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
        print!("{}", lobby_script());
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
