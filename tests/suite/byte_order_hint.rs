//! Issue 27.6: a peer whose length prefixes are in the other byte order
//! (`StreamPeer.big_endian = true` on one side only) gets a "frame too large" error; the
//! error says that the prefix fits in the other byte order.

use godot_serde::frame::{FrameDecoder, Framing};
use godot_serde::{Config, ErrorKind};

/// put_var(1) with `big_endian = true`: prefix 8 big-endian, then int 1 (the value stays
/// little-endian). Read little-endian the prefix is 0x08000000 = 134 217 728.
const BIG_ENDIAN_FRAME: [u8; 12] = [0, 0, 0, 8, 2, 0, 0, 0, 1, 0, 0, 0];

const HINT: &str = "; in the other byte order the length prefix is 8: does the peer set \
                    StreamPeer.big_endian differently (Framing::with_big_endian)?";

#[test]
fn too_large_prefix_hints_at_the_byte_order() {
    let little = Framing::new(Config::godot4());
    let e = little.read_payload(&BIG_ENDIAN_FRAME[..]).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::FrameTooLarge {
            len: 134_217_728,
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        format!("frame of 134217728 bytes exceeds the maximum frame size of 8388608 bytes{HINT}")
    );
    // The sans-IO decoder says the same.
    let mut dec = FrameDecoder::new(Config::godot4());
    dec.feed(&BIG_ENDIAN_FRAME);
    let e = dec.next::<i32>().unwrap_err();
    assert!(e.to_string().contains(HINT), "{e}");
    // The other way round: a little-endian prefix read big-endian.
    let big = Framing::new(Config::godot4()).with_big_endian(true);
    let e = big
        .read_payload(&[8u8, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0][..])
        .unwrap_err();
    assert!(e.to_string().ends_with(HINT), "{e}");
    // Read with the right byte order, the frame is fine.
    let (v, rest) = big.take_from_bytes::<i32>(&BIG_ENDIAN_FRAME).unwrap();
    assert_eq!((v, rest.len()), (1, 0));
}

#[test]
fn no_hint_when_the_swapped_prefix_does_not_fit_either() {
    let little = Framing::new(Config::godot4());
    // 0xffffff7f either way is over the maximum; 0x00000001 swapped would be under 4 bytes.
    for prefix in [[0x7f, 0xff, 0xff, 0xff], [0x01, 0x00, 0x00, 0x10]] {
        let e = little.decode_prefix(prefix).unwrap_err();
        assert!(!e.to_string().contains("byte order"), "{prefix:?}: {e}");
    }
    // An encoded value over the maximum is too large whatever its size's bytes: no hint
    // (0x00900000 bytes, 9 MiB: swapped 0x9000 would fit).
    let e = little.to_bytes(&"x".repeat(0x0090_0000 - 8)).unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::FrameTooLarge {
                len: 0x0090_0000,
                ..
            }
        ),
        "{e}"
    );
    assert!(!e.to_string().contains("byte order"), "{e}");
}
