//! A node's RPC set as one enum (`#[derive(Rpcs)]`, `typed::RpcSet`): the table against the
//! hand-written one and the checksum derived by hand, the packets against those of the
//! string-typed API, decoding from a session's calls and straight from packet bytes, and the
//! errors of a call that is not in the set or does not fit.

use godot_serde::{PackedByteArray, Vector2};
use godot_serde_multiplayer::args;
use godot_serde_multiplayer::typed::RpcSet;
use godot_serde_multiplayer::{
    Event, Output, ProtocolError, RemoteCall, RpcMethod, RpcTable, Rpcs, Session, Settings,
    TransferMode, wire,
};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Rpcs, Debug, Clone, PartialEq)]
#[serde(rename_all = "snake_case")]
#[rpcs(node = "/root/Lobby")]
enum LobbyRpc {
    #[rpc(any_peer, reliable, call_local, channel = 1)]
    Hello {
        name: String,
    },
    #[rpc(any_peer, unreliable_ordered)]
    Move(Vector2),
    Welcome {
        players: Vec<String>,
        seed: i64,
    },
    #[rpc(authority, unreliable, channel = 3)]
    Tick,
    #[rpc(any_peer)]
    Avatar(PackedByteArray),
    #[rpc(any_peer)]
    Input(String, Vector2, i64, bool, Vec<i64>),
}

fn hand_table() -> RpcTable {
    RpcTable::new("Lobby")
        .with(
            RpcMethod::any_peer("hello")
                .transfer(TransferMode::Reliable)
                .call_local()
                .channel(1),
        )
        .with(RpcMethod::any_peer("move").transfer(TransferMode::UnreliableOrdered))
        .with(RpcMethod::authority("welcome"))
        .with(
            RpcMethod::authority("tick")
                .transfer(TransferMode::Unreliable)
                .channel(3),
        )
        .with(RpcMethod::any_peer("avatar"))
        .with(RpcMethod::any_peer("input"))
}

fn samples() -> Vec<LobbyRpc> {
    vec![
        LobbyRpc::Hello { name: "Ann".into() },
        LobbyRpc::Move(Vector2::new(1.5, -2.0)),
        LobbyRpc::Welcome {
            players: vec!["Ann".into(), "Bo".into()],
            seed: 1 << 40,
        },
        LobbyRpc::Tick,
        LobbyRpc::Avatar(PackedByteArray(vec![1, 2, 3])),
        LobbyRpc::Input("p".into(), Vector2::new(0.5, 0.5), 7, true, vec![1, 2, 3]),
    ]
}

/// The same call through the string-typed API: method name and argument tuple by hand.
fn by_hand(s: &mut Session, to: i32, call: &LobbyRpc) -> Result<(), ProtocolError> {
    let path = "Lobby";
    match call {
        LobbyRpc::Hello { name } => s.rpc(to, path, "hello", &(name,)),
        LobbyRpc::Move(v) => s.rpc(to, path, "move", &(v,)),
        LobbyRpc::Welcome { players, seed } => s.rpc(to, path, "welcome", &(players, seed)),
        LobbyRpc::Tick => s.rpc(to, path, "tick", &()),
        LobbyRpc::Avatar(bytes) => s.rpc(to, path, "avatar", &(bytes,)),
        LobbyRpc::Input(a, b, c, d, e) => s.rpc(to, path, "input", &(a, b, c, d, e)),
    }
}

fn outputs(s: &mut Session) -> Vec<Output> {
    std::iter::from_fn(|| s.poll_output()).collect()
}

/// The packets `s` queued, as (channel, mode, bytes).
fn packets(s: &mut Session) -> Vec<(u8, TransferMode, Vec<u8>)> {
    let packet = |out| match out {
        Output::Packet {
            channel,
            mode,
            data,
            ..
        } => Some((channel, mode, data)),
        _ => None,
    };
    outputs(s).into_iter().filter_map(packet).collect()
}

fn events(s: &mut Session) -> Vec<Event> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

#[test]
fn table_comes_from_the_enum() {
    let table = LobbyRpc::table();
    assert_eq!(table, hand_table());
    // Ids follow the sorted names; the checksum is md5("avatarhelloinputmovetickwelcome").
    assert_eq!(
        table.method_names(),
        ["avatar", "hello", "input", "move", "tick", "welcome"]
    );
    assert_eq!(table.md5(), "b73d9e517ba87170acf4f37fa1c47955");
    assert_eq!(LobbyRpc::Tick.method(), "tick");
    assert_eq!(
        LobbyRpc::gdscript_signature("welcome").as_deref(),
        Some("players: Array[String], seed: int")
    );
    assert_eq!(
        LobbyRpc::gdscript_signature("input").as_deref(),
        Some("arg0: String, arg1: Vector2, arg2: int, arg3: bool, arg4: Array[int]")
    );
    assert_eq!(LobbyRpc::gdscript_signature("tick").as_deref(), Some(""));
    assert_eq!(LobbyRpc::gdscript_signature("nope"), None);
}

#[test]
fn rpc_to_writes_the_packets_of_the_string_typed_api() {
    for call in samples() {
        let mut typed = Session::server(Settings::default());
        let mut hand = Session::server(Settings::default());
        for s in [&mut typed, &mut hand] {
            s.declare(hand_table());
            s.connected(7, std::time::Instant::now());
        }
        // Twice: the first call carries the path (SIMPLIFY_PATH before it), the second the id
        // once confirmed.
        for _ in 0..2 {
            typed.rpc_to(7, &call).unwrap();
            by_hand(&mut hand, 7, &call).unwrap();
            assert_eq!(outputs(&mut typed), outputs(&mut hand), "{call:?}");
            typed.receive(7, 0, TransferMode::Reliable, &[2, 1, 1, 0, 0, 0]);
            hand.receive(7, 0, TransferMode::Reliable, &[2, 1, 1, 0, 0, 0]);
        }
    }
}

#[test]
fn calls_decode_into_the_enum() {
    let mut client = Session::client(7, Settings::default());
    client.declare(LobbyRpc::table());
    client.connected(1, std::time::Instant::now());
    let mut server = Session::server(Settings::default());
    server.declare(LobbyRpc::table());
    server.connected(7, std::time::Instant::now());
    let _ = (events(&mut server), events(&mut client));
    let table = LobbyRpc::table();
    for call in samples() {
        // Authority methods go from the server (the node's authority), the others to it.
        let authority = table.methods()[usize::from(table.method_id(call.method()).unwrap())].mode
            == godot_serde_multiplayer::RpcMode::Authority;
        let (from, to, from_id) = if authority {
            (&mut server, &mut client, 1)
        } else {
            (&mut client, &mut server, 7)
        };
        from.rpc_to(if authority { 7 } else { 1 }, &call).unwrap();
        for (channel, mode, data) in packets(from) {
            // Straight from the bytes too, for the REMOTE_CALL.
            if let Ok(wire::Packet::RemoteCall { args, .. }) = wire::parse(&data) {
                assert_eq!(
                    LobbyRpc::from_args(call.method(), &args).as_ref(),
                    Ok(&call)
                );
            }
            to.receive(from_id, channel, mode, &data);
        }
        let got: Vec<LobbyRpc> = events(to)
            .into_iter()
            .map(|e| match e {
                Event::Rpc(rc) => rc.decode::<LobbyRpc>().unwrap(),
                other => panic!("{call:?}: {other:?}"),
            })
            .collect();
        assert_eq!(got, std::slice::from_ref(&call));
        // The confirmations back, so that both sides keep the path cache in step.
        for (channel, mode, data) in packets(to) {
            from.receive(if authority { 7 } else { 1 }, channel, mode, &data);
        }
        let _ = events(from);
    }
}

fn remote_call(method: &str, args: Vec<godot_serde::Variant>) -> RemoteCall {
    RemoteCall::godot4_call(7, "Lobby", method, &args).unwrap()
}

#[test]
fn a_call_outside_the_set_or_not_fitting_is_an_error() {
    use godot_serde::Variant;
    // A method the set does not have.
    match remote_call("kick", vec![]).decode::<LobbyRpc>() {
        Err(ProtocolError::NotInSet {
            method, methods, ..
        }) => {
            assert_eq!(method, "kick");
            assert_eq!(methods.len(), 6);
        }
        other => panic!("{other:?}"),
    }
    // Another node's call.
    let mut other = remote_call("hello", vec![Variant::from("Ann")]);
    other.path = "Game".into();
    assert!(matches!(
        other.decode::<LobbyRpc>(),
        Err(ProtocolError::NotInSet { .. })
    ));
    // Arguments that do not fit: a number for the name, a missing one, one too many.
    for args in [
        vec![Variant::Int(5)],
        vec![],
        vec![Variant::from("Ann"), Variant::Int(1)],
    ] {
        match remote_call("hello", args.clone()).decode::<LobbyRpc>() {
            Err(ProtocolError::ArgumentType { method, .. }) => assert_eq!(method, "hello"),
            other => panic!("{args:?}: {other:?}"),
        }
    }
    // In a serve loop: `None`, and the error is the caller's event.
    let mut s = Session::server(Settings::default());
    assert_eq!(s.call_of::<LobbyRpc>(&remote_call("kick", vec![])), None);
    assert!(matches!(
        events(&mut s).as_slice(),
        [Event::Error {
            peer: 7,
            error: ProtocolError::NotInSet { .. }
        }]
    ));
    // The unit variant and the bare PackedByteArray.
    assert_eq!(
        remote_call("tick", vec![]).decode::<LobbyRpc>(),
        Ok(LobbyRpc::Tick)
    );
    assert_eq!(
        remote_call(
            "avatar",
            vec![Variant::PackedByteArray(PackedByteArray(vec![9]))]
        )
        .decode::<LobbyRpc>(),
        Ok(LobbyRpc::Avatar(PackedByteArray(vec![9])))
    );
    // encode_method refuses a value that is no enum variant.
    assert!(matches!(
        args::encode_method(&5),
        Err(ProtocolError::Encode(_))
    ));
}

// ---- Godot 3 --------------------------------------------------------------------------------

mod godot3_set {
    use super::*;
    use godot_serde_multiplayer::godot3::{self, NodeTable, RemoteMode};
    use godot_serde_multiplayer::{Limits, Variant};

    #[derive(Serialize, Deserialize, Rpcs, Debug, Clone, PartialEq)]
    #[serde(rename_all = "snake_case")]
    #[rpcs(node = "/root/Lobby")]
    enum Lobby3 {
        #[rpc(any_peer)]
        Chat {
            text: String,
        },
        Moved(Vector2),
        #[rpc(any_peer, godot3 = "master")]
        Order(String, i64),
        #[rpc(any_peer, call_local)]
        Shout(String),
        // Unreliable: sent as rpc_unreliable_id (Godot 3 has no ordered unreliable mode).
        #[rpc(unreliable)]
        Ping(i64),
    }

    fn samples() -> Vec<Lobby3> {
        vec![
            Lobby3::Chat { text: "hi".into() },
            Lobby3::Moved(Vector2::new(1.0, -1.0)),
            Lobby3::Order("attack".into(), 1 << 33),
            Lobby3::Shout("HEY".into()),
            Lobby3::Ping(7),
        ]
    }

    fn by_hand(s: &mut godot3::Session, to: i32, call: &Lobby3) -> Result<bool, ProtocolError> {
        match call {
            Lobby3::Chat { text } => s.rpc(to, "Lobby", "chat", &(text,)),
            Lobby3::Moved(v) => s.rpc(to, "Lobby", "moved", &(v,)),
            Lobby3::Order(what, n) => s.rpc(to, "Lobby", "order", &(what, n)),
            Lobby3::Shout(text) => s.rpc(to, "Lobby", "shout", &(text,)),
            Lobby3::Ping(n) => s.rpc_unreliable(to, "Lobby", "ping", &(n,)),
        }
    }

    #[test]
    fn node_table_comes_from_the_enum() {
        // any_peer: remote; authority (the default): puppet; godot3 = "master" kept;
        // any_peer + call_local: remotesync.
        let want = NodeTable::new("/root/Lobby")
            .method("chat", RemoteMode::Remote)
            .method("moved", RemoteMode::Puppet)
            .method("order", RemoteMode::Master)
            .method("shout", RemoteMode::RemoteSync)
            .method("ping", RemoteMode::Puppet);
        assert_eq!(Lobby3::node_table(), want);
    }

    #[test]
    fn rpc_to_writes_the_packets_of_the_string_typed_api_and_calls_decode() {
        for call in samples() {
            let mut typed = godot3::Session::server(Limits::default());
            let mut hand = godot3::Session::server(Limits::default());
            for s in [&mut typed, &mut hand] {
                s.declare(Lobby3::node_table());
                s.connected(5);
                while s.poll_event().is_some() {}
            }
            let sent = typed.rpc_to(5, &call).unwrap();
            assert_eq!(sent, by_hand(&mut hand, 5, &call).unwrap(), "{call:?}");
            let a: Vec<_> = std::iter::from_fn(|| typed.poll_output()).collect();
            let b: Vec<_> = std::iter::from_fn(|| hand.poll_output()).collect();
            assert_eq!(a, b, "{call:?}");
            // The arguments straight from the REMOTE_CALL's bytes.
            let mut calls = 0;
            for out in &a {
                let godot_serde_multiplayer::Output::Packet { data, .. } = out else {
                    continue;
                };
                if let Ok(godot3::wire::Packet::RemoteCall {
                    method,
                    count,
                    args,
                    args_offset,
                    ..
                }) = godot3::wire::parse(data)
                {
                    assert_eq!(
                        Lobby3::from_args3(method, count, args, args_offset).as_ref(),
                        Ok(&call)
                    );
                    calls += 1;
                }
            }
            assert_eq!(calls, 1, "{call:?}: {a:?}");
        }
    }

    #[test]
    fn a_remote_decodes_or_is_an_error() {
        let remote = |member: &str, args: Vec<Variant>| {
            godot_serde_multiplayer::RemoteCall::godot3_call(5, "Lobby", member, &args).unwrap()
        };
        assert_eq!(
            remote("order", vec![Variant::from("go"), Variant::Int(2)]).decode::<Lobby3>(),
            Ok(Lobby3::Order("go".into(), 2))
        );
        assert!(matches!(
            remote("kick", vec![]).decode::<Lobby3>(),
            Err(ProtocolError::NotInSet { .. })
        ));
        match remote("order", vec![Variant::Int(2)]).decode::<Lobby3>() {
            Err(ProtocolError::ArgumentType { method, .. }) => assert_eq!(method, "order"),
            other => panic!("{other:?}"),
        }
        let mut s = godot3::Session::server(Limits::default());
        assert_eq!(s.call_of::<Lobby3>(&remote("kick", vec![])), None);
        assert!(matches!(
            std::iter::from_fn(|| s.poll_event())
                .collect::<Vec<_>>()
                .as_slice(),
            [godot_serde_multiplayer::Event::Error { peer: 5, .. }]
        ));
    }
}
