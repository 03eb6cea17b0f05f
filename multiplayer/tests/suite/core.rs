//! The protocol core both dialects share: the engine's `0 / -n / n` target rule, the relay
//! decisions of Godot 3.2.3's two transports (read from the 3.2 branch's
//! `modules/enet/networked_multiplayer_enet.cpp` and
//! `modules/websocket/websocket_multiplayer_peer.cpp`).

use godot_serde_multiplayer::ProtocolError;
use godot_serde_multiplayer::Target;
use godot_serde_multiplayer::godot3::wire::{Route, route, ws_route};

#[test]
fn target_reads_and_writes_the_engines_integers() {
    // `rpc_id(0, ...)` everyone, `rpc_id(-3, ...)` everyone but 3, `rpc_id(3, ...)` peer 3.
    assert_eq!(Target::from_engine(0), Target::All);
    assert_eq!(Target::from_engine(3), Target::Peer(3));
    assert_eq!(Target::from_engine(-3), Target::AllBut(3));
    assert_eq!(Target::from(-1), Target::AllBut(1));
    for n in [0, 1, 3, -1, -3, i32::MAX, -i32::MAX] {
        assert_eq!(i32::from(Target::from_engine(n)), n);
    }
    // i32::MIN has no positive counterpart: it excludes i32::MAX, a peer nobody has.
    assert_eq!(Target::from_engine(i32::MIN), Target::AllBut(i32::MAX));
    let peers = [2, 3, 4];
    assert_eq!(Target::All.expand(peers), vec![2, 3, 4]);
    assert_eq!(Target::AllBut(3).expand(peers), vec![2, 4]);
    assert_eq!(Target::Peer(4).expand(peers), vec![4]);
    // Not connected: reaches nobody.
    assert_eq!(Target::Peer(9).expand(peers), Vec::<i32>::new());
}

#[test]
fn minus_one_excludes_the_server_on_enet_but_not_on_websocket() {
    let peers = [2, 3, 4];
    // ENet, `poll`: `if (-target != 1) incoming_packets.push_back(packet); // server is not
    // excluded` else the packet is destroyed.
    assert_eq!(
        route(2, -1, &peers).unwrap(),
        Route {
            local: false,
            forward: vec![3, 4]
        }
    );
    // WebSocket, `_process_multiplayer`: `} else if (to < 0) { if (_peer_id !=
    // -(int32_t)p_peer_id) _store_pkt(...)`: the server's id (1) against minus the sender
    // (-2), never equal, so the server stores it; `_server_relay` forwards as ENet does.
    assert_eq!(
        ws_route(2, -1, &peers).unwrap(),
        Route {
            local: true,
            forward: vec![3, 4]
        }
    );
    // Every other target is decided alike by both transports.
    for target in [0, 1, -2, -3, -4, 3, 4] {
        assert_eq!(
            route(2, target, &peers),
            ws_route(2, target, &peers),
            "{target}"
        );
    }
    assert_eq!(route(2, 9, &peers), Err(ProtocolError::NoSuchPeer(9)));
    assert_eq!(ws_route(2, 9, &peers), Err(ProtocolError::NoSuchPeer(9)));
}

#[test]
fn authentication_deadlines_come_from_poll_timeout_and_fire_in_handle_timeout() {
    use godot_serde_multiplayer::{Event, Output, Session, Settings};
    use std::time::Duration;
    let ms = Duration::from_millis;
    let t0 = crate::clock::at_ms(0);
    let mut s = Session::server(
        Settings::default()
            .with_auth(true)
            .with_auth_timeout_ms(3000),
    );
    assert_eq!(s.poll_timeout(), None);
    s.connected(5, t0);
    s.connected(6, t0 + ms(1000));
    while s.poll_event().is_some() {}
    // Peer 5 times out 3000 ms after it connected, peer 6 at 4000 ms.
    assert_eq!(s.poll_timeout(), Some(t0 + ms(3000)));
    s.handle_timeout(t0 + ms(2999));
    assert_eq!(s.poll_output(), None);
    s.handle_timeout(t0 + ms(3000));
    assert_eq!(s.poll_output(), Some(Output::Disconnect(5)));
    assert_eq!(s.poll_event(), Some(Event::AuthenticationFailed(5)));
    assert_eq!(s.poll_timeout(), Some(t0 + ms(4000)));
    // An authenticated peer has no deadline.
    s.complete_auth(6);
    s.receive(
        6,
        0,
        godot_serde_multiplayer::TransferMode::Reliable,
        &[0x07, 0],
    );
    assert_eq!(s.authenticating().count(), 0);
    assert_eq!(s.poll_timeout(), None);
}

/// SIMPLIFY_PATH as `SceneCacheInterface::send_object_cache` writes it: command 1, the
/// checksum as 32 hex digits and a NUL, the id (u32 LE), the path and a NUL.
fn simplify_path(md5: &str, id: u32, path: &str) -> Vec<u8> {
    let mut p = vec![1u8];
    p.extend_from_slice(md5.as_bytes());
    p.push(0);
    p.extend_from_slice(&id.to_le_bytes());
    p.extend_from_slice(path.as_bytes());
    p.push(0);
    p
}

#[test]
fn calls_under_another_rpc_checksum_are_refused() {
    use godot_serde_multiplayer::{
        Event, Output, RpcMethod, RpcTable, Session, Settings, TransferMode,
    };
    let reliable = TransferMode::Reliable;
    let table = RpcTable::new("/root/Lobby")
        .with(RpcMethod::any_peer("chat"))
        .with(RpcMethod::any_peer("ping"));
    let ours = table.md5().to_owned();
    let mut s = Session::server(Settings::default());
    s.declare(table);
    for peer in [2, 3, 4] {
        s.connected(peer, crate::clock::at_ms(0));
    }
    while s.poll_event().is_some() {}
    // The relay's ADD_PEER announcements.
    while s.poll_output().is_some() {}
    // REMOTE_CALL of method 0 on cached node 5 with no arguments: byte 0 is command 0, node
    // id in 8 bits (bits 4-5: 0), method id in 8 bits (bit 6: 0), "no arguments" (bit 7):
    // 0x80; then the node id 5 and the method id 0.
    let call = [0x80u8, 5, 0];

    // Peer 2 announces node 5 under another checksum (its table differs from ours).
    let theirs = "0123456789abcdef0123456789abcdef";
    s.receive(2, 0, reliable, &simplify_path(theirs, 5, "/root/Lobby"));
    // CONFIRM_PATH: command 2, valid 0, id 5.
    assert_eq!(
        s.poll_output(),
        Some(Output::Packet {
            to: 2,
            channel: 0,
            mode: reliable,
            data: vec![2, 0, 5, 0, 0, 0]
        })
    );
    assert!(matches!(
        s.poll_event(),
        Some(Event::Error {
            peer: 2,
            error: ProtocolError::ChecksumMismatch { .. }
        })
    ));
    // Its call by id would run our method 0 for whatever its method 0 is: refused.
    s.receive(2, 0, reliable, &call);
    match s.poll_event() {
        Some(Event::Error {
            peer: 2,
            error:
                ProtocolError::MismatchedCall {
                    peer: 2,
                    path,
                    theirs: t,
                    ours: o,
                },
        }) => {
            assert_eq!(
                (path.as_str(), t.as_str(), o.as_str()),
                ("Lobby", theirs, &*ours)
            );
        }
        other => panic!("expected the refusal, got {other:?}"),
    }

    // Peer 3 announces the same node with our checksum: its call is dispatched.
    s.receive(3, 0, reliable, &simplify_path(&ours, 5, "/root/Lobby"));
    assert_eq!(
        s.poll_output(),
        Some(Output::Packet {
            to: 3,
            channel: 0,
            mode: reliable,
            data: vec![2, 1, 5, 0, 0, 0]
        })
    );
    s.receive(3, 0, reliable, &call);
    assert!(matches!(s.poll_event(), Some(Event::Rpc(c)) if c.from == 3 && c.method == "chat"));

    // Peer 4 tells us through CONFIRM_PATH (valid 0) that our checksum differs from its own:
    // its calls on the node are refused too, whatever checksum it announces later.
    s.rpc(4, "Lobby", "ping", &()).unwrap();
    while s.poll_output().is_some() {}
    // Our first path-cache id is 1.
    s.receive(4, 0, reliable, &[2, 0, 1, 0, 0, 0]);
    assert!(matches!(
        s.poll_event(),
        Some(Event::Error {
            peer: 4,
            error: ProtocolError::ChecksumMismatch { .. }
        })
    ));
    s.receive(4, 0, reliable, &simplify_path(&ours, 5, "/root/Lobby"));
    while s.poll_output().is_some() {}
    s.receive(4, 0, reliable, &call);
    assert!(matches!(
        s.poll_event(),
        Some(Event::Error {
            peer: 4,
            error: ProtocolError::MismatchedCall { peer: 4, ref theirs, .. }
        }) if theirs.is_empty()
    ));
    assert_eq!(s.poll_event(), None);
    // What the path cache holds: our id 1 for Lobby, sent to peer 4 only (and confirmed,
    // invalid as the confirmation was); every peer announced Lobby as 5.
    assert_eq!(s.cached_paths(), [("Lobby".to_owned(), 1)]);
    assert_eq!(s.path_confirmations(4), [("Lobby".to_owned(), true)]);
    assert_eq!(s.path_confirmations(3), []);
    for peer in [2, 3, 4] {
        assert_eq!(s.peer_cached_paths(peer), [(5, "Lobby".to_owned())]);
    }
}

#[test]
fn a_call_keeps_its_argument_bytes_until_asked() {
    use godot_serde_multiplayer::{
        Event, RpcMethod, RpcTable, Session, Settings, TransferMode, Variant,
    };
    let table = RpcTable::new("/root/Lobby").with(RpcMethod::any_peer("chat"));
    let md5 = table.md5().to_owned();
    let mut s = Session::server(Settings::default());
    s.declare(table);
    s.connected(2, crate::clock::at_ms(0));
    s.receive(
        2,
        0,
        TransferMode::Reliable,
        &simplify_path(&md5, 5, "/root/Lobby"),
    );
    while s.poll_event().is_some() {}
    // REMOTE_CALL: byte 0 = 0 (8-bit node id, 8-bit method id, a count), node 5, method 0,
    // count 2, then int 7 (type 2, 8-bit width: 0x02, 0x07) and bool true (type 1, value in
    // bit 7: 0x81). The arguments start at byte 4.
    s.receive(
        2,
        0,
        TransferMode::Reliable,
        &[0x00, 5, 0, 2, 0x02, 0x07, 0x81],
    );
    let Some(Event::Rpc(call)) = s.poll_event() else {
        panic!("no call")
    };
    assert_eq!(call.arg_bytes(), [0x02, 0x07, 0x81]);
    assert_eq!((call.args_offset(), call.arg_count()), (4, 2));
    assert_eq!(
        call.variants().unwrap(),
        [Variant::Int(7), Variant::Bool(true)]
    );
    assert_eq!(call.args_as::<(i64, bool)>().unwrap(), (7, true));
    // Decoding is the call's own: an argument cut short is reported when asked, with the
    // byte where it starts (int with a 64-bit width, 0xc2, and one byte at byte 4).
    s.receive(2, 0, TransferMode::Reliable, &[0x00, 5, 0, 1, 0xc2, 1]);
    let Some(Event::Rpc(bad)) = s.poll_event() else {
        panic!("no call")
    };
    let err = bad.args_as::<(i64,)>().unwrap_err();
    assert!(
        err.to_string().starts_with("argument 0 at byte 4: "),
        "{err}"
    );
    // The format crate's error is kept as the source, not flattened into text.
    let source = std::error::Error::source(&err).expect("a source");
    let format = source.downcast_ref::<godot_serde_multiplayer::FormatError>();
    assert!(format.is_some_and(|f| err.to_string().ends_with(&f.get().to_string())));
    assert_eq!(s.args_of::<(i64,)>(&bad), None);
    assert!(matches!(
        s.poll_event(),
        Some(Event::Error {
            peer: 2,
            error: ProtocolError::Argument {
                index: 0,
                offset: 4,
                ..
            }
        })
    ));
}

#[test]
fn a_godot3_call_and_set_keep_their_bytes_too() {
    use godot_serde_multiplayer::godot3::{NodeTable, RemoteMode, Session};
    use godot_serde_multiplayer::{Event, Limits, TransferMode, Variant};
    let mut s = Session::server(Limits::default());
    s.declare(
        NodeTable::new("/root/Lobby")
            .method("chat", RemoteMode::Remote)
            .property("hp", RemoteMode::Remote),
    );
    s.connected(2);
    while s.poll_event().is_some() {}
    // Godot 3 REMOTE_CALL (multiplayer_api.cpp, 3.2): command 0, node id u32 with the path
    // bit and the path's offset (19 = 0x13), "chat\0", count 1, int 7 in Godot 3's layout
    // (type 2, u32 LE; 8 bytes), then "Lobby\0" at byte 19.
    let mut call = vec![0u8, 19, 0, 0, 0x80];
    call.extend(b"chat\0");
    call.extend([1, 2, 0, 0, 0, 7, 0, 0, 0]);
    call.extend(b"Lobby\0");
    s.receive(2, true, &call);
    let got = s.poll_event();
    let Some(Event::Rpc(c)) = got else {
        panic!("no call: {got:?}")
    };
    assert_eq!(
        (c.method.as_str(), c.mode),
        ("chat", TransferMode::Unreliable)
    );
    assert_eq!(c.arg_bytes(), [2, 0, 0, 0, 7, 0, 0, 0]);
    assert_eq!((c.args_offset(), c.arg_count()), (11, 1));
    assert!(c.args().is_none(), "not Godot 4's layout");
    assert_eq!(c.args_as::<(i64,)>().unwrap(), (7,));
    // REMOTE_SET: command 1, node id with the path at 16 (after 5 header bytes, "hp\0" and
    // the 8 bytes of int 9), the name, the value, the path.
    let mut set = vec![1u8, 16, 0, 0, 0x80];
    set.extend(b"hp\0");
    set.extend([2, 0, 0, 0, 9, 0, 0, 0]);
    set.extend(b"Lobby\0");
    s.receive(2, false, &set);
    let got = s.poll_event();
    let Some(Event::Rset(v)) = got else {
        panic!("no set: {got:?}")
    };
    assert_eq!(v.variants().unwrap(), [Variant::Int(9)]);
    assert_eq!(v.value_as::<i64>().unwrap(), 9);
}

#[test]
fn transfer_modes_are_the_engines_integers() {
    use godot_serde_multiplayer::TransferMode;
    // `MultiplayerPeer.TransferMode`: UNRELIABLE 0, UNRELIABLE_ORDERED 1, RELIABLE 2.
    let modes = [
        (TransferMode::Unreliable, 0u8),
        (TransferMode::UnreliableOrdered, 1),
        (TransferMode::Reliable, 2),
    ];
    for (mode, value) in modes {
        assert_eq!(u8::from(mode), value);
        assert_eq!(TransferMode::try_from(value), Ok(mode));
    }
    assert!(matches!(
        TransferMode::try_from(3),
        Err(ProtocolError::Invalid {
            what: "transfer mode",
            ..
        })
    ));
}

#[cfg(feature = "websocket")]
#[test]
fn minus_one_reaches_the_websocket_server_as_in_3_2_3() {
    use crate::ws::{self, Dialect, Raw, Seen, Server};
    use godot_serde_multiplayer::Limits;
    // `WebSocketMultiplayerPeer::_process_multiplayer` (3.2.3) stores a packet for "everyone
    // but 1" on the server too (see `minus_one_excludes_the_server_on_enet_but_not_on_websocket`).
    let mut server = Server::new(Dialect::Godot3, Limits::default());
    let addr = server.addr();
    let mut a = Raw::connect(addr, &mut || server.service()).unwrap();
    let id = ws::read_id(Dialect::Godot3, &mut a, &mut || server.service());
    let message = ws::raw_packet(Dialect::Godot3, id, -1, &[9]);
    a.send(&ws::frame(ws::BINARY, &message), &mut || server.service());
    let mut seen = Vec::new();
    for _ in 0..2000 {
        server.service();
        seen.extend(server.events());
        if seen.contains(&Seen::Raw { from: id, len: 1 }) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("the server never took the packet for everyone but 1: {seen:?}");
}
