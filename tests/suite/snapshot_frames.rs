//! Snapshot helpers on framed streams: `dump::annotate_frames`, and `dump::annotate` on a
//! user-style packet, as reviewed insta snapshots (top-level `snapshots/`).

use godot_serde::frame::{Framing, to_frame_bytes};
use godot_serde::{Config, PackedStringArray, Vector3, dump};
use serde::Serialize;

#[derive(Serialize)]
struct Spawn {
    id: u32,
    at: Vector3,
    tags: PackedStringArray,
}

fn spawn() -> Spawn {
    Spawn {
        id: 3,
        at: Vector3::new(1.0, 0.5, -4.0),
        tags: PackedStringArray(vec!["boss".into()]),
    }
}

#[test]
fn user_packet_snapshot() {
    let packet = Config::godot3().to_bytes(&spawn()).unwrap();
    snap!(
        "frames_user_packet_godot3",
        dump::annotate(&packet, Config::godot3())
    );
}

#[test]
fn stream_snapshot_with_a_truncated_last_frame() {
    let config = Config::godot4();
    let mut stream = to_frame_bytes(&spawn(), config).unwrap();
    stream.extend(to_frame_bytes(&true, config).unwrap());
    let last = to_frame_bytes("truncated", config).unwrap();
    stream.extend(&last[..last.len() - 5]);
    let dump = dump::annotate_frames(&stream, config);
    // A Config and the Framing it makes render the same (as `annotate` takes a Config).
    assert_eq!(dump, dump::annotate_frames(&stream, Framing::new(config)));
    assert!(
        dump.ends_with("!! truncated frame: 5 more bytes needed at byte 123\n"),
        "{dump}"
    );
    snap!("frames_stream_godot4", dump);
}

#[test]
fn stream_with_big_endian_prefixes_and_an_oversized_frame() {
    let framing = Framing::new(Config::godot4())
        .with_big_endian(true)
        .with_max_frame_size(16);
    let mut stream = framing.to_bytes(&1).unwrap();
    stream.extend([0, 1, 0, 0]); // 65536 bytes announced
    assert_eq!(
        dump::annotate_frames(&stream, framing),
        "\
00 00 00 08  frame 0, length 8
02 00 00 00    int
01 00 00 00      1
!! frame of 65536 bytes exceeds the maximum frame size of 16 bytes at byte 12
"
    );
    // Only a partial prefix.
    assert_eq!(
        dump::annotate_frames(&[8, 0], Framing::new(Config::godot4())),
        "!! truncated frame: 2 more bytes needed at byte 2\n"
    );
    assert_eq!(
        dump::annotate_frames(&[], Framing::new(Config::godot4())),
        ""
    );
}
