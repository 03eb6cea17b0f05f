//! Live: Rust ENet and WebSocket clients join a headless Godot 4 server (`tests/godot/server.gd`):
//! authentication, RPCs both ways with every Variant type, modes and a user channel, RAW,
//! peers joining and leaving, and a call from one Rust client to the other through Godot's relay.

use crate::dialect::free_udp_port;
use crate::engine;
use crate::lobby;
use crate::peer;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use godot_serde::Variant;
use godot_serde::text::parse_variant;
use godot_serde_multiplayer::enet::EnetPeer;
use godot_serde_multiplayer::transport::Transport;
use godot_serde_multiplayer::websocket::WsPeer;
use godot_serde_multiplayer::{Event, Settings, TransferMode};
use lobby::lobby;
use peer::{Peer as Client, script};

impl Client {
    fn connect(addr: SocketAddr, ws: bool) -> Self {
        let settings = Settings::default().with_auth(true);
        if ws {
            let url = format!("ws://{addr}/");
            // The Godot server may still be starting: retry for a while. `client` returns at
            // once; a refused connection is the first events' `Event::Error` for peer 1.
            let start = Instant::now();
            loop {
                let mut p = WsPeer::client(addr, &url, settings.clone()).unwrap();
                let failed = loop {
                    p.service().unwrap();
                    if p.transport().unique_id().is_some() {
                        return Client::Ws(p);
                    }
                    if let Some(event) = p.poll_event() {
                        break event;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                };
                assert!(
                    start.elapsed() < Duration::from_secs(20),
                    "no connection: {failed:?}"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Client::Enet(EnetPeer::client(addr, settings).unwrap())
    }
}

/// Values in `var_to_str` syntax: the Godot server parses the text itself and compares.
const VALUES: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-1",
    "127",
    "128",
    "-129",
    "32767",
    "-32769",
    "2147483647",
    "-2147483649",
    "1099511627776",
    "1.5",
    "0.1",
    "\"héllo ✓\"",
    "Vector2(1.5, -2)",
    "Vector2i(3, -4)",
    "Rect2(1, 2, 3, 4)",
    "Rect2i(-1, -2, 3, 4)",
    "Vector3(1, 2, 3)",
    "Vector3i(-7, 8, 9)",
    "Transform2D(1, 0, 0, 1, 3, 4)",
    "Vector4(1, 2, 3, 4)",
    "Vector4i(5, 6, 7, -8)",
    "Plane(0, 1, 0, 2.5)",
    "Quaternion(0, 0, 0.5, 0.75)",
    "AABB(1, 2, 3, 4, 5, 6)",
    "Basis(1, 0, 0, 0, 2, 0, 0, 0, 3)",
    "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8, 9)",
    "Projection(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)",
    "Color(0.25, 0.5, 0.75, 1)",
    "&\"a_string_name\"",
    "NodePath(\"Path/To:prop\")",
    "{\"a\": 1, 2: [3, \"x\"]}",
    "[1, \"two\", [3.5, null]]",
    "Array[int]([1, 2, 3])",
    "PackedByteArray(0, 1, 255)",
    "PackedInt32Array(1, -2, 3)",
    "PackedInt64Array(1099511627776, -1)",
    "PackedFloat32Array(1.5, -2.25)",
    "PackedFloat64Array(0.1, 1e+300)",
    "PackedStringArray(\"a\", \"bé\")",
    "PackedVector2Array(1, 2)",
    "PackedVector3Array(1, 2, 3)",
    "PackedColorArray(1, 0, 0, 1)",
    "PackedVector4Array(1, 2, 3, 4)",
];

fn free_port(ws: bool) -> u16 {
    if ws {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        return l.local_addr().unwrap().port();
    }
    free_udp_port()
}

/// Polls `client` until `done` says so or `timeout` passes; returns the events seen.
fn pump(client: &mut Client, timeout: Duration, mut on: impl FnMut(&mut Client, &Event) -> bool) {
    let start = Instant::now();
    loop {
        client.service().unwrap();
        while let Some(event) = client.poll_event() {
            if let Event::Error { peer, error } = &event {
                panic!("peer {peer}: {error}");
            }
            if on(client, &event) {
                client.service().unwrap();
                return;
            }
        }
        assert!(start.elapsed() < timeout, "timed out");
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn join(addr: SocketAddr, secret: &str, ws: bool) -> Client {
    let mut client = Client::connect(addr, ws);
    client.session().declare(lobby());
    let secret = secret.as_bytes().to_vec();
    pump(&mut client, Duration::from_secs(20), |c, e| match e {
        Event::PeerAuthenticating(1) => {
            c.session().send_auth(1, &secret).unwrap();
            false
        }
        Event::AuthData { peer: 1, data } => {
            assert_eq!(data, b"welcome?");
            assert!(c.session().complete_auth(1));
            false
        }
        Event::PeerConnected(1) => true,
        other => panic!("unexpected {other:?}"),
    });
    client
}

/// One Godot server, a refused client, then two Rust clients; returns the Rust-side and
/// Godot-side check counts.
fn exercise(engine: PathBuf, ws: bool) -> (usize, usize) {
    let port = free_port(ws);
    let transport = if ws { "ws" } else { "enet" };
    let godot = std::thread::spawn(move || {
        let name = format!("mp_server_{transport}");
        let project =
            engine::Godot4Project::new(&name, &[&script("server.gd"), &script("lobby.gd")]);
        let args = [&port.to_string(), "s3cret", "2", transport];
        let out = project.run(&engine, "server.gd", &args, Duration::from_secs(60));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    });
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut checks = 0;

    // A wrong secret: Godot disconnects us, the session reports the failed authentication.
    let mut bad = Client::connect(addr, ws);
    pump(&mut bad, Duration::from_secs(20), |c, e| match e {
        Event::PeerAuthenticating(1) => {
            c.session().send_auth(1, b"wrong").unwrap();
            false
        }
        Event::AuthenticationFailed(1) => true,
        other => panic!("unexpected {other:?}"),
    });
    checks += 1;

    let mut a = join(addr, "s3cret", ws);
    let a_id = a.session().unique_id();
    // The server welcomes us with our id.
    pump(&mut a, Duration::from_secs(10), |_, e| match e {
        Event::Rpc(call) if call.method == "welcome" => {
            assert_eq!(
                call.args_as::<(String, i64)>().unwrap(),
                ("Godot".to_owned(), i64::from(a_id))
            );
            true
        }
        other => panic!("unexpected {other:?}"),
    });
    checks += 1;

    // Every type: Godot compares with its own str_to_var and echoes it back.
    let values: Vec<Variant> = VALUES
        .iter()
        .map(|t| parse_variant(t).unwrap_or_else(|e| panic!("{t}: {e}")))
        .collect();
    a.session().rpc(1, "Lobby", "ping", &(5i64, true)).unwrap();
    for (i, (value, text)) in values.iter().zip(VALUES).enumerate() {
        let args = [
            Variant::Int(i as i64),
            value.clone(),
            Variant::String((*text).into()),
        ];
        a.session().rpc_variants(1, "Lobby", "take", &args).unwrap();
    }
    let mut echoed = vec![false; values.len()];
    pump(&mut a, Duration::from_secs(20), |_, e| match e {
        Event::Rpc(call) if call.method == "echo" => {
            let args = call.variants().unwrap();
            let [Variant::Int(i), v] = args.as_slice() else {
                panic!("{call:?}")
            };
            let i = *i as usize;
            assert_eq!(v, &values[i], "echo of {}", VALUES[i]);
            echoed[i] = true;
            echoed.iter().all(|&e| e)
        }
        other => panic!("unexpected {other:?}"),
    });
    checks += values.len();

    // Modes and the user channel, answered by the server with x + 1 the same way.
    a.session().rpc(1, "Lobby", "chan", &(33i64,)).unwrap();
    a.session()
        .send_bytes(1, &[9, 8, 7], TransferMode::Reliable, 0)
        .unwrap();
    let mut want: Vec<&str> = vec!["chan", "raw", "unrel", "ordered"];
    let mut resend = Instant::now();
    let start = Instant::now();
    while !want.is_empty() {
        // Unreliable calls may be lost: resend until answered.
        if resend.elapsed() > Duration::from_millis(100) {
            resend = Instant::now();
            if want.contains(&"unrel") {
                a.session().rpc(1, "Lobby", "unrel", &(11i64,)).unwrap();
            }
            if want.contains(&"ordered") {
                a.session().rpc(1, "Lobby", "ordered", &(22i64,)).unwrap();
            }
        }
        a.service().unwrap();
        while let Some(event) = a.poll_event() {
            match event {
                Event::Rpc(call) => {
                    let (x,): (i64,) = call.args_as().unwrap();
                    let (expect, channel) = match call.method.as_str() {
                        "unrel" => (12, 0),
                        "ordered" => (23, 0),
                        // WebSocket has no channels: Godot delivers on channel 0.
                        "chan" => (34, if ws { 0 } else { 2 }),
                        other => panic!("{other}"),
                    };
                    assert_eq!((x, call.channel), (expect, channel), "{call:?}");
                    want.retain(|w| *w != call.method);
                }
                Event::Raw { from: 1, data, .. } => {
                    assert_eq!(data, [7, 8, 9]);
                    want.retain(|w| *w != "raw");
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "still waiting for {want:?}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    checks += 4;

    // A second client: each sees the other through Godot's relay, then b leaves.
    let mut b = join(addr, "s3cret", ws);
    let b_id = b.session().unique_id();
    pump(
        &mut a,
        Duration::from_secs(10),
        |_, e| matches!(e, Event::PeerConnected(id) if *id == b_id),
    );
    a.session()
        .rpc(b_id, "Lobby", "hello", &(i64::from(a_id), "hi from a"))
        .unwrap();
    a.service().unwrap();
    pump(&mut b, Duration::from_secs(10), |_, e| match e {
        Event::Rpc(call) if call.method == "hello" => {
            assert_eq!(call.from, a_id);
            assert_eq!(
                call.args_as::<(i64, String)>().unwrap(),
                (i64::from(a_id), "hi from a".to_owned())
            );
            true
        }
        Event::PeerConnected(_) | Event::Rpc(_) => false,
        other => panic!("unexpected {other:?}"),
    });
    checks += 2;
    b.close();
    drop(b);
    pump(
        &mut a,
        Duration::from_secs(10),
        |_, e| matches!(e, Event::PeerDisconnected(id) if *id == b_id),
    );
    checks += 1;
    a.session().rpc(1, "Lobby", "done", &(1i64,)).unwrap();
    a.service().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    a.service().unwrap();
    a.close();

    let (code, stdout) = godot.join().unwrap();
    let failed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("CASE ") && !l.ends_with(" ok"))
        .collect();
    assert!(
        failed.is_empty() && code == Some(0),
        "Godot server: exit {code:?}, failed {failed:?}\n{stdout}"
    );
    let godot_ok = stdout
        .lines()
        .filter(|l| l.starts_with("CASE ") && l.ends_with(" ok"))
        .count();
    // 47 takes, ping, 3 modes, raw, 2 good secrets, 1 refused, done.
    assert_eq!(godot_ok, VALUES.len() + 9, "{stdout}");
    (checks, godot_ok)
}

#[test]
fn rust_clients_join_a_godot_enet_server() {
    let Some(engine) = engine::godot4_or_skip("rust_clients_join_a_godot_enet_server") else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let (checks, godot_ok) = exercise(engine, false);
    println!("live ENet client cases: {checks} Rust-side, {godot_ok} Godot-side");
}

#[test]
fn rust_clients_join_a_godot_websocket_server() {
    let Some(engine) = engine::godot4_or_skip("rust_clients_join_a_godot_websocket_server") else {
        return;
    };
    println!("engine: {}", engine::godot4_version(&engine));
    let (checks, godot_ok) = exercise(engine, true);
    println!("live WebSocket client cases: {checks} Rust-side, {godot_ok} Godot-side");
}
