//! The profilers against live games: the performance monitors (a built-in one checked
//! against the value the game reads itself, and a Godot 4 custom monitor), and the network
//! profiler on a game that is an ENet server and its own client (127.0.0.1), calling a remote
//! function every frame: bandwidth, remote calls per node and (Godot 4) synchronizer
//! samples arrive typed.

use std::time::Duration;

use godot_serde_debugger::{Command, Connection, Event, Monitors, Profiler};
use godot_serde_test_support::engine::Engine;

use crate::game;

/// The server's node is `/root/Game` on the tree's own multiplayer (the one Godot 3.2's
/// profiler reads); the client's is `/root/client/Game` on a second multiplayer rooted at
/// `/root/client`, so both call the same path `Game`. The client calls `ping` on the server
/// every frame once connected; the game prints its node count and its ids once, and quits
/// with 5 when the debugger sets `done`.
fn main_script(engine: Engine, port: u16) -> String {
    // The dialects differ in the custom monitor (Godot 4 only), the multiplayer set-up, the
    // frame callback with its connection check, and the clock.
    let (monitor, network, ticks) = match engine {
        Engine::Godot4 => (
            "\tPerformance.add_custom_monitor(\"game/pings\", func(): return pings)\n",
            format!(
                "\tclient_mp = SceneMultiplayer.new()
\tset_multiplayer(client_mp, NodePath(\"/root/client\"))
\tvar sp = ENetMultiplayerPeer.new()
\tsp.set_bind_ip(\"127.0.0.1\")
\tsp.create_server({port})
\tget_multiplayer().multiplayer_peer = sp
\tvar cp = ENetMultiplayerPeer.new()
\tcp.create_client(\"127.0.0.1\", {port})
\tclient_mp.multiplayer_peer = cp
func _process(_delta):
\tif client_mp.multiplayer_peer.get_connection_status() == MultiplayerPeer.CONNECTION_CONNECTED:
"
            ),
            "Time.get_ticks_msec()",
        ),
        Engine::Godot3 => (
            "",
            format!(
                "\tclient_mp = MultiplayerAPI.new()
\tclient_mp.set_root_node(client_root)
\tclient_root.custom_multiplayer = client_mp
\tvar sp = NetworkedMultiplayerENet.new()
\tsp.set_bind_ip(\"127.0.0.1\")
\tsp.create_server({port})
\tnetwork_peer = sp
\tvar cp = NetworkedMultiplayerENet.new()
\tcp.create_client(\"127.0.0.1\", {port})
\tclient_mp.network_peer = cp
func _idle(_delta):
\tclient_mp.poll()
\tif client_mp.network_peer.get_connection_status() == NetworkedMultiplayerPeer.CONNECTION_CONNECTED:
"
            ),
            "OS.get_ticks_msec()",
        ),
    };
    format!(
        "extends SceneTree
var done = false
var pings = 0
var client_mp
var client_node
var said = false
func _initialize():
{monitor}\tvar server_node = load(\"res://game.gd\").new()
\tserver_node.name = \"Game\"
\troot.add_child(server_node)
\tvar client_root = Node.new()
\tclient_root.name = \"client\"
\troot.add_child(client_root)
\tclient_node = load(\"res://game.gd\").new()
\tclient_node.name = \"Game\"
\tclient_root.add_child(client_node)
{network}\t\tpings += 1
\t\tclient_node.rpc_id(1, \"ping\", pings)
\t\tif not said:
\t\t\tsaid = true
\t\t\tprint(\"nodes \", Performance.get_monitor(Performance.OBJECT_NODE_COUNT), \" ids \", get_instance_id())
\tif done:
\t\tquit(5)
\tif {ticks} > 40000:
\t\tquit(2)
\treturn false
"
    )
}

fn game_script(engine: Engine) -> &'static str {
    match engine {
        Engine::Godot4 => {
            "extends Node
var received = 0
@rpc(\"any_peer\")
func ping(_n):
\treceived += 1
"
        }
        Engine::Godot3 => {
            "extends Node
var received = 0
remote func ping(_n):
\treceived += 1
"
        }
    }
}

/// A UDP port free on 127.0.0.1 a moment ago.
fn free_udp_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn profile(which: Engine) {
    let Some(game::Launched { mut game, run, dir }) = game::launch(
        which,
        "debugger::live_profilers",
        "dbg_prof",
        &main_script(which, free_udp_port()),
        &[("game.gd", game_script(which))],
    ) else {
        return;
    };
    let timeout = Duration::from_secs(30);
    // Before the first frame: the profiler is on when the client connects.
    game.events_until(timeout, true, |_| true);
    game.send(Command::Profile {
        profiler: Profiler::Network,
        enable: true,
    })
    .unwrap();
    // A Godot 4 profiler by name: the servers profiler's frames arrive untyped.
    let servers = game.send(Command::Profile {
        profiler: Profiler::Named {
            name: "servers".into(),
            options: vec![],
        },
        enable: true,
    });
    assert_eq!(servers.is_ok(), which == Engine::Godot4);
    let seen = collect(&mut game, which, timeout);
    if which == Engine::Godot4 {
        assert!(
            seen.iter()
                .any(|e| matches!(e, Event::Other(m) if m.name == "servers:profile_frame")),
            "no servers:profile_frame"
        );
    }
    let said = seen
        .iter()
        .find_map(|e| match e {
            Event::Output(l) => l
                .iter()
                .find_map(|l| l.text.lines().find_map(|t| t.strip_prefix("nodes "))),
            _ => None,
        })
        .expect("the nodes line")
        .to_owned();
    let (nodes, main) = said.split_once(" ids ").unwrap();
    let nodes: f64 = nodes.parse().unwrap();
    let main: u64 = main.parse().unwrap();

    // Monitors: the node count the game read itself (root, Game, client, client/Game = 4 in
    // both), and on Godot 4 the custom monitor, counting pings.
    let monitors: Vec<&Monitors> = seen
        .iter()
        .filter_map(|e| match e {
            Event::Monitors(m) => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(nodes, 4.0);
    let last = monitors.last().expect("a monitors sample");
    assert_eq!(last.get("OBJECT_NODE_COUNT"), Some(nodes), "{last:?}");
    assert!(last.get("TIME_FPS").is_some_and(|fps| fps >= 0.0));
    if which == Engine::Godot4 {
        assert!(
            seen.contains(&Event::MonitorNames(vec!["game/pings".into()])),
            "{seen:?}"
        );
        assert_eq!(last.custom, ["game/pings"]);
        assert!(last.get("game/pings").is_some_and(|n| n >= 0.0), "{last:?}");
    }

    // Network: bandwidth, and pings counted on the nodes. Godot 4 profiles every
    // multiplayer of the game: both ways, both nodes. Godot 3.2.3 sends its samples every
    // 100 and 200 ms, but counts nothing for this game (the server's node receives every
    // ping, as its `received` shows; zero bandwidth and no node): the samples are checked
    // typed, their counts only on Godot 4.
    if which == Engine::Godot3 {
        assert!(seen.iter().any(|e| matches!(e, Event::Bandwidth(_))));
        assert!(seen.iter().any(|e| matches!(e, Event::RpcProfile(_))));
    } else {
        let rpcs: Vec<_> = seen
            .iter()
            .filter_map(|e| match e {
                Event::RpcProfile(nodes) => Some(nodes),
                _ => None,
            })
            .flatten()
            .collect();
        let server = rpcs
            .iter()
            .find(|n| n.path == "/root/Game" && n.incoming_rpc > 0);
        let client = rpcs
            .iter()
            .find(|n| n.path == "/root/client/Game" && n.outgoing_rpc > 0);
        assert!(
            server.is_some_and(|s| s.incoming_size.is_some_and(|s| s > 0)),
            "{rpcs:?}"
        );
        assert!(
            client.is_some_and(|c| c.outgoing_size.is_some_and(|s| s > 0)),
            "{rpcs:?}"
        );
        assert!(
            seen.iter()
                .any(|e| matches!(e, Event::Bandwidth(b) if b.incoming > 0 && b.outgoing > 0))
        );
        assert!(seen.iter().any(|e| matches!(e, Event::SyncProfile(_))));
    }

    game.send(Command::Profile {
        profiler: Profiler::Network,
        enable: false,
    })
    .unwrap();
    game::end_on_done(&mut game, main, true);
    let (out, killed) = run.join().unwrap();
    assert!(!killed);
    // Godot 4.6 often aborts in its exit ("corrupted size vs. prev_size", SIGABRT) once the
    // multiplayer profilers have run, but not always (heap corruption shows or not by run);
    // without them the same game exits with 5. Godot 3.2.3 exits cleanly with 5.
    let code = out.status.code();
    let accepted = match which {
        Engine::Godot4 => code.is_none() || code == Some(5),
        Engine::Godot3 => code == Some(5),
    };
    assert!(
        accepted,
        "exit {code:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Events until every kind the test looks for arrived, after the game said its node count:
/// a monitors sample, and on Godot 4 incoming bandwidth, the server's incoming and the
/// client's outgoing calls, a synchronizer sample and a servers profiler frame (on Godot 3.2,
/// a second of samples).
fn collect(game: &mut Connection, which: Engine, timeout: Duration) -> Vec<Event> {
    let mut said = false;
    let mut monitors = false;
    let mut bandwidth = false;
    let mut server = false;
    let mut client = which == Engine::Godot3;
    let mut samples3 = 0;
    let mut syncs = which == Engine::Godot3;
    let mut servers = which == Engine::Godot3;
    game.events_until(timeout, true, |e| {
        match e {
            Event::Output(l) => said |= l.iter().any(|l| l.text.contains("nodes ")),
            Event::Monitors(_) => monitors |= said,
            Event::Bandwidth(b) => bandwidth |= b.incoming > 0 || which == Engine::Godot3,
            Event::RpcProfile(nodes) => {
                server |= which == Engine::Godot3
                    || nodes
                        .iter()
                        .any(|n| n.path == "/root/Game" && n.incoming_rpc > 0);
                client |= nodes
                    .iter()
                    .any(|n| n.path == "/root/client/Game" && n.outgoing_rpc > 0);
            }
            Event::SyncProfile(_) => syncs = true,
            Event::Other(m) if m.name == "servers:profile_frame" => servers = true,
            _ => {}
        }
        if matches!(e, Event::RpcProfile(_)) {
            samples3 += 1;
        }
        let godot3_second = which == Engine::Godot4 || samples3 >= 10;
        said && monitors && bandwidth && server && client && syncs && servers && godot3_second
    })
}

#[test]
fn godot4_monitors_and_network_profiler() {
    profile(Engine::Godot4);
}

#[test]
fn godot3_monitors_and_network_profiler() {
    profile(Engine::Godot3);
}
