//! What a typed call holds once decoded.

use godot_serde_multiplayer::wire;

use crate::{HEAP, alone};

/// A typed call read straight from the packet holds nothing but the value itself: no
/// `Variant`s, no buffer of the arguments. Budget derived by hand: the name's 10 bytes and
/// the 8 keys' 64 bytes (`Vec<i64>` sized by the Array's count), 74 in all.
#[test]
fn typed_arguments_hold_only_the_value() {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Input {
        name: String,
        dir: godot_serde::Vector2,
        seq: i64,
        jump: bool,
        keys: Vec<i64>,
    }
    let _alone = alone();
    let input = Input {
        name: "player_one".into(),
        dir: godot_serde::Vector2::new(0.5, -0.5),
        seq: 123_456,
        jump: true,
        keys: vec![87, 65, 83, 68, 32, 16, 17, 69],
    };
    let mut packet = Vec::new();
    godot_serde_multiplayer::args::write_call(&mut packet, 1, None, 0, &input).unwrap();
    let wire::Packet::RemoteCall { args, .. } = wire::parse(&packet).unwrap() else {
        panic!("not a call")
    };
    // The counter is process-wide: a thread another test left (a client finishing its
    // disconnect) can add to one measurement, never take from it, so the least of three is
    // the decode's own.
    let held = (0..3)
        .map(|_| {
            let base = HEAP.current_usage();
            HEAP.reset_peak_usage();
            let typed: Input = godot_serde_multiplayer::args::decode(&args).unwrap();
            let held = HEAP.peak_usage().saturating_sub(base);
            drop(typed);
            held
        })
        .min()
        .unwrap_or(usize::MAX);
    let base = HEAP.current_usage();
    HEAP.reset_peak_usage();
    let list = args.decode().unwrap();
    let via_variants: Input = godot_serde_multiplayer::args::from_arguments("m", &list).unwrap();
    let held_variants = HEAP.peak_usage().saturating_sub(base);
    drop((via_variants, list));
    println!("typed decode peak: {held} bytes; through Variants: {held_variants} bytes");
    assert!(held <= 74, "{held} bytes");
}
