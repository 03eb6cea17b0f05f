//! The sans-IO core against byte layouts derived by hand from the engine's sources (and
//! confirmed live by `live_enet.rs`): what the session writes, what it accepts.

use crate::lobby;

use godot_serde::{PackedByteArray, Variant};
use godot_serde_multiplayer::args::{decode_one, encode_one, encode_variants};
use godot_serde_multiplayer::{
    Event, Output, ProtocolError, RpcTable, Session, Settings, TransferMode,
};
use lobby::lobby;

const LOBBY_MD5: &[u8; 32] = b"576fb79fa0de0e6f50dd7d79cd2b5865";

fn server() -> Session {
    let mut s = Session::server(Settings::default());
    s.declare(lobby());
    s
}

fn outputs(s: &mut Session) -> Vec<Output> {
    std::iter::from_fn(|| s.poll_output()).collect()
}

fn events(s: &mut Session) -> Vec<Event> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

fn packet(to: i32, channel: u8, mode: TransferMode, data: &[u8]) -> Output {
    Output::Packet {
        to,
        channel,
        mode,
        data: data.to_vec(),
    }
}

#[test]
fn md5_of_sorted_names_matches_godot() {
    // md5("chandoneechohelloorderedpingtakeunrelwelcome"), the live client's checksum.
    assert_eq!(lobby().md5().as_bytes(), LOBBY_MD5);
    assert_eq!(lobby().method_id("welcome"), Some(8));
    assert_eq!(lobby().method_id("chan"), Some(0));
    // md5 of the empty string for a node without RPCs.
    assert_eq!(RpcTable::new("X").md5(), "d41d8cd98f00b204e9800998ecf8427e");
}

#[test]
fn first_rpc_sends_simplify_path_then_the_path_form() {
    let mut s = server();
    s.connected(5, crate::clock::at_ms(0));
    assert_eq!(events(&mut s), [Event::PeerConnected(5)]);
    s.rpc(5, "Lobby", "welcome", &("Rusty", 5i64)).unwrap();
    let mut simplify = vec![0x01];
    simplify.extend_from_slice(LOBBY_MD5);
    simplify.extend_from_slice(&[0, 1, 0, 0, 0]);
    simplify.extend_from_slice(b"Lobby\0");
    #[rustfmt::skip]
    let call = [
        0x20,                   // REMOTE_CALL, 32-bit node id, 8-bit method id
        0x19, 0, 0, 0x80,       // 0x80000000 | 25: the path starts at byte 25
        8,                      // welcome
        2,                      // two arguments
        4, 0, 0, 0, 5, 0, 0, 0, b'R', b'u', b's', b't', b'y', 0, 0, 0, // String "Rusty"
        0x02, 5,                // int 5, 8 bits
        b'L', b'o', b'b', b'b', b'y', 0,
    ];
    assert_eq!(
        outputs(&mut s),
        [
            packet(5, 0, TransferMode::Reliable, &simplify),
            packet(5, 0, TransferMode::Reliable, &call)
        ]
    );
    // CONFIRM_PATH (valid, id 1), then the compact form.
    s.receive(5, 0, TransferMode::Reliable, &[0x02, 1, 1, 0, 0, 0]);
    assert_eq!(events(&mut s), []);
    s.rpc(5, "Lobby", "echo", &(300i64, true)).unwrap();
    // meta 0, node 1, method 2, count 2, int 300 in 16 bits (meta 0x42), true (0x81).
    assert_eq!(
        outputs(&mut s),
        [packet(
            5,
            0,
            TransferMode::Reliable,
            &[0, 1, 2, 2, 0x42, 0x2c, 0x01, 0x81]
        )]
    );
}

#[test]
fn modes_and_channels_follow_the_table() {
    let mut s = server();
    s.connected(5, crate::clock::at_ms(0));
    // A confirmation of an id we never assigned is ignored, as Godot does.
    s.receive(5, 0, TransferMode::Reliable, &[0x02, 1, 1, 0, 0, 0]);
    assert_eq!(events(&mut s), [Event::PeerConnected(5)]);
    s.rpc(5, "Lobby", "unrel", &(1i64,)).unwrap();
    let out = outputs(&mut s);
    assert!(matches!(
        out.last(),
        Some(Output::Packet {
            mode: TransferMode::Unreliable,
            channel: 0,
            ..
        })
    ));
    s.rpc(5, "Lobby", "chan", &(1i64,)).unwrap();
    let out = outputs(&mut s);
    assert!(matches!(
        out.last(),
        Some(Output::Packet {
            mode: TransferMode::Reliable,
            channel: 2,
            ..
        })
    ));
}

#[test]
fn no_arguments_and_one_byte_array_set_the_byte_only_flag() {
    let mut s = server();
    s.connected(5, crate::clock::at_ms(0));
    s.receive(5, 0, TransferMode::Reliable, &[0x02, 1, 1, 0, 0, 0]);
    s.rpc(5, "Lobby", "done", &()).unwrap();
    s.receive(5, 0, TransferMode::Reliable, &[0x02, 1, 1, 0, 0, 0]);
    let _ = outputs(&mut s);
    s.rpc(5, "Lobby", "done", &()).unwrap();
    // 0x80: byte-only flag, node 1, method 1, nothing else.
    assert_eq!(
        outputs(&mut s),
        [packet(5, 0, TransferMode::Reliable, &[0x80, 1, 1])]
    );
    let bytes = Variant::PackedByteArray(PackedByteArray(vec![9, 8]));
    s.rpc_variants(5, "Lobby", "done", &[bytes]).unwrap();
    assert_eq!(
        outputs(&mut s),
        [packet(5, 0, TransferMode::Reliable, &[0x80, 1, 1, 9, 8])]
    );
}

#[test]
fn compressed_ints_and_bools() {
    // (value, bytes): the meta byte is type 2 | width << 6.
    #[rustfmt::skip]
    let table: [(i64, &[u8]); 8] = [
        (0, &[0x02, 0]),
        (-128, &[0x02, 0x80]),
        (127, &[0x02, 0x7f]),
        (128, &[0x42, 0x80, 0]),
        (-32769, &[0x82, 0xff, 0x7f, 0xff, 0xff]),
        (i64::from(i32::MAX), &[0x82, 0xff, 0xff, 0xff, 0x7f]),
        (1 << 40, &[0xc2, 0, 0, 0, 0, 0, 1, 0, 0]),
        (i64::MIN, &[0xc2, 0, 0, 0, 0, 0, 0, 0, 0x80]),
    ];
    for (value, bytes) in table {
        let mut out = Vec::new();
        encode_one(&Variant::Int(value), &mut out).unwrap();
        assert_eq!(out, bytes, "{value}");
        assert_eq!(
            decode_one(bytes).unwrap(),
            (Variant::Int(value), bytes.len())
        );
    }
    let mut out = Vec::new();
    encode_one(&Variant::Bool(true), &mut out).unwrap();
    encode_one(&Variant::Bool(false), &mut out).unwrap();
    assert_eq!(out, [0x81, 0x01]);
    // Every other type is var_to_bytes: a float 1.5 as 32 bits.
    let mut out = Vec::new();
    encode_one(&Variant::Float(1.5), &mut out).unwrap();
    assert_eq!(out, [3, 0, 0, 0, 0, 0, 0xc0, 0x3f]);
    assert!(matches!(
        encode_variants(&vec![Variant::Nil; 256]),
        Err(ProtocolError::TooManyArguments(256))
    ));
}

#[test]
fn received_call_becomes_an_event_with_typed_args() {
    let mut s = server();
    s.connected(7, crate::clock::at_ms(0));
    let mut simplify = vec![0x01];
    simplify.extend_from_slice(LOBBY_MD5);
    simplify.extend_from_slice(&[0, 3, 0, 0, 0]);
    simplify.extend_from_slice(b"Lobby\0");
    s.receive(7, 0, TransferMode::Reliable, &simplify);
    // Confirmed as valid (1) for id 3.
    assert_eq!(
        outputs(&mut s),
        [packet(7, 0, TransferMode::Reliable, &[0x02, 1, 3, 0, 0, 0])]
    );
    s.receive(7, 1, TransferMode::Unreliable, &[0, 3, 5, 2, 0x02, 5, 0x81]);
    let evs = events(&mut s);
    let Some(Event::Rpc(call)) = evs.last() else {
        panic!("{evs:?}")
    };
    assert_eq!(
        (call.from, call.path.as_str(), call.method.as_str()),
        (7, "Lobby", "ping")
    );
    assert_eq!(call.args_as::<(i64, bool)>().unwrap(), (5, true));
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Ping {
        a: i64,
        b: bool,
    }
    assert_eq!(call.args_as::<Ping>().unwrap(), Ping { a: 5, b: true });
    assert!(matches!(
        call.args_as::<(String,)>(),
        Err(ProtocolError::ArgumentType { .. })
    ));
    // In a serve loop: the typed arguments, or `None` with the mismatch as the caller's event.
    assert_eq!(s.args_of::<(i64, bool)>(call), Some((5, true)));
    assert_eq!(events(&mut s), []);
    assert_eq!(s.args_of::<(String,)>(call), None);
    assert!(
        matches!(
            events(&mut s).as_slice(),
            [Event::Error {
                peer: 7,
                error: ProtocolError::ArgumentType { method, .. }
            }] if method == "ping"
        ),
        "the mismatch is peer 7's event"
    );
}

#[test]
fn authority_methods_refuse_clients() {
    let mut s = server();
    s.connected(7, crate::clock::at_ms(0));
    // welcome (8) with the path form: only the authority (1) may call it.
    let call = [
        0x20, 0x07, 0, 0, 0x80, 8, 0, b'L', b'o', b'b', b'b', b'y', 0,
    ];
    s.receive(7, 0, TransferMode::Reliable, &call);
    let evs = events(&mut s);
    assert!(
        matches!(
            evs.last(),
            Some(Event::Error {
                peer: 7,
                error: ProtocolError::NotAllowed { .. }
            })
        ),
        "{evs:?}"
    );
    let text = match evs.last() {
        Some(Event::Error { error, .. }) => error.to_string(),
        _ => String::new(),
    };
    assert_eq!(
        text,
        "peer 7 may not call \"welcome\" on node \"Lobby\" (mode Authority, authority 1)"
    );
}

#[test]
fn checksum_mismatch_names_the_node_and_methods() {
    let mut s = server();
    s.connected(7, crate::clock::at_ms(0));
    let mut simplify = vec![0x01];
    simplify.extend_from_slice(&[b'0'; 32]);
    simplify.extend_from_slice(&[0, 3, 0, 0, 0]);
    simplify.extend_from_slice(b"Lobby\0");
    s.receive(7, 0, TransferMode::Reliable, &simplify);
    // As Godot: cached and confirmed, with the verdict 0.
    assert_eq!(
        outputs(&mut s),
        [packet(7, 0, TransferMode::Reliable, &[0x02, 0, 3, 0, 0, 0])]
    );
    let evs = events(&mut s);
    let Some(Event::Error { error, .. }) = evs.last() else {
        panic!("{evs:?}")
    };
    let text = error.to_string();
    assert!(
        text.contains("\"Lobby\"") && text.contains("\"welcome\"") && text.contains("576fb79f"),
        "{text}"
    );
}

#[test]
fn undeclared_calls_say_what_is_declared() {
    let mut s = server();
    s.connected(7, crate::clock::at_ms(0));
    let err = s.rpc(7, "Lobby", "nope", &()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("no RPC \"nope\" declared on node \"Lobby\" (declared: [\"chan\""),
        "{err}"
    );
    let err = s.rpc(7, "Other", "x", &()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "no RPC \"x\" declared on node \"Other\" (declared: [])"
    );
    // A target that is not connected (it left while its events were queued) is no error of
    // ours: nothing is sent, and it is that peer's event.
    outputs(&mut s);
    events(&mut s);
    s.rpc(9, "Lobby", "done", &()).unwrap();
    s.send_bytes(9, b"x", TransferMode::Reliable, 0).unwrap();
    assert_eq!(outputs(&mut s), []);
    let gone = Event::Error {
        peer: 9,
        error: ProtocolError::NoSuchPeer(9),
    };
    assert_eq!(events(&mut s), [gone.clone(), gone]);
    // Ours stay errors, whichever the target: an undeclared method, an empty payload, and
    // ourselves as the target.
    assert_eq!(
        s.rpc(1, "Lobby", "done", &()),
        Err(ProtocolError::NoSuchPeer(1))
    );
    assert!(matches!(
        s.rpc(9, "Lobby", "nope", &()),
        Err(ProtocolError::NotDeclared { .. })
    ));
    assert_eq!(
        s.send_bytes(9, b"", TransferMode::Reliable, 0),
        Err(ProtocolError::EmptyPayload("RAW"))
    );
}

#[test]
fn server_relays_and_announces_peers() {
    let mut s = server();
    s.connected(5, crate::clock::at_ms(0));
    s.connected(6, crate::clock::at_ms(0));
    // 6 joining: ADD_PEER(6) to 5, ADD_PEER(5) to 6.
    assert_eq!(
        outputs(&mut s),
        [
            packet(5, 0, TransferMode::Reliable, &[7, 1, 6, 0, 0, 0]),
            packet(6, 0, TransferMode::Reliable, &[7, 1, 5, 0, 0, 0]),
        ]
    );
    // 5 relays RAW to 6: the server rewrites the peer field to the source.
    s.receive(5, 1, TransferMode::Unreliable, &[7, 3, 6, 0, 0, 0, 3, 42]);
    assert_eq!(
        outputs(&mut s),
        [packet(
            6,
            1,
            TransferMode::Unreliable,
            &[7, 3, 5, 0, 0, 0, 3, 42]
        )]
    );
    // To everyone (0): relayed to 6 and processed by the server as from 5.
    s.receive(5, 0, TransferMode::Reliable, &[7, 3, 0, 0, 0, 0, 3, 43]);
    assert_eq!(
        outputs(&mut s),
        [packet(
            6,
            0,
            TransferMode::Reliable,
            &[7, 3, 5, 0, 0, 0, 3, 43]
        )]
    );
    let evs = events(&mut s);
    assert!(
        matches!(evs.last(), Some(Event::Raw { from: 5, data, .. }) if data == &[43]),
        "{evs:?}"
    );
    // To a peer that left: dropped silently, as Godot.
    s.receive(5, 0, TransferMode::Reliable, &[7, 3, 99, 0, 0, 0, 3, 44]);
    assert_eq!(outputs(&mut s), []);
    // 5 leaves: DEL_PEER(5) to 6.
    s.disconnected(5);
    assert_eq!(
        outputs(&mut s),
        [packet(6, 0, TransferMode::Reliable, &[7, 2, 5, 0, 0, 0])]
    );
    assert_eq!(events(&mut s).last(), Some(&Event::PeerDisconnected(5)));
}

#[test]
fn authentication_then_admission() {
    let mut s = Session::server(Settings::default().with_auth(true));
    s.connected(5, crate::clock::at_ms(0));
    assert_eq!(events(&mut s), [Event::PeerAuthenticating(5)]);
    // Anything but SYS AUTH before authenticating is refused.
    s.receive(5, 0, TransferMode::Reliable, &[3, 1]);
    assert!(matches!(
        events(&mut s).as_slice(),
        [Event::Error {
            peer: 5,
            error: ProtocolError::State { .. }
        }]
    ));
    s.receive(5, 0, TransferMode::Reliable, &[7, 0, b'h', b'i']);
    assert_eq!(
        events(&mut s),
        [Event::AuthData {
            peer: 5,
            data: b"hi".to_vec()
        }]
    );
    s.send_auth(5, b"ok").unwrap();
    assert!(s.complete_auth(5));
    assert_eq!(
        outputs(&mut s),
        [
            packet(5, 0, TransferMode::Reliable, &[7, 0, b'o', b'k']),
            packet(5, 0, TransferMode::Reliable, &[7, 0])
        ]
    );
    assert_eq!(events(&mut s), []);
    // Auth data twice (both handed over before the application answered): the second
    // completion is the peer's doing, answered `false` with nothing sent (Godot: "The
    // authentication session was already marked as completed"), not an error to `?`.
    assert!(!s.complete_auth(5));
    assert_eq!(outputs(&mut s), []);
    s.receive(5, 0, TransferMode::Reliable, &[7, 0]);
    assert_eq!(events(&mut s), [Event::PeerConnected(5)]);
    // Once admitted, or for a peer that never connected: nothing to complete, nothing sent;
    // auth data for it is dropped and reported as that peer's event.
    assert!(!s.complete_auth(5));
    assert!(!s.complete_auth(77));
    s.send_auth(5, b"late").unwrap();
    assert_eq!(outputs(&mut s), []);
    assert_eq!(
        events(&mut s),
        [Event::Error {
            peer: 5,
            error: ProtocolError::NoSuchPeer(5)
        }]
    );
}

#[test]
fn authentication_times_out() {
    let mut s = Session::server(
        Settings::default()
            .with_auth(true)
            .with_auth_timeout_ms(3000),
    );
    s.connected(5, crate::clock::at_ms(1000));
    s.handle_timeout(crate::clock::at_ms(3999));
    assert_eq!(outputs(&mut s), []);
    s.handle_timeout(crate::clock::at_ms(4000));
    assert_eq!(outputs(&mut s), [Output::Disconnect(5)]);
    assert_eq!(
        events(&mut s),
        [Event::PeerAuthenticating(5), Event::AuthenticationFailed(5)]
    );
}

#[test]
fn client_session_relays_through_the_server() {
    let mut c = Session::client(1234, Settings::default());
    c.declare(lobby());
    c.connected(1, crate::clock::at_ms(0));
    c.receive(1, 0, TransferMode::Reliable, &[7, 1, 77, 0, 0, 0]); // ADD_PEER 77
    assert_eq!(
        events(&mut c),
        [Event::PeerConnected(1), Event::PeerConnected(77)]
    );
    c.send_bytes(77, &[1, 2], TransferMode::Reliable, 0)
        .unwrap();
    // SYS RELAY to 77, sent to the server.
    assert_eq!(
        outputs(&mut c),
        [packet(
            1,
            0,
            TransferMode::Reliable,
            &[7, 3, 77, 0, 0, 0, 3, 1, 2]
        )]
    );
    // A relayed RAW from 77 arrives as from 77.
    c.receive(1, 0, TransferMode::Reliable, &[7, 3, 77, 0, 0, 0, 3, 5]);
    assert!(matches!(
        events(&mut c).as_slice(),
        [Event::Raw { from: 77, .. }]
    ));
    // Only the server may announce peers.
    c.receive(77, 0, TransferMode::Reliable, &[7, 1, 78, 0, 0, 0]);
    assert!(matches!(events(&mut c).as_slice(), [Event::Error { .. }]));
}
