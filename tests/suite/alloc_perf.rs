//! Allocation budget of the hot paths, on the benchmark datasets: encoding into a reused
//! buffer allocates nothing; decoding allocates only the owned outputs.

#![allow(missing_docs, clippy::unwrap_used)]

#[path = "../../benches/data/mod.rs"]
mod data;

use data::{GameState, GameStateRef, Message};

// Allocations are counted per thread (tests run on several threads) by the suite's global
// allocator, `heap::Tracking` (main.rs).
use crate::heap::allocations;

/// Heap blocks an owned `GameState` holds: its Vecs and Strings (none is empty).
fn owned_blocks(state: &GameState) -> usize {
    2 + state
        .players
        .iter()
        .map(|p| 1 + 1 + p.items.len() + 1 + p.tags.len())
        .sum::<usize>()
}

#[test]
fn encoding_into_a_reused_buffer_allocates_nothing() {
    let state = data::game_state();
    let mut buf = Vec::new();
    godot_serde::to_bytes_into(&state, &mut buf).unwrap();
    for config in [
        godot_serde::Config::godot4(),
        godot_serde::Config::godot3(),
        godot_serde::Config::godot4().with_typed_containers(true),
    ] {
        config.to_bytes_into(&state, &mut buf).unwrap();
        let (n, ()) = allocations(|| {
            buf.clear();
            config.to_bytes_into(&state, &mut buf).unwrap();
        });
        assert_eq!(n, 0, "{config:?}");
    }
    let msg = data::message();
    godot_serde::to_bytes_into(&msg, &mut buf).unwrap();
    let (n, ()) = allocations(|| {
        buf.clear();
        godot_serde::to_bytes_into(&msg, &mut buf).unwrap();
    });
    assert_eq!(n, 0);
}

#[test]
fn decoding_allocates_only_the_owned_outputs() {
    let state = data::game_state();
    let bytes = godot_serde::to_bytes(&state).unwrap();

    let (n, owned) = allocations(|| godot_serde::from_bytes::<GameState>(&bytes).unwrap());
    assert_eq!(owned, state);
    assert_eq!(n, owned_blocks(&state));

    // Borrowing the strings leaves only the Vecs.
    let (n, borrowed) =
        allocations(|| godot_serde::from_bytes::<GameStateRef<'_>>(&bytes).unwrap());
    assert_eq!(borrowed.players[3].name, state.players[3].name);
    assert_eq!(n, 2 + 2 * state.players.len());

    let msg = data::message();
    let bytes = godot_serde::to_bytes(&msg).unwrap();
    let (n, back) = allocations(|| godot_serde::from_bytes::<Message>(&bytes).unwrap());
    assert_eq!(back, msg);
    assert_eq!(
        n,
        1 + 1 + msg.player.items.len() + 1 + msg.player.tags.len()
    );
}

/// Decoding into a dynamic `Variant` allocates per container, not per short text: a
/// Dictionary takes one block (its entries, with their count), an Array its box and its
/// items, a PackedStringArray its `Vec` and each `String`; keys and names (up to 24 bytes,
/// `CompactString`) and math values take none.
#[test]
fn decoding_into_variant_allocates_per_container() {
    let state = data::game_state();
    let bytes = godot_serde::to_bytes(&state).unwrap();
    // The first decode on a thread also sets up the stack-growth check (`stacker`).
    godot_serde::from_bytes::<godot_serde::Variant>(&bytes).unwrap();
    let (n, v) = allocations(|| godot_serde::from_bytes::<godot_serde::Variant>(&bytes).unwrap());
    assert_eq!(
        v["players"][7]["name"],
        godot_serde::Variant::from("player_00007")
    );
    let per_player: usize = state
        .players
        .iter()
        .map(|p| 1 + 2 + p.items.len() + 1 + p.tags.len())
        .sum();
    // The top Dictionary and its two Arrays, then the players and the projectiles; plus 2
    // reallocations where a size hint is cut: the 10 000 projectiles' Array grows twice past
    // the 4096 entries preallocated at most. (Every path charges the size hints the same
    // input, `wire::Item`, so no Dictionary finds the budget spent.)
    let blocks = 1 + 2 + 2 + per_player + state.projectiles.len();
    assert_eq!(n, blocks + 2);
    // The bytes-to-Variant reader makes the same blocks and reallocations; the keys it
    // remembers take two blocks more.
    let (direct, w) = allocations(|| godot_serde::variant_from_bytes(&bytes).unwrap());
    assert_eq!(w, v);
    assert_eq!(direct, blocks + 2 + 2);
    println!(
        "Variant decode: {n} allocations, {:.2} per player",
        per_player as f64 / state.players.len() as f64
    );
}
