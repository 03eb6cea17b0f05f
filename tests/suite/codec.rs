//! The tokio integration: `GodotCodec`, async frame reading/writing, the async example server.

use crate::common;

use common::hex;

#[allow(dead_code)]
#[path = "../../examples/async_server.rs"]
mod async_server;

use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use godot_serde::codec::GodotCodec;
use godot_serde::frame::{Framing, to_frame_bytes};
use godot_serde::{Config, ErrorKind, Variant, Vector2};
use tokio::io::AsyncWriteExt;
use tokio_util::codec::{Decoder, Encoder, Framed, FramedRead};

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn encoder_writes_stream_peer_frames() {
    let mut codec = GodotCodec::<Variant>::new(Config::godot4());
    let mut dst = BytesMut::new();
    codec.encode(1, &mut dst).unwrap();
    codec.encode("hi", &mut dst).unwrap();
    assert_eq!(
        &dst[..],
        &hex("08000000 02000000 01000000 0c000000 04000000 02000000 68690000")[..]
    );
    let mut be =
        GodotCodec::<i32>::with_framing(Framing::new(Config::godot3()).with_big_endian(true));
    let mut dst = BytesMut::new();
    be.encode(&1, &mut dst).unwrap();
    assert_eq!(&dst[..], &hex("00000008 02000000 01000000")[..]);
    assert_eq!(be.decode(&mut dst).unwrap().unwrap().unwrap(), 1);
    assert!(dst.is_empty());
}

#[test]
fn decoder_byte_by_byte_and_coalesced() {
    let mut stream = to_frame_bytes(&(1, "two"), Config::godot4()).unwrap();
    stream.extend(to_frame_bytes(&Vector2::new(1.0, 2.0), Config::godot4()).unwrap());
    // One byte at a time.
    let mut codec = GodotCodec::<Variant>::new(Config::godot4());
    let mut src = BytesMut::new();
    let mut got = Vec::new();
    for b in &stream {
        src.extend_from_slice(&[*b]);
        while let Some(v) = codec.decode(&mut src).unwrap() {
            got.push(v.unwrap());
        }
    }
    assert_eq!(got.len(), 2);
    assert_eq!(got[0][1].as_str(), Some("two"));
    assert_eq!(got[1], Variant::Vector2(Vector2::new(1.0, 2.0)));
    // All at once.
    let mut src = BytesMut::from(&stream[..]);
    assert!(codec.decode(&mut src).unwrap().unwrap().is_ok());
    assert!(codec.decode(&mut src).unwrap().unwrap().is_ok());
    assert!(codec.decode(&mut src).unwrap().is_none());
    assert!(codec.decode_eof(&mut src).unwrap().is_none());
}

#[test]
fn decoder_errors() {
    let framing = Framing::new(Config::godot4()).with_max_frame_size(8);
    let mut codec = GodotCodec::<Variant>::with_framing(framing);
    assert_eq!(codec.framing().max_frame_size(), 8);
    let mut src = BytesMut::from(&hex("09000000")[..]);
    let err = codec.decode(&mut src).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::FrameTooLarge { len: 9, max: 8 }
    ));
    // Truncated at the end of the stream: how many bytes are missing.
    let mut codec = GodotCodec::<Variant>::new(Config::godot4());
    let mut src = BytesMut::from(&hex("08000000 02000000 01")[..]);
    assert!(codec.decode(&mut src).unwrap().is_none());
    let err = codec.decode_eof(&mut src).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::UnexpectedEof { needed: 3 }),
        "{err:?}"
    );
    // A bad frame is consumed and is an item-level error; the next one decodes.
    let mut codec = GodotCodec::<u8>::new(Config::godot4());
    let mut src = BytesMut::from(&to_frame_bytes(&1000, Config::godot4()).unwrap()[..]);
    src.extend_from_slice(&to_frame_bytes(&7, Config::godot4()).unwrap());
    assert!(codec.decode(&mut src).unwrap().unwrap().is_err());
    assert_eq!(codec.decode(&mut src).unwrap().unwrap().unwrap(), 7);
}

/// Godot sends `put_var({"Chat": 42})` (a Chat whose text is an int) then `put_var("Bye")`:
/// the first message is an item-level error, the stream goes on and "Bye" arrives. A frame
/// whose value needs more bytes than its prefix gives is per message too; an oversized
/// prefix ends the stream.
#[test]
fn framed_stream_survives_a_message_that_does_not_decode() {
    use async_server::protocol::ClientMsg;
    rt().block_on(async {
        let (mut godot, server) = tokio::io::duplex(256);
        let mut framed = Framed::new(server, GodotCodec::<ClientMsg>::new(Config::godot4()));
        let framing = Framing::new(Config::godot4());
        let mut chat = std::collections::BTreeMap::new();
        chat.insert("Chat", 42);
        framing.write_async(&mut godot, &chat).await.unwrap();
        // A frame of 8 bytes holding a String header that announces 5 bytes of text.
        godot
            .write_all(&hex("08000000 04000000 05000000"))
            .await
            .unwrap();
        framing.write_async(&mut godot, "Bye").await.unwrap();
        // A prefix over the 16 MiB default maximum: the stream cannot be framed any more.
        godot.write_all(&hex("ffffffff")).await.unwrap();

        let err = framed.next().await.unwrap().unwrap().unwrap_err();
        assert!(
            err.to_string()
                .starts_with("Chat: invalid type: integer `42`, expected a string"),
            "{err}"
        );
        let err = framed.next().await.unwrap().unwrap().unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::FrameTooShort { len: 8, .. }),
            "{err:?}"
        );
        assert!(!err.is_eof());
        let bye = framed.next().await.unwrap().unwrap().unwrap();
        assert!(matches!(bye, ClientMsg::Bye), "{bye:?}");
        let fatal = framed.next().await.unwrap().unwrap_err();
        assert!(
            matches!(fatal.kind(), ErrorKind::FrameTooLarge { .. }),
            "{fatal:?}"
        );
        assert!(framed.next().await.is_none());
    });
}

#[test]
fn framed_read_over_a_trickling_stream() {
    rt().block_on(async {
        // A 3-byte pipe: every read returns at most 3 bytes, frames arrive in pieces.
        let (mut tx, rx) = tokio::io::duplex(3);
        let writer = tokio::spawn(async move {
            let framing = Framing::new(Config::godot3());
            for i in 0..20 {
                framing
                    .write_async(&mut tx, &(i, "x".repeat(i)))
                    .await
                    .unwrap();
            }
        });
        let mut frames = FramedRead::new(rx, GodotCodec::<(usize, String)>::new(Config::godot3()));
        for i in 0..20 {
            let (n, s) = frames.next().await.unwrap().unwrap().unwrap();
            assert_eq!((n, s.len()), (i, i));
        }
        assert!(frames.next().await.is_none());
        writer.await.unwrap();
    });
}

#[test]
fn async_read_and_write() {
    rt().block_on(async {
        let framing = Framing::new(Config::godot4());
        let (mut a, mut b) = tokio::io::duplex(1024);
        framing.write_async(&mut a, "Godot Rules!!!").await.unwrap();
        a.write_all(&hex("18000000 04000000")).await.unwrap();
        drop(a);
        let mut raw = Vec::new();
        let payload = framing.read_payload_async(&mut b).await.unwrap().unwrap();
        raw.extend(payload);
        assert_eq!(
            raw,
            hex("04000000 0e000000 476f646f 74205275 6c657321 21210000")
        );
        let err = framing.read_async::<_, String>(&mut b).await.unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnexpectedEof { needed: 20 }),
            "{err:?}"
        );
        assert_eq!(framing.read_payload_async(&mut b).await.unwrap(), None);
    });
}

#[test]
fn async_example_server_session() {
    use async_server::protocol::{ClientMsg, Item, Loadout, Player, Summary, Welcome, welcome};
    use godot_serde::{Color, PackedStringArray, Rect2, Vector3};
    rt().block_on(async {
        let (client, server) = tokio::io::duplex(16);
        let config = Config::godot4();
        let session = tokio::spawn(async_server::handle_client(server, config));
        let hello = Player {
            name: "Bo".into(),
            level: 1,
            position: Vector2::new(0.0, 0.0),
            inventory: vec![Item {
                name: "map".into(),
                count: 2,
            }],
            loadout: Loadout {
                color: Color::new(0.0, 0.0, 1.0, 1.0),
                slots: vec![],
                area: Rect2::new(Vector2::new(0.0, 0.0), Vector2::new(1.0, 1.0)),
            },
            tags: PackedStringArray(vec![]),
            guild: None,
        };
        let mut framed = Framed::new(client, GodotCodec::<Variant>::new(config));
        framed.send(ClientMsg::Hello(hello.clone())).await.unwrap();
        let got: Welcome =
            godot_serde::from_variant(&framed.next().await.unwrap().unwrap().unwrap()).unwrap();
        assert_eq!(got, welcome(&hello));
        assert_eq!(got.player.inventory[0].count, 4);
        assert_eq!(got.spawn, Vector3::new(10.0, 0.0, -5.0));
        // Three frames in one write, as the Godot client does.
        let mut changed = got.player.clone();
        changed.level = 99;
        let framing = Framing::new(config);
        let mut joined = Vec::new();
        framing
            .to_bytes_into(&ClientMsg::Update(changed.clone()), &mut joined)
            .unwrap();
        framing
            .to_bytes_into(&ClientMsg::Chat("hi".into()), &mut joined)
            .unwrap();
        // A Chat whose text is an int: skipped, the session goes on.
        let mut bad = std::collections::BTreeMap::new();
        bad.insert("Chat", 42);
        framing.to_bytes_into(&bad, &mut joined).unwrap();
        framing.to_bytes_into(&ClientMsg::Bye, &mut joined).unwrap();
        framed.get_mut().write_all(&joined).await.unwrap();
        let summary: Summary =
            godot_serde::from_variant(&framed.next().await.unwrap().unwrap().unwrap()).unwrap();
        assert_eq!(summary.updates, 1);
        assert_eq!(summary.chats, vec!["hi".to_string()]);
        assert_eq!(summary.player, changed);
        let session = session.await.unwrap().unwrap();
        assert_eq!(session.hello, hello);
        assert_eq!(session.updates, vec![changed]);
        assert_eq!(session.skipped, 1);
    });
}

/// The async example's serve loop against hostile clients: a forged 1 GiB frame, connections
/// past the client cap, clients that never speak. Each is dropped with the bound the example
/// documents, and a good client is still served.
#[test]
fn async_serve_loop_bounds_hostile_clients_and_keeps_serving() {
    use async_server::protocol::{ClientMsg, ServeLimits, Summary};
    use std::time::Duration;
    use tokio::io::AsyncReadExt;
    use tokio::net::TcpStream;

    /// Whether the server closes `stream` (end of stream or reset) within `within`.
    async fn closed_by_server(stream: &mut TcpStream, within: Duration) -> bool {
        let mut buf = [0u8; 64];
        loop {
            match tokio::time::timeout(within, stream.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) => return true,
                Ok(Ok(_)) => {}
                Err(_) => return false, // still open
            }
        }
    }

    rt().block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let limits = ServeLimits {
            max_clients: 2,
            idle: Duration::from_millis(400),
            max_frame: 64 * 1024,
        };
        let config = Config::godot4();
        let server = tokio::spawn(async_server::serve(listener, config, limits));

        // A frame that claims 1 GiB: refused, the connection closed.
        let mut forged = TcpStream::connect(addr).await.unwrap();
        forged.write_all(&(1u32 << 30).to_le_bytes()).await.unwrap();
        assert!(closed_by_server(&mut forged, Duration::from_secs(5)).await);
        tokio::time::sleep(Duration::from_millis(100)).await;

        // Two silent clients fill the slots; a third is closed at once.
        let mut silent = Vec::new();
        for _ in 0..2 {
            silent.push(TcpStream::connect(addr).await.unwrap());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        let mut third = TcpStream::connect(addr).await.unwrap();
        assert!(
            closed_by_server(&mut third, Duration::from_millis(300)).await,
            "a client past max_clients was served"
        );
        // The silent ones are dropped after `idle`.
        for s in &mut silent {
            assert!(
                closed_by_server(s, Duration::from_secs(5)).await,
                "a silent client was kept past the idle timeout"
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;

        // A good client does the whole exchange.
        let good = TcpStream::connect(addr).await.unwrap();
        let mut framed = Framed::new(good, GodotCodec::<Variant>::new(config));
        let hello = async_server::protocol::welcome(&async_server::protocol::Player {
            name: "Cy".into(),
            level: 1,
            position: Vector2::new(0.0, 0.0),
            inventory: vec![],
            loadout: async_server::protocol::Loadout {
                color: godot_serde::Color::new(0.0, 0.0, 1.0, 1.0),
                slots: vec![],
                area: godot_serde::Rect2::new(Vector2::new(0.0, 0.0), Vector2::new(1.0, 1.0)),
            },
            tags: godot_serde::PackedStringArray(vec![]),
            guild: None,
        })
        .player;
        framed.send(ClientMsg::Hello(hello)).await.unwrap();
        assert!(framed.next().await.unwrap().unwrap().is_ok()); // the Welcome
        framed.send(ClientMsg::Bye).await.unwrap();
        let summary: Summary =
            godot_serde::from_variant(&framed.next().await.unwrap().unwrap().unwrap()).unwrap();
        assert_eq!((summary.updates, summary.chats.len()), (0, 0));
        server.abort();
    });
}
