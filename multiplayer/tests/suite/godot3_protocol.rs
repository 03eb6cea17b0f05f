//! The Godot 3.2.3 dialect without a network: packet layouts derived by hand from
//! `core/io/multiplayer_api.cpp` and `modules/enet/networked_multiplayer_enet.cpp` (3.2
//! branch), the modes' truth table (`_can_call_mode`, `_should_call_local`), the path cache,
//! and hostile packets (each gets a per-peer error, the session goes on). The live tests
//! (`live_godot3.rs`) check the same layouts against the engine.

use godot_serde::Variant;
use godot_serde_multiplayer::godot3::wire::{
    self, EnetHeader, NodeRef, Packet, Route, SysMsg, WsMessage, route,
};
use godot_serde_multiplayer::godot3::{MemberKind, NodeTable, RemoteMode, Session};
use godot_serde_multiplayer::{Event, Limits, Output, ProtocolError, TransferMode};

fn lobby() -> NodeTable {
    NodeTable::new("/root/Lobby")
        .method("chat", RemoteMode::Remote)
        .method("moved", RemoteMode::Puppet)
        .method("order", RemoteMode::Master)
        .method("shout", RemoteMode::RemoteSync)
        .property("hp", RemoteMode::Puppet)
        .property("name", RemoteMode::Remote)
}

fn server_with(peers: &[i32]) -> Session {
    let mut s = Session::server(Limits::default().with_max_cached_paths(4));
    s.declare(lobby());
    for &p in peers {
        s.connected(p);
    }
    while s.poll_event().is_some() {}
    s
}

/// A packet output: the engine's target and the bytes.
#[derive(Debug)]
struct Out {
    target: i32,
    data: Vec<u8>,
}

fn outputs(s: &mut Session) -> Vec<Out> {
    std::iter::from_fn(|| s.poll_output())
        .map(|o| match o {
            Output::Packet {
                to,
                channel: 0,
                data,
                ..
            } => Out { target: to, data },
            other => panic!("a Godot 3 session only sends packets on channel 0: {other:?}"),
        })
        .collect()
}

fn events(s: &mut Session) -> Vec<Event> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

fn error_of(s: &mut Session) -> ProtocolError {
    match events(s).as_slice() {
        [Event::Error { error, .. }] => error.clone(),
        other => panic!("expected one error, got {other:?}"),
    }
}

// ---- layouts --------------------------------------------------------------------------------

#[test]
fn remote_call_with_the_path_after_the_arguments() {
    let mut p = Vec::new();
    wire::write_remote_call(&mut p, 1, Some("Lobby"), "hi", &[Variant::Int(7)]).unwrap();
    // command 0; node id 0x80000000 | 17 (1 + 4 + "hi\0" + count + 8 bytes of int);
    // "hi\0"; count 1; var2bytes(7) = 02000000 07000000; "Lobby\0".
    let want: Vec<u8> = [
        &[0u8, 17, 0, 0, 0x80][..],
        b"hi\0",
        &[1, 2, 0, 0, 0, 7, 0, 0, 0],
        b"Lobby\0",
    ]
    .concat();
    assert_eq!(p, want);
    assert_eq!(
        wire::parse(&p).unwrap(),
        Packet::RemoteCall {
            node: NodeRef::Path("Lobby"),
            method: "hi",
            count: 1,
            args: &[2, 0, 0, 0, 7, 0, 0, 0],
            args_offset: 9,
        }
    );
}

#[test]
fn remote_set_simplify_confirm_raw_layouts() {
    let mut p = Vec::new();
    wire::write_remote_set(&mut p, 3, None, "hp", &Variant::Bool(true)).unwrap();
    // command 1, id 3, "hp\0", var2bytes(true) = 01000000 01000000.
    assert_eq!(p, [1, 3, 0, 0, 0, b'h', b'p', 0, 1, 0, 0, 0, 1, 0, 0, 0]);
    let mut p = Vec::new();
    wire::write_simplify_path(&mut p, 1, "Lobby");
    assert_eq!(p, [&[2u8, 1, 0, 0, 0][..], b"Lobby\0"].concat());
    let mut p = Vec::new();
    wire::write_confirm_path(&mut p, "Lobby");
    assert_eq!(p, [&[3u8][..], b"Lobby\0"].concat());
    let mut p = Vec::new();
    wire::write_raw(&mut p, &[9]);
    assert_eq!(p, [4, 9]);
}

#[test]
fn enet_header_and_system_messages() {
    // source 2, target -1 (everyone but the server), then the payload.
    let framed = EnetHeader {
        source: 2,
        target: -1,
    }
    .frame(&[4, 9]);
    assert_eq!(framed, [2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 4, 9]);
    let (h, rest) = EnetHeader::split(&framed).unwrap();
    assert_eq!((h.source, h.target, rest), (2, -1, &[4u8, 9][..]));
    assert_eq!(SysMsg::AddPeer(5).to_bytes(), [0, 0, 0, 0, 5, 0, 0, 0]);
    assert_eq!(SysMsg::RemovePeer(5).to_bytes(), [1, 0, 0, 0, 5, 0, 0, 0]);
    assert!(matches!(
        EnetHeader::split(&[1, 0, 0, 0, 1, 0, 0]),
        Err(ProtocolError::Truncated { offset: 4, .. })
    ));
    assert!(SysMsg::parse(&[2, 0, 0, 0, 5, 0, 0, 0]).is_err());
    assert!(SysMsg::parse(&[0, 0, 0, 0, 5, 0, 0, 0, 0]).is_err());
    assert!(SysMsg::parse(&[0, 0, 0, 0, 5]).is_err());
}

#[test]
fn relay_routes_as_the_enet_peer_does() {
    let peers = [2, 3, 4];
    let r = |target| route(2, target, &peers);
    assert_eq!(
        r(1).unwrap(),
        Route {
            local: true,
            forward: vec![]
        }
    );
    assert_eq!(
        r(0).unwrap(),
        Route {
            local: true,
            forward: vec![3, 4]
        }
    );
    assert_eq!(
        r(-3).unwrap(),
        Route {
            local: true,
            forward: vec![4]
        }
    );
    assert_eq!(
        r(-1).unwrap(),
        Route {
            local: false,
            forward: vec![3, 4]
        }
    );
    assert_eq!(
        r(4).unwrap(),
        Route {
            local: false,
            forward: vec![4]
        }
    );
    assert_eq!(r(9), Err(ProtocolError::NoSuchPeer(9)));
    assert_eq!(route(2, i32::MIN, &peers).unwrap().forward, vec![3, 4]);
}

// ---- modes ----------------------------------------------------------------------------------

#[test]
fn modes_follow_can_call_mode() {
    use RemoteMode::*;
    // (mode, master, local, remote) -> allowed; from `_can_call_mode`.
    let table = [
        (Disabled, 1, 1, 2, false),
        (Remote, 1, 1, 2, true),
        (RemoteSync, 1, 2, 3, true),
        (Master, 1, 1, 2, true),  // we are the master: anyone may call
        (Master, 1, 2, 1, false), // we are not
        (MasterSync, 2, 2, 1, true),
        (Puppet, 1, 2, 1, true),  // the master calls a puppet
        (Puppet, 1, 2, 3, false), // another puppet may not
        (Puppet, 1, 1, 2, false), // never on the master
        (PuppetSync, 1, 2, 1, true),
        (PuppetSync, 1, 1, 1, false),
    ];
    for (mode, master, local, remote, want) in table {
        assert_eq!(
            mode.can_call(master, local, remote),
            want,
            "{mode:?} {master} {local} {remote}"
        );
    }
    // `_should_call_local` (call locally, skip the remote call), master then puppet.
    assert_eq!(Remote.local_call(true), (false, false));
    assert_eq!(RemoteSync.local_call(false), (true, false));
    assert_eq!(Master.local_call(true), (true, true));
    assert_eq!(Master.local_call(false), (false, false));
    assert_eq!(MasterSync.local_call(true), (true, true));
    assert_eq!(Puppet.local_call(false), (true, false));
    assert_eq!(Puppet.local_call(true), (false, false));
    assert_eq!(PuppetSync.local_call(true), (true, false));
}

#[test]
fn refused_calls_and_sets_are_per_peer_errors() {
    let mut s = server_with(&[2]);
    let call = |member: &str| {
        let mut p = Vec::new();
        wire::write_remote_call(&mut p, 0, Some("Lobby"), member, &[]).unwrap();
        p
    };
    s.receive(2, false, &call("moved"));
    assert!(matches!(
        error_of(&mut s),
        ProtocolError::RemoteNotAllowed {
            peer: 2,
            mode: RemoteMode::Puppet,
            master: 1,
            kind: MemberKind::Method,
            ..
        }
    ));
    s.receive(2, false, &call("nope"));
    assert!(matches!(
        error_of(&mut s),
        ProtocolError::RemoteNotAllowed {
            mode: RemoteMode::Disabled,
            ..
        }
    ));
    s.receive(2, false, &call("order"));
    assert!(
        matches!(events(&mut s).as_slice(), [Event::Rpc(r)] if r.method == "order" && r.from == 2)
    );
    let mut p = Vec::new();
    wire::write_remote_set(&mut p, 0, Some("Lobby"), "hp", &Variant::Int(1)).unwrap();
    s.receive(2, false, &p);
    assert!(matches!(
        error_of(&mut s),
        ProtocolError::RemoteNotAllowed {
            kind: MemberKind::Property,
            ..
        }
    ));
    let mut p = Vec::new();
    wire::write_remote_set(&mut p, 0, Some("Lobby"), "name", &Variant::from("x")).unwrap();
    s.receive(2, true, &p);
    match events(&mut s).as_slice() {
        [Event::Rset(r)] => {
            assert_eq!(
                (r.method.as_str(), (r.mode == TransferMode::Unreliable)),
                ("name", true)
            );
            assert_eq!(r.value_as::<String>().unwrap(), "x");
            // In a serve loop: the typed value or arguments, or `None` with the mismatch as
            // the sender's event.
            let r = r.clone();
            assert_eq!(s.value_of::<String>(&r).as_deref(), Some("x"));
            assert_eq!(s.value_of::<i64>(&r), None);
            assert_eq!(s.args_of::<(bool, bool)>(&r), None);
            let errors = events(&mut s);
            assert_eq!(errors.len(), 2, "{errors:?}");
            assert!(errors.iter().all(|e| matches!(
                e,
                Event::Error {
                    peer: 2,
                    error: ProtocolError::ArgumentType { .. }
                }
            )));
        }
        other => panic!("{other:?}"),
    }
    // A different network master: now peer 2 may call the puppet method.
    s.set_network_master("/root/Lobby", 2).unwrap();
    s.receive(2, false, &call("moved"));
    assert!(matches!(events(&mut s).as_slice(), [Event::Rpc(_)]));
}

// ---- path cache -----------------------------------------------------------------------------

#[test]
fn sending_announces_the_path_then_uses_the_id() {
    let mut s = server_with(&[2, 3]);
    assert!(!s.rpc(0, "Lobby", "chat", &("hi",)).unwrap());
    let out = outputs(&mut s);
    // SIMPLIFY_PATH to 2 and 3 (id 1), then the call with the path to each.
    assert_eq!(out.len(), 4, "{out:?}");
    assert_eq!(out[0].target, 2);
    assert_eq!(out[0].data, [&[2u8, 1, 0, 0, 0][..], b"Lobby\0"].concat());
    assert_eq!(out[1].target, 3);
    assert!(matches!(
        wire::parse(&out[2].data).unwrap(),
        Packet::RemoteCall {
            node: NodeRef::Path("Lobby"),
            ..
        }
    ));
    let mut confirm = Vec::new();
    wire::write_confirm_path(&mut confirm, "Lobby");
    s.receive(2, false, &confirm);
    assert!(events(&mut s).is_empty());
    s.rpc(0, "Lobby", "chat", &("again",)).unwrap();
    let out = outputs(&mut s);
    // 2 confirmed (id 1), 3 not (path): one packet each, no new SIMPLIFY_PATH.
    assert_eq!(out.len(), 2);
    assert!(matches!(
        wire::parse(&out[0].data).unwrap(),
        Packet::RemoteCall {
            node: NodeRef::Cached(1),
            ..
        }
    ));
    assert!(matches!(
        wire::parse(&out[1].data).unwrap(),
        Packet::RemoteCall {
            node: NodeRef::Path(_),
            ..
        }
    ));
    s.receive(3, false, &confirm);
    s.rpc(0, "Lobby", "chat", &("all",)).unwrap();
    let out = outputs(&mut s);
    // Everyone confirmed: one packet for everyone (target 0).
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].target, 0);
    // A confirmation nobody asked for is an error.
    s.receive(3, false, &confirm);
    assert!(
        events(&mut s).is_empty(),
        "a repeated confirmation just sets the flag again"
    );
    let mut bogus = Vec::new();
    wire::write_confirm_path(&mut bogus, "Other");
    s.receive(3, false, &bogus);
    assert!(matches!(
        error_of(&mut s),
        ProtocolError::UnexpectedConfirm { peer: 3, .. }
    ));
}

#[test]
fn sync_and_master_modes_decide_the_local_call() {
    let mut s = server_with(&[2]);
    assert!(s.rpc(0, "Lobby", "shout", &()).unwrap());
    assert!(!outputs(&mut s).is_empty());
    // `master` on the master: called locally, not sent.
    assert!(s.rpc(0, "Lobby", "order", &()).unwrap());
    assert!(outputs(&mut s).is_empty());
    // A target that is not connected (it left while its events were queued) is no error of
    // ours: nothing is sent, it is that peer's event (`-9`: peer 9's, as `ABS(p_to)`), and
    // the local call is still answered (`remotesync` to everyone but 9 runs here too).
    events(&mut s);
    assert!(!s.rpc(9, "Lobby", "chat", &()).unwrap());
    assert!(s.rpc(-9, "Lobby", "shout", &()).unwrap());
    s.send_bytes(9, b"x", false).unwrap();
    assert!(outputs(&mut s).is_empty());
    let gone = Event::Error {
        peer: 9,
        error: ProtocolError::NoSuchPeer(9),
    };
    assert_eq!(events(&mut s), [gone.clone(), gone.clone(), gone]);
    // Everyone but ourselves is no target (the engine: no peer 1 among the server's peers).
    assert!(matches!(
        s.rpc(-1, "Lobby", "chat", &()),
        Err(ProtocolError::NoSuchPeer(-1))
    ));
    assert!(matches!(
        s.rpc(0, "Lobby", "missing", &()),
        Err(ProtocolError::RemoteNotDeclared { .. })
    ));
    assert!(matches!(
        s.rset(0, "Lobby", "chat", &1),
        Err(ProtocolError::RemoteNotDeclared {
            kind: MemberKind::Property,
            ..
        })
    ));
    assert!(matches!(
        s.send_bytes(0, &[], false),
        Err(ProtocolError::EmptyPayload(_))
    ));
}

#[test]
fn received_path_cache_is_capped_and_confirmed() {
    let mut s = server_with(&[2]);
    for id in 0..4 {
        let mut p = Vec::new();
        wire::write_simplify_path(&mut p, id, if id == 0 { "Lobby" } else { "Elsewhere" });
        s.receive(2, false, &p);
    }
    assert!(events(&mut s).is_empty());
    let out = outputs(&mut s);
    assert_eq!(
        out.len(),
        4,
        "every SIMPLIFY_PATH is confirmed, as the engine does"
    );
    assert_eq!(out[0].data, [&[3u8][..], b"Lobby\0"].concat());
    let mut p = Vec::new();
    wire::write_simplify_path(&mut p, 99, "Lobby");
    s.receive(2, false, &p);
    assert_eq!(
        error_of(&mut s),
        ProtocolError::PathCacheFull { peer: 2, limit: 4 }
    );
    // A known id is replaced, not refused.
    s.receive(2, false, &[&[2u8, 1, 0, 0, 0][..], b"Lobby\0"].concat());
    assert!(events(&mut s).is_empty());
    // Calls by id: the declared path works, an undeclared one and an unknown id are errors.
    let mut call = Vec::new();
    wire::write_remote_call(&mut call, 1, None, "chat", &[Variant::Int(1)]).unwrap();
    s.receive(2, false, &call);
    assert!(
        matches!(events(&mut s).as_slice(), [Event::Rpc(r)] if r.path == "Lobby" && r.variants().unwrap() == [Variant::Int(1)])
    );
    call[1] = 2;
    s.receive(2, false, &call);
    assert!(matches!(
        error_of(&mut s),
        ProtocolError::UnknownNode { .. }
    ));
    call[1] = 50;
    s.receive(2, false, &call);
    assert_eq!(
        error_of(&mut s),
        ProtocolError::UnknownCacheId { peer: 2, id: 50 }
    );
    // Disconnection forgets the peer's cache.
    s.disconnected(2);
    assert_eq!(events(&mut s), [Event::PeerDisconnected(2)]);
    s.connected(2);
    events(&mut s);
    call[1] = 1;
    s.receive(2, false, &call);
    assert!(matches!(
        error_of(&mut s),
        ProtocolError::UnknownCacheId { .. }
    ));
}

// ---- hostile packets ------------------------------------------------------------------------

#[test]
fn hostile_packets_get_errors_with_offsets() {
    let mut s = server_with(&[2]);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", vec![]),
        ("unknown command", vec![5, 0]),
        ("short call", vec![0, 1, 0, 0]),
        (
            "name without NUL",
            [&[0u8, 1, 0, 0, 0][..], b"chat"].concat(),
        ),
        (
            "no count byte",
            [&[0u8, 0x0A, 0, 0, 0x80][..], b"chat\0", b"Lobby\0"].concat(),
        ),
        (
            "path offset past the end",
            [&[0u8, 0xFF, 0, 0, 0x80][..], b"chat\0", &[0]].concat(),
        ),
        (
            "path offset inside the name",
            [&[0u8, 0x06, 0, 0, 0x80][..], b"chat\0", &[0]].concat(),
        ),
        (
            "unknown path",
            [&[0u8, 0x0B, 0, 0, 0x80][..], b"chat\0", &[0], b"Nowhere\0"].concat(),
        ),
        (
            "forged count",
            [&[0u8, 0x0B, 0, 0, 0x80][..], b"chat\0", &[255], b"Lobby\0"].concat(),
        ),
        (
            "bad argument",
            [
                &[0u8, 0x0F, 0, 0, 0x80][..],
                b"chat\0",
                &[1, 99, 0, 0, 0],
                b"Lobby\0",
            ]
            .concat(),
        ),
        (
            "set without value",
            [&[1u8, 0x0A, 0, 0, 0x80][..], b"name\0", b"Lobby\0"].concat(),
        ),
        (
            "bad set value",
            [
                &[1u8, 0x0E, 0, 0, 0x80][..],
                b"name\0",
                &[4, 0, 0, 0],
                b"Lobby\0",
            ]
            .concat(),
        ),
        (
            "non-UTF-8 name",
            [&[0u8, 1, 0, 0, 0][..], &[0xFF, 0xFE, 0], &[0]].concat(),
        ),
        ("short simplify", vec![2, 1, 0]),
        ("short confirm", vec![3]),
        ("empty raw", vec![4]),
        (
            "unknown cache id",
            [&[0u8, 7, 0, 0, 0][..], b"chat\0", &[0]].concat(),
        ),
    ];
    for (name, packet) in &cases {
        s.receive(2, false, packet);
        let got = events(&mut s);
        let refused = match got.as_slice() {
            [Event::Error { peer: 2, .. }] => true,
            // Malformed arguments: the call's error when they are decoded.
            [Event::Rpc(c) | Event::Rset(c)] => c.from == 2 && c.variants().is_err(),
            _ => false,
        };
        assert!(refused, "{name}: {got:?}");
        assert!(outputs(&mut s).is_empty(), "{name}");
    }
    // The engine's `p_packet_len < 6` on a five-byte call reports where the packet ends.
    s.receive(2, false, &[0, 1, 0, 0, 0]);
    assert_eq!(
        error_of(&mut s),
        ProtocolError::Truncated {
            command: "REMOTE_CALL",
            offset: 5,
            needed: 1,
            len: 5
        }
    );
    // A sender that is not connected.
    s.receive(7, false, &[4, 1]);
    assert!(matches!(
        error_of(&mut s),
        ProtocolError::State { peer: 7, .. }
    ));
    // After all that, the session still works.
    s.receive(2, false, &[4, 1, 2]);
    assert!(matches!(
        events(&mut s).as_slice(),
        [Event::Raw { from: 2, .. }]
    ));
}

#[test]
fn client_session_drops_everyone_with_the_server() {
    let mut c = Session::client(5, Limits::default());
    c.declare(lobby());
    c.connected(1);
    c.connected(6);
    c.connected(5); // ourselves: ignored
    assert_eq!(
        events(&mut c),
        [Event::PeerConnected(1), Event::PeerConnected(6)]
    );
    // The server (master) may call a puppet method here.
    let mut p = Vec::new();
    wire::write_remote_call(&mut p, 0, Some("Lobby"), "moved", &[Variant::Int(3)]).unwrap();
    c.receive(1, false, &p);
    assert!(matches!(events(&mut c).as_slice(), [Event::Rpc(r)] if r.from == 1));
    // Another client may not.
    c.receive(6, false, &p);
    assert!(matches!(
        error_of(&mut c),
        ProtocolError::RemoteNotAllowed { peer: 6, .. }
    ));
    c.disconnected(1);
    assert_eq!(
        events(&mut c),
        [Event::PeerDisconnected(1), Event::PeerDisconnected(6)]
    );
    assert_eq!(c.peers().count(), 0);
}

#[test]
fn websocket_messages() {
    // `_make_pkt(SYS_ID, 1, 0, &id, 4)`: type 3, source 1, target 0, the id.
    assert_eq!(
        WsMessage::sys(wire::WS_SYS_ID, 0x0102_0304),
        [3, 1, 0, 0, 0, 0, 0, 0, 0, 4, 3, 2, 1]
    );
    let data = WsMessage {
        kind: wire::WS_SYS_NONE,
        source: 7,
        target: -1,
        payload: &[4, 1],
    }
    .to_bytes();
    assert_eq!(data, [0, 7, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 4, 1]);
    let m = WsMessage::parse(&data).unwrap();
    assert_eq!(
        (m.kind, m.source, m.target, m.payload),
        (0, 7, -1, &[4u8, 1][..])
    );
    assert!(matches!(
        WsMessage::parse(&data[..8]),
        Err(ProtocolError::Truncated { offset: 5, .. })
    ));
    assert!(WsMessage::parse(&[]).is_err());
    let short_sys = WsMessage::parse(&[1, 1, 0, 0, 0, 0, 0, 0, 0, 5]).unwrap();
    assert!(matches!(
        short_sys.sys_id(),
        Err(ProtocolError::Truncated {
            offset: 9,
            needed: 4,
            len: 10,
            ..
        })
    ));
}
