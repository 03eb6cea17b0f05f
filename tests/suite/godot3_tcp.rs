//! End to end over loopback: the `tcp_server` example's server against a real Godot 3.2.3
//! client (`godot3-server` running `tests/godot3/tcp_client.gd`), exchanging nested structs
//! both ways with `StreamPeerTCP.put_var` / `get_var`.
//!
//! The engine is found as `test-support/src/engine.rs` says (`$GODOT3`, else `godot3-server` on
//! `PATH`). Without it the test is skipped with a banner that the test runner shows, or fails
//! when `GODOT_SERDE_REQUIRE_ENGINE=1` (CI). Install it with `bash scripts/install-godot3.sh`.

use crate::common;

#[allow(dead_code)]
#[path = "../../examples/tcp_server.rs"]
mod tcp_server;

use godot_serde::{Color, Config, PackedStringArray, Rect2, Vector2, Vector3};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use tcp_server::{Item, Loadout, Player, handle_client};

fn hello() -> Player {
    Player {
        name: "Ada".into(),
        level: 7,
        position: Vector2::new(1.5, -2.0),
        inventory: vec![
            Item {
                name: "potion".into(),
                count: 3,
            },
            Item {
                name: "sword".into(),
                count: 1,
            },
        ],
        loadout: Loadout {
            color: Color::new(1.0, 0.5, 0.0, 1.0),
            slots: vec![Vector3::new(1.0, 2.0, 3.0), Vector3::new(0.0, 0.0, 0.0)],
            area: Rect2::new(Vector2::new(0.0, 0.0), Vector2::new(4.0, 4.0)),
        },
        tags: PackedStringArray(vec!["admin".into(), "beta".into()]),
        guild: None,
    }
}

#[test]
fn godot3_client_exchanges_nested_structs_with_the_rust_server() {
    let Some(engine) = common::engine::godot3_or_skip("godot3_tcp") else {
        return;
    };
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let server = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(60);
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() > deadline {
                        return Err("no client connected within 60 s".to_string());
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(e.to_string()),
            }
        };
        stream.set_nonblocking(false).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .map_err(|e| e.to_string())?;
        handle_client(stream, Config::godot3()).map_err(|e| e.to_string())
    });

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tests/godot3/tcp_client.gd");
    let out = Command::new("sh")
        .current_dir(root)
        .env("GODOT3", &engine)
        .env("GODOT3_TIMEOUT", "60")
        .arg("-c")
        .arg(". scripts/godot3-env.sh && godot3_run \"$@\"")
        .arg("sh")
        .arg(&script)
        .arg("127.0.0.1")
        .arg(port.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let session = server.join().unwrap();
    assert!(
        out.status.success() && stdout.contains("CLIENT OK"),
        "Godot client failed ({}):\n{stdout}\n{stderr}\nserver: {session:?}",
        out.status
    );
    let session = session.unwrap();

    // What Godot sent, decoded into the Rust structs.
    assert_eq!(session.hello, hello());
    let mut changed = tcp_server::welcome(&hello()).player;
    changed.position = Vector2::new(2.5, -1.0);
    changed.inventory.push(Item {
        name: "gem".into(),
        count: 7,
    });
    changed.tags.0.push("veteran".into());
    changed.guild = None;
    assert_eq!(session.updates, vec![changed]);
    assert_eq!(session.chats, vec!["gg".to_string()]);
}

/// The shared lookup: `$GODOT3` (a path or a command on `PATH`) wins over `godot3-server`.
#[test]
fn engine_lookup_is_godot3_then_path() {
    use common::engine::find_engine;
    use std::ffi::OsStr;
    let dir = std::env::temp_dir().join(format!("godot_serde_engine_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("godot3-server");
    std::fs::write(&fake, "").unwrap();
    let other = dir.join("my-godot");
    std::fs::write(&other, "").unwrap();
    let path = dir.as_os_str();
    assert_eq!(find_engine(None, Some(path)), Some(fake.clone()));
    assert_eq!(find_engine(Some(OsStr::new("")), Some(path)), Some(fake));
    assert_eq!(
        find_engine(Some(OsStr::new("my-godot")), Some(path)),
        Some(other.clone())
    );
    assert_eq!(find_engine(Some(other.as_os_str()), None), Some(other));
    assert_eq!(find_engine(Some(OsStr::new("missing")), Some(path)), None);
    assert_eq!(find_engine(None, None), None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reads until the server closes the connection (end of stream or a reset) and says whether
/// it did within `within`.
fn closed_by_server(stream: &mut std::net::TcpStream, within: Duration) -> bool {
    use std::io::Read;
    stream.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 64];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false, // the read timed out: still open
        }
    }
}

/// The example's serve loop against hostile clients (no engine needed): a forged 1 GiB frame,
/// connections past the client cap, clients that never speak. Each is dropped with the bound
/// the example documents, and a good client is still served.
#[test]
fn serve_loop_bounds_hostile_clients_and_keeps_serving() {
    use std::io::Write;
    use std::net::TcpStream;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = tcp_server::ServeLimits {
        max_clients: 2,
        idle: Duration::from_millis(400),
        max_frame: 64 * 1024,
    };
    // The loop runs for the rest of the test process.
    std::thread::spawn(move || tcp_server::serve(listener, Config::godot4(), limits));

    // A frame that claims 1 GiB: refused at once, the connection closed.
    let mut forged = TcpStream::connect(addr).unwrap();
    forged.write_all(&(1u32 << 30).to_le_bytes()).unwrap();
    assert!(closed_by_server(&mut forged, Duration::from_secs(5)));
    std::thread::sleep(Duration::from_millis(100)); // its thread gives its slot back

    // Two silent clients fill the slots; a third is closed at once.
    let mut silent: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(50));
    let mut third = TcpStream::connect(addr).unwrap();
    assert!(
        closed_by_server(&mut third, Duration::from_millis(300)),
        "a client past max_clients was served"
    );
    // The silent ones are dropped after `idle`.
    for s in &mut silent {
        assert!(
            closed_by_server(s, Duration::from_secs(5)),
            "a silent client was kept past the idle timeout"
        );
    }
    std::thread::sleep(Duration::from_millis(100));

    // A good client does the whole exchange.
    let mut good = TcpStream::connect(addr).unwrap();
    good.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let framing = godot_serde::frame::Framing::new(Config::godot4());
    framing
        .write(&mut good, &tcp_server::ClientMsg::Hello(hello()))
        .unwrap();
    let welcome: tcp_server::Welcome = framing.read(&mut good).unwrap();
    assert_eq!(welcome, tcp_server::welcome(&hello()));
    framing
        .write(&mut good, &tcp_server::ClientMsg::Bye)
        .unwrap();
    let summary: tcp_server::Summary = framing.read(&mut good).unwrap();
    assert_eq!((summary.updates, summary.chats.len()), (0, 0));
}
