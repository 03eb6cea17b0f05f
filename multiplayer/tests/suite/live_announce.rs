//! Live: three headless Godot 4 clients (`tests/godot/announce_client.gd`, relay on as by
//! default) join our ENet server with `Announce::None`. What each Godot client sees: its
//! `peer_connected` fires for the server alone and `get_peers()` is `[1]`, though the other
//! two are connected; a RAW packet each sends everyone (`send_bytes(data, 0)`) still reaches
//! the other two through the server's relay, as `peer_packet` signals naming the sender.

use crate::engine;
use crate::peer::script;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::{Announce, Event, Settings};

#[test]
fn godot4_clients_learn_of_no_other_client_under_announce_none() {
    let Some(engine) =
        engine::godot4_or_skip("godot4_clients_learn_of_no_other_client_under_announce_none")
    else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let settings = Settings::default().with_announce(Announce::None);
    let mut server = EnetPeer::server("127.0.0.1:0".parse().unwrap(), 32, settings).unwrap();
    let port = server.local_addr().unwrap().port();
    let stop = Arc::new(AtomicBool::new(false));
    let handle = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut joined = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                server.service().unwrap();
                while let Some(event) = server.poll_event() {
                    if let Event::PeerConnected(p) = event {
                        joined.push(p);
                    }
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            server.close();
            joined
        })
    };
    let clients: Vec<_> = (0..3)
        .map(|i| {
            let engine = engine.clone();
            std::thread::spawn(move || {
                let project = engine::Godot4Project::new(
                    &format!("mp_announce_{i}"),
                    &[&script("announce_client.gd")],
                );
                let out = project.run(
                    &engine,
                    "announce_client.gd",
                    &[&port.to_string(), "6"],
                    Duration::from_secs(40),
                );
                (
                    out.status.code(),
                    String::from_utf8_lossy(&out.stdout).into_owned(),
                )
            })
        })
        .collect();
    let outputs: Vec<_> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    stop.store(true, Ordering::Relaxed);
    let mut joined = handle.join().unwrap();
    joined.sort_unstable();
    assert_eq!(joined.len(), 3, "the server admitted {joined:?}");
    for (code, out) in &outputs {
        assert_eq!(*code, Some(0), "{out}");
        let line = |key: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or_else(|| panic!("no {key} in {out}"))
                .to_owned()
        };
        // Which client this is: the one of the three its packets did not come from.
        let packets = line("PACKETS ");
        let others: Vec<i32> = packets
            .trim_matches(['[', ']'])
            .split(", ")
            .filter_map(|v| v.parse().ok())
            .collect();
        assert_eq!(line("CONNECTED "), "[1]", "{out}");
        assert_eq!(line("PEERS "), "[1]", "{out}");
        assert_eq!(others.len(), 2, "{out}");
        assert!(others.iter().all(|o| joined.contains(o)), "{out}");
    }
}

/// What our server's `Announce::All` copies, checked against Godot 4.6's own server
/// (`benches/bench_burst_server.gd`, relay on): Rust clients with ids 9, 5, 7, 3 join one
/// after the other, then a client 6 joins; the `SYS_ADD_PEER`s it receives name the others
/// in the order the server admitted them (Godot's `connected_peers` iterates in insertion
/// order), not in the order of their ids.
#[test]
fn godot4_server_tells_a_joiner_of_the_others_in_admission_order() {
    use std::io::BufRead;

    let Some(engine) =
        engine::godot4_or_skip("godot4_server_tells_a_joiner_of_the_others_in_admission_order")
    else {
        return;
    };
    let port = std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches");
    let project =
        engine::Godot4Project::new("mp_announce_order", &[&dir.join("bench_burst_server.gd")]);
    let mut godot = engine::engine_command(
        &engine,
        "--headless",
        &project.dir,
        "bench_burst_server.gd",
        &[port.to_string(), "20".to_string(), "1".to_string()],
    )
    .spawn()
    .unwrap();
    let mut out = std::io::BufReader::new(godot.stdout.take().unwrap());
    let mut line = String::new();
    while out.read_line(&mut line).unwrap() > 0 && !line.contains("READY") {
        line.clear();
    }
    let addr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut clients: Vec<(i32, EnetPeer, Vec<i32>)> = Vec::new();
    for id in [9, 5, 7, 3, 6] {
        let peer = EnetPeer::client_with_id(addr, id, Settings::default()).unwrap();
        clients.push((id, peer, Vec::new()));
        // Joined, and every client told of every other (Godot admits as the connection
        // completes; its notices to the others follow in the same frame).
        let n = clients.len();
        let started = std::time::Instant::now();
        loop {
            for (_, peer, seen) in &mut clients {
                peer.service().unwrap();
                while let Some(event) = peer.poll_event() {
                    if let Event::PeerConnected(p) = event {
                        seen.push(p);
                    }
                }
            }
            if clients.iter().all(|(_, _, seen)| seen.len() == n) {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "clients never all joined: {:?}",
                clients
                    .iter()
                    .map(|(id, _, s)| (*id, s.clone()))
                    .collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let _ = godot.kill();
    let _ = godot.wait();
    // The server (1) first, then the others as Godot sent them.
    let last = &clients[4].2;
    assert_eq!(
        last,
        &vec![1, 9, 5, 7, 3],
        "what client 6 was told, in order"
    );
    // And the first client was told of each later one as it came.
    assert_eq!(clients[0].2, vec![1, 5, 7, 3, 6]);
}
