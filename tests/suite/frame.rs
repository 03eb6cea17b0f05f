//! Framing (spec §7, §8.4), the incremental frame decoder and `store_var` save files.

use crate::common;

use common::{hex, to_hex};
use godot_serde::frame::{
    self, DEFAULT_MAX_FRAME_SIZE, Endian, FrameDecoder, Framing, read_frame, to_frame_bytes,
    write_frame,
};
use godot_serde::save::{SaveReader, SaveWriter};
use godot_serde::{Config, ErrorKind, PackedStringArray, Variant, Vector2};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Item {
    name: String,
    count: u32,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct State {
    id: u32,
    position: Vector2,
    items: Vec<Item>,
    tags: PackedStringArray,
}

fn state(id: u32) -> State {
    State {
        id,
        position: Vector2::new(1.5, -2.0),
        items: vec![Item {
            name: "potion".into(),
            count: id * 3,
        }],
        tags: PackedStringArray(vec!["a".into(), "bc".into()]),
    }
}

const ALL: [Config; 2] = [Config::godot3(), Config::godot4()];

// ---------------------------------------------------------------- spec §8.4, exact bytes

#[test]
fn stream_peer_put_var_int() {
    for config in ALL {
        let bytes = to_frame_bytes(&1, config).unwrap();
        assert_eq!(to_hex(&bytes), "080000000200000001000000");
        assert_eq!(read_frame::<_, i32>(&bytes[..], config).unwrap(), 1);
    }
}

#[test]
fn stream_peer_big_endian_prefix_only() {
    let framing = Framing::new(Config::godot4()).with_big_endian(true);
    assert_eq!(framing.endian(), Endian::Big);
    let bytes = framing.to_bytes(&1).unwrap();
    assert_eq!(bytes, hex("00000008 02000000 01000000"));
    assert_eq!(framing.read::<_, i64>(&bytes[..]).unwrap(), 1);
    // Read with the wrong byte order, the prefix claims 0x08000000 = 128 MiB.
    let err = read_frame::<_, i64>(&bytes[..], Config::godot4()).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::FrameTooLarge { len: 0x0800_0000, max } if *max == DEFAULT_MAX_FRAME_SIZE),
        "{err:?}"
    );
}

#[test]
fn file_access_store_var_string() {
    for config in ALL {
        let bytes = to_frame_bytes("hi", config).unwrap();
        assert_eq!(bytes, hex("0c000000 04000000 02000000 68690000"));
        let mut file = Vec::new();
        SaveWriter::new(&mut file, config).write("hi").unwrap();
        assert_eq!(file, bytes);
    }
}

#[test]
fn packet_peer_stream_and_udp() {
    let framing = Framing::new(Config::godot4());
    assert_eq!(
        framing.to_bytes(&true).unwrap(),
        hex("08000000 01000000 01000000")
    );
    let packet = framing.to_packet(&true).unwrap();
    assert_eq!(packet, hex("01000000 01000000"));
    assert!(framing.from_packet::<bool>(&packet).unwrap());
}

#[test]
fn godot_rules_string() {
    let expected = hex("18000000 04000000 0e000000 476f646f 74205275 6c657321 21210000");
    for config in ALL {
        assert_eq!(to_frame_bytes("Godot Rules!!!", config).unwrap(), expected);
        let mut out = Vec::new();
        write_frame(&mut out, "Godot Rules!!!", config).unwrap();
        assert_eq!(out, expected);
        let (s, rest): (&str, _) = Framing::new(config).take_from_bytes(&expected).unwrap();
        assert_eq!((s, rest.len()), ("Godot Rules!!!", 0));
    }
}

// ---------------------------------------------------------------- writing

#[test]
fn to_bytes_into_appends_and_restores_on_error() {
    let framing = Framing::new(Config::godot3());
    let mut buf = vec![0xAA];
    framing.to_bytes_into(&1, &mut buf).unwrap();
    framing.to_bytes_into("hi", &mut buf).unwrap();
    assert_eq!(
        buf,
        hex("aa 08000000 02000000 01000000 0c000000 04000000 02000000 68690000")
    );
    let before = buf.clone();
    // Vector2i does not exist in Godot 3.
    let err = framing
        .to_bytes_into(&godot_serde::Vector2i::new(1, 2), &mut buf)
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::TypeNotInTarget { .. }));
    assert_eq!(buf, before);
}

#[test]
fn writing_enforces_the_maximum() {
    let framing = Framing::new(Config::godot4()).with_max_frame_size(8);
    assert_eq!(framing.to_bytes(&1).unwrap().len(), 12); // exactly 8 bytes: fine
    let err = framing.to_bytes(&(1, 2)).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::FrameTooLarge { len: 24, max: 8 }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "frame of 24 bytes exceeds the maximum frame size of 8 bytes"
    );
    let err = framing.to_packet(&(1, 2)).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::FrameTooLarge { len: 24, max: 8 }
    ));
    let err = framing
        .from_packet::<Variant>(&hex("1c000000 00000000 00000000"))
        .unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::FrameTooLarge { len: 12, max: 8 }
    ));
}

#[test]
fn prefix_helpers() {
    let le = Framing::new(Config::godot4());
    let be = le.with_endian(Endian::Big);
    assert_eq!(le.encode_prefix(0x0102).unwrap(), [2, 1, 0, 0]);
    assert_eq!(be.encode_prefix(0x0102).unwrap(), [0, 0, 1, 2]);
    assert_eq!(le.decode_prefix([2, 1, 0, 0]).unwrap(), 0x0102);
    assert_eq!(be.decode_prefix([0, 0, 1, 2]).unwrap(), 0x0102);
    let unlimited = le.with_max_frame_size(usize::MAX);
    assert_eq!(
        unlimited.decode_prefix([0xff; 4]).unwrap(),
        u32::MAX as usize
    );
    let err = unlimited.encode_prefix(u32::MAX as usize + 1).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::FrameTooLarge { .. }));
}

// ---------------------------------------------------------------- reading from a reader

#[test]
fn read_frame_reads_exactly_one_frame() {
    let mut stream = Vec::new();
    for id in 0..3 {
        write_frame(&mut stream, &state(id), Config::godot4()).unwrap();
    }
    let mut reader = &stream[..];
    for id in 0..3 {
        let s: State = read_frame(&mut reader, Config::godot4()).unwrap();
        assert_eq!(s, state(id));
    }
    assert!(reader.is_empty());
    let err = read_frame::<_, State>(&mut reader, Config::godot4()).unwrap_err();
    assert!(err.is_eof());
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof { needed: 4 }));
}

#[test]
fn read_frame_truncated_reports_missing_bytes() {
    let bytes = to_frame_bytes("Godot Rules!!!", Config::godot4()).unwrap();
    let framing = Framing::new(Config::godot4());
    // Inside the prefix.
    let err = framing.read_payload(&bytes[..3]).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof { needed: 1 }));
    // Inside the payload: 28 bytes in all, 20 given.
    let err = framing.read_variant(&bytes[..20]).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof { needed: 8 }));
    assert_eq!(err.offset(), Some(20));
    assert!(err.is_eof());
    assert_eq!(
        err.to_string(),
        "unexpected end of input, 8 more bytes needed (byte 20)"
    );
    assert_eq!(framing.read_payload(&b""[..]).unwrap(), None);
}

#[test]
fn read_frame_checks_the_size_before_allocating() {
    // A prefix claiming 4 GiB followed by nothing: rejected from the prefix alone.
    let err = read_frame::<_, Variant>(&hex("ffffffff")[..], Config::godot4()).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::FrameTooLarge {
            len: 0xffff_ffff,
            ..
        }
    ));
    // Under a raised limit the same prefix is accepted, and the payload is read only as it
    // arrives: the reader ending early is an EOF with the exact count.
    let framing = Framing::new(Config::godot4()).with_max_frame_size(usize::MAX);
    let err = framing.read_payload(&hex("ffffffff 00")[..]).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof { needed } if *needed == 0xffff_fffe));
}

#[test]
fn frame_shorter_than_its_value() {
    // The prefix says 4 bytes, but an int needs 8: more input would not help.
    let bytes = hex("04000000 02000000 01000000");
    let err = read_frame::<_, i32>(&bytes[..], Config::godot4()).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::FrameTooShort { len: 4, needed: 4 }),
        "{err:?}"
    );
    assert!(!err.is_eof());
    // Longer than its value: trailing bytes inside the frame are an error too.
    let bytes = hex("0c000000 02000000 01000000 00000000");
    let err = read_frame::<_, i32>(&bytes[..], Config::godot4()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::TrailingBytes { count: 4 }));
}

// ---------------------------------------------------------------- FrameDecoder

fn stream_of(states: &[State], framing: Framing) -> Vec<u8> {
    let mut out = Vec::new();
    for s in states {
        framing.to_bytes_into(s, &mut out).unwrap();
    }
    out
}

#[test]
fn decoder_one_byte_at_a_time() {
    let states: Vec<State> = (1..=4).map(state).collect();
    for config in ALL {
        for big in [false, true] {
            let framing = Framing::new(config).with_big_endian(big);
            let stream = stream_of(&states, framing);
            let mut dec = FrameDecoder::with_framing(framing);
            let mut got = Vec::new();
            for b in &stream {
                dec.feed(std::slice::from_ref(b));
                while let Some(s) = dec.next::<State>().unwrap() {
                    got.push(s);
                }
            }
            assert_eq!(got, states);
            assert_eq!(dec.buffered(), 0);
            assert_eq!(dec.missing_bytes(), 0);
            dec.finish().unwrap();
        }
    }
}

#[test]
fn decoder_every_chunk_size() {
    let states: Vec<State> = (1..=5).map(state).collect();
    let framing = Framing::new(Config::godot4());
    let stream = stream_of(&states, framing);
    for chunk in 1..=stream.len() {
        let mut dec = FrameDecoder::new(Config::godot4());
        let mut got = Vec::new();
        for part in stream.chunks(chunk) {
            dec.feed(part);
            while let Some(s) = dec.next::<State>().unwrap() {
                got.push(s);
            }
        }
        assert_eq!(got, states, "chunk size {chunk}");
        dec.finish().unwrap();
    }
}

#[test]
fn decoder_coalesced_frames_and_variants() {
    let config = Config::godot4();
    let mut stream = to_frame_bytes(&1, config).unwrap();
    stream.extend(to_frame_bytes("hi", config).unwrap());
    stream.extend(to_frame_bytes(&state(2), config).unwrap());
    let mut dec = FrameDecoder::new(config);
    dec.feed(&stream);
    assert_eq!(dec.next_variant().unwrap(), Some(Variant::Int(1)));
    assert_eq!(
        dec.next_frame().unwrap(),
        Some(&hex("04000000 02000000 68690000")[..])
    );
    let v = dec.next_variant().unwrap().unwrap();
    assert_eq!(v["items"][0]["name"].as_str(), Some("potion"));
    assert_eq!(v["items"][0]["count"].as_int(), Some(6));
    assert_eq!(dec.next_variant().unwrap(), None);
}

#[test]
fn decoder_missing_bytes() {
    let bytes = hex("18000000 04000000 0e000000 476f646f 74205275 6c657321 21210000");
    let mut dec = FrameDecoder::new(Config::godot4());
    assert_eq!(dec.missing_bytes(), 0);
    dec.feed(&bytes[..2]);
    assert_eq!(dec.missing_bytes(), 2); // the rest of the prefix
    dec.feed(&bytes[2..10]);
    assert_eq!(dec.missing_bytes(), 18); // 24 - 6
    assert_eq!(dec.buffered(), 10);
    let err = dec.finish().unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::UnexpectedEof { needed: 18 }
    ));
    assert_eq!(err.offset(), Some(10));
    assert!(err.is_eof());
    assert_eq!(dec.next::<String>().unwrap(), None);
    dec.feed(&bytes[10..]);
    assert_eq!(dec.missing_bytes(), 0);
    // A whole frame not taken yet.
    let err = dec.finish().unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::TrailingBytes { count: 28 }));
    assert_eq!(dec.next::<String>().unwrap().unwrap(), "Godot Rules!!!");
    dec.finish().unwrap();
}

#[test]
fn decoder_frame_too_large_is_sticky_and_immediate() {
    let mut dec = FrameDecoder::new(Config::godot4()).with_max_frame_size(16);
    dec.feed(&to_frame_bytes(&1, Config::godot4()).unwrap());
    dec.feed(&hex("11000000")); // 17 bytes announced: over the limit, nothing else sent
    assert_eq!(dec.next::<i32>().unwrap(), Some(1));
    for _ in 0..2 {
        let err = dec.next::<Variant>().unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::FrameTooLarge { len: 17, max: 16 }),
            "{err:?}"
        );
        assert_eq!(err.offset(), Some(12));
    }
    // Default limit: 8 MiB.
    let mut dec = FrameDecoder::new(Config::godot4());
    dec.feed(&((8 << 20) as u32).to_le_bytes());
    assert_eq!(dec.next::<Variant>().unwrap(), None);
    let mut dec = FrameDecoder::new(Config::godot4());
    dec.feed(&((8 << 20) as u32 + 1).to_le_bytes());
    assert!(matches!(
        dec.next::<Variant>().unwrap_err().kind(),
        ErrorKind::FrameTooLarge {
            len: 8388609,
            max: 8388608
        }
    ));
}

#[test]
fn decoder_skips_a_bad_frame() {
    let config = Config::godot4();
    let mut dec = FrameDecoder::new(config);
    dec.feed(&to_frame_bytes("not a number", config).unwrap());
    dec.feed(&to_frame_bytes(&7, config).unwrap());
    let err = dec.next::<u32>().unwrap_err();
    assert!(err.to_string().contains("expected u32"), "{err}");
    assert_eq!(dec.next::<u32>().unwrap(), Some(7));
}

#[test]
fn decoder_big_endian() {
    let mut dec = FrameDecoder::new(Config::godot3()).with_big_endian(true);
    assert_eq!(dec.framing().endian(), Endian::Big);
    dec.feed(&hex(
        "00000008 02000000 01000000 0000000c 04000000 02000000 68690000",
    ));
    assert_eq!(dec.next::<i32>().unwrap(), Some(1));
    assert_eq!(dec.next::<String>().unwrap().as_deref(), Some("hi"));
}

#[test]
fn decoder_long_stream_stays_compact() {
    let config = Config::godot4();
    let one = to_frame_bytes(&state(9), config).unwrap();
    let mut dec = FrameDecoder::new(config);
    for _ in 0..10_000 {
        dec.feed(&one[..5]);
        assert!(dec.next::<State>().unwrap().is_none());
        dec.feed(&one[5..]);
        assert_eq!(dec.next::<State>().unwrap(), Some(state(9)));
    }
    assert_eq!(dec.buffered(), 0);
}

// ---------------------------------------------------------------- save files

#[test]
fn save_file_round_trip() {
    let mut file = Vec::new();
    let mut w = SaveWriter::new(&mut file, Config::godot3());
    w.write(&state(1)).unwrap();
    w.write("checkpoint").unwrap();
    w.write(&vec![1, 2, 3]).unwrap();
    w.flush().unwrap();
    let mut r = SaveReader::new(&file[..], Config::godot3());
    assert_eq!(r.next_value::<State>().unwrap(), Some(state(1)));
    assert_eq!(r.index(), 1);
    let first_len = to_frame_bytes(&state(1), Config::godot3()).unwrap().len();
    assert_eq!(r.offset(), first_len);
    let rest: Vec<Variant> = r.map(Result::unwrap).collect();
    assert_eq!(rest.len(), 2);
    assert_eq!(rest[0].as_str(), Some("checkpoint"));
    assert_eq!(rest[1][2].as_int(), Some(3));
    let all = SaveReader::new(&file[..], Config::godot3())
        .read_all()
        .unwrap();
    assert_eq!(all.len(), 3);
}

#[test]
fn save_file_errors() {
    let config = Config::godot4();
    let mut file = to_frame_bytes("x", config).unwrap();
    // A value with an unknown type id (200), then a good one.
    file.extend(hex("04000000 c8000000"));
    file.extend(to_frame_bytes(&5, config).unwrap());
    file.extend(hex("0c000000 04000000"));
    let mut r = SaveReader::new(&file[..], config);
    assert_eq!(r.next_variant().unwrap(), Some("x".into()));
    let err = r.next_variant().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::UnknownType { id: 200, .. }),
        "{err:?}"
    );
    assert_eq!(r.next_variant().unwrap(), Some(Variant::Int(5)));
    let err = r.next_variant().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::UnexpectedEof { needed: 8 }),
        "{err:?}"
    );
    assert_eq!(err.offset(), Some(file.len()));
    assert_eq!(r.next_variant().unwrap(), None);
}

#[test]
fn save_file_big_endian() {
    let framing = Framing::new(Config::godot4()).with_big_endian(true);
    let mut w = SaveWriter::with_framing(Vec::new(), framing);
    w.write("hi").unwrap();
    let file = w.into_inner();
    assert_eq!(file, hex("0000000c 04000000 02000000 68690000"));
    let r = SaveReader::with_framing(&file[..], framing);
    assert_eq!(r.read_all().unwrap(), vec![Variant::from("hi")]);
}

#[test]
fn module_is_reexported_consistently() {
    assert_eq!(frame::PREFIX_LEN, 4);
    assert_eq!(DEFAULT_MAX_FRAME_SIZE, 8 * 1024 * 1024);
    assert_eq!(Framing::default(), Framing::new(Config::default()));
    assert_eq!(Framing::from(Config::godot3()).config(), Config::godot3());
}

#[cfg(feature = "base64")]
#[test]
fn marshalls_base64() {
    use godot_serde::marshalls::{from_base64, to_base64};
    // Spec §8.4: Marshalls.variant_to_base64(1).
    assert_eq!(to_base64(&1, Config::godot4()).unwrap(), "AgAAAAEAAAA=");
    assert_eq!(to_base64(&1, Config::godot3()).unwrap(), "AgAAAAEAAAA=");
    assert_eq!(
        from_base64::<i64>("AgAAAAEAAAA=", Config::godot4()).unwrap(),
        1
    );
    // base64 of 04000000 02000000 68690000 ("hi").
    assert_eq!(
        to_base64("hi", Config::godot4()).unwrap(),
        "BAAAAAIAAABoaQAA"
    );
    let s = to_base64(&state(4), Config::godot3()).unwrap();
    assert_eq!(
        from_base64::<State>(&s, Config::godot3()).unwrap(),
        state(4)
    );
    let err = from_base64::<i64>("AgAA!AEAAAA=", Config::godot4()).unwrap_err();
    assert!(err.to_string().starts_with("invalid base64"), "{err}");
}

/// Issue 11.7: `feed` buffered whatever it was given, so an application that kept feeding
/// (after an error, or without taking frames) grew the buffer without bound (64 MiB fed,
/// 96 MiB held). It now refuses bytes once a whole frame's worth is waiting.
#[test]
fn decoder_buffer_is_bounded() {
    // Limit 16 bytes of value: at most 20 bytes buffered before more is refused.
    let one = to_frame_bytes(&1, Config::godot4()).unwrap(); // 12 bytes
    let mut dec = FrameDecoder::new(Config::godot4()).with_max_frame_size(16);
    assert_eq!(dec.buffer_limit(), 20);
    dec.try_feed(&one).unwrap(); // 12 buffered
    dec.try_feed(&one).unwrap(); // 24 buffered: accepted, 12 < 20 were waiting
    let e = dec.try_feed(&one).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::BufferFull {
                refused: 12,
                buffered: 24,
                limit: 20
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.offset(), Some(24));
    assert_eq!(dec.buffered(), 24);
    // Taking a frame makes room again.
    assert_eq!(dec.next::<i32>().unwrap(), Some(1));
    dec.try_feed(&one).unwrap();
    assert_eq!(dec.next::<i32>().unwrap(), Some(1));
    assert_eq!(dec.next::<i32>().unwrap(), Some(1));
    assert_eq!(dec.next::<i32>().unwrap(), None);
    dec.finish().unwrap();

    // `feed` drops what it refuses; the frames before the gap are still returned, then the
    // gap is reported for good, by `finish` too.
    let mut dec = FrameDecoder::new(Config::godot4()).with_max_frame_size(16);
    for _ in 0..1000 {
        dec.feed(&one);
    }
    assert_eq!(dec.buffered(), 24);
    assert_eq!(dec.next::<i32>().unwrap(), Some(1));
    assert_eq!(dec.next::<i32>().unwrap(), Some(1));
    for _ in 0..2 {
        let e = dec.next::<i32>().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::BufferFull { .. }), "{e:?}");
    }
    assert!(matches!(
        dec.finish().unwrap_err().kind(),
        ErrorKind::BufferFull { .. }
    ));

    // After a frame too large, nothing more is buffered: 64 MiB fed in 64 KiB chunks.
    let mut dec = FrameDecoder::new(Config::godot4());
    dec.feed(&((8 << 20) as u32 + 1).to_le_bytes());
    let chunk = vec![0u8; 64 << 10];
    for _ in 0..1024 {
        dec.feed(&chunk);
    }
    assert_eq!(dec.buffered(), 4);
    let e = dec.try_feed(&chunk).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::FrameTooLarge { .. }), "{e:?}");
    assert!(matches!(
        dec.next::<Variant>().unwrap_err().kind(),
        ErrorKind::FrameTooLarge { .. }
    ));

    // Default limit: a whole 8 MiB frame may be buffered, and a chunk more, never a third.
    let mut dec = FrameDecoder::new(Config::godot4());
    dec.feed(&((8 << 20) as u32).to_le_bytes());
    let mut fed = 4;
    while dec.try_feed(&chunk).is_ok() {
        fed += chunk.len();
        assert!(fed <= (8 << 20) + 4 + chunk.len(), "{fed}");
    }
    assert_eq!(dec.buffered(), fed);
    assert!(dec.buffered() <= dec.buffer_limit() + chunk.len());
}
