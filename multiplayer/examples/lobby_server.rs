//! A lobby server that stock Godot 4 clients join (`examples/lobby/`): players authenticate
//! with `name:password`, see who is here, chat, move, and leave.
//!
//! ```sh
//! cargo run -p godot-serde-multiplayer --example lobby_server -- 127.0.0.1:7777
//! godot --headless --path multiplayer/examples/lobby -s res://client.gd -- 127.0.0.1 7777 alice
//! ```
//! A second argument `SECONDS` stops the server after that long.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use godot_serde::Vector2;
use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::{Event, RpcMethod, RpcTable, Settings, TransferMode};

const PASSWORD: &str = "lobby";

/// The GDScript node `examples/lobby/lobby.gd`, declared on the Rust side.
fn lobby() -> RpcTable {
    RpcTable::new("/root/Lobby")
        .with(RpcMethod::any_peer("chat"))
        .with(RpcMethod::any_peer("move").transfer(TransferMode::UnreliableOrdered))
        .with(RpcMethod::authority("joined"))
        .with(RpcMethod::authority("left"))
        .with(RpcMethod::authority("said"))
        .with(RpcMethod::authority("moved").transfer(TransferMode::UnreliableOrdered))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
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
    let settings = Settings::default().with_auth(true);
    let mut server = EnetPeer::server(addr, 32, settings)?;
    server.session().declare(lobby());
    println!("lobby on {}", server.local_addr()?);
    // Authenticated names, and the names of the players in the lobby.
    let mut pending: BTreeMap<i32, String> = BTreeMap::new();
    let mut players: BTreeMap<i32, String> = BTreeMap::new();
    let start = Instant::now();
    while stop_after.is_none_or(|d| start.elapsed() < d) {
        server.service()?;
        while let Some(event) = server.poll_event() {
            let session = server.session();
            match event {
                Event::AuthData { peer, data } => {
                    let text = String::from_utf8_lossy(&data).into_owned();
                    match text.split_once(':') {
                        Some((name, PASSWORD)) if !name.is_empty() => {
                            pending.insert(peer, name.to_owned());
                            session.complete_auth(peer)?;
                        }
                        _ => {
                            println!("refused peer {peer}");
                            session.disconnect_peer(peer);
                        }
                    }
                }
                Event::PeerConnected(peer) => {
                    let name = pending.remove(&peer).unwrap_or_default();
                    println!("{name} ({peer}) joined");
                    for (&id, other) in &players {
                        session.rpc(peer, "Lobby", "joined", &(id, other))?;
                    }
                    players.insert(peer, name.clone());
                    session.rpc(0, "Lobby", "joined", &(peer, name))?;
                }
                Event::PeerDisconnected(peer) => {
                    if let Some(name) = players.remove(&peer) {
                        println!("{name} ({peer}) left");
                        session.rpc(0, "Lobby", "left", &(peer,))?;
                    }
                }
                Event::Rpc(call) if call.method == "chat" => {
                    let (text,): (String,) = call.args_as()?;
                    println!(
                        "{}: {text}",
                        players.get(&call.from).map_or("?", String::as_str)
                    );
                    session.rpc(0, "Lobby", "said", &(call.from, text))?;
                }
                Event::Rpc(call) if call.method == "move" => {
                    let (pos,): (Vector2,) = call.args_as()?;
                    session.rpc(-call.from, "Lobby", "moved", &(call.from, pos))?;
                }
                Event::Error { peer, error } => println!("peer {peer}: {error}"),
                _ => {}
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    server.close();
    Ok(())
}
