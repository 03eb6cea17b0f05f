//! What writing typed arguments allocates beyond the packet: a call of one PackedByteArray
//! goes bare (no count, no Variant header), in place in the packet's buffer.

use godot_serde::PackedByteArray;
use godot_serde_multiplayer::args;
use peak_alloc::PeakAlloc;

/// The array's length: far above anything else the calls allocate.
const LEN: usize = 64 * 1024;

/// The heap held at peak beyond what was held before, during `f`.
fn peak_during(f: impl FnOnce()) -> usize {
    let before = PeakAlloc.current_usage();
    PeakAlloc.reset_peak_usage();
    f();
    PeakAlloc.peak_usage().saturating_sub(before)
}

#[test]
fn one_byte_array_goes_bare_without_a_copy() {
    let _alone = crate::alone();
    let value = (PackedByteArray(vec![7; LEN]),);
    // The packet's buffer is there before: the header (3 bytes) and the Variant (8 + LEN)
    // fit, so writing the call allocates nothing of the array's size. A copy of the bare
    // bytes would hold LEN more at peak.
    let mut packet = Vec::with_capacity(LEN + 64);
    let held = peak_during(|| args::write_call(&mut packet, 1, None, 0, &value).unwrap());
    assert_eq!(packet.len(), 3 + LEN, "meta, node id, method id, the bytes");
    assert!(held < LEN / 2, "write_call held {held} bytes at peak");
    // `encode` starts with a small buffer that grows to the Variant (8 + LEN bytes): about
    // LEN at peak; a copy of the bare bytes beside it would make that 2 * LEN.
    let held = peak_during(|| {
        let encoded = args::encode(&value).unwrap();
        assert!(encoded.byte_only_or_none);
        assert_eq!(encoded.bytes.len(), LEN);
    });
    assert!(held < LEN + LEN / 2, "encode held {held} bytes at peak");
}
