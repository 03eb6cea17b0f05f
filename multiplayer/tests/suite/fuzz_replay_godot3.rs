//! Replays the `godot3` fuzz target's committed seeds (`fuzz/seeds/godot3/`), every prefix of
//! each, and deterministic mutations, through the target's own body.

use crate::fuzz_godot3;
use crate::replay;

#[test]
fn seeds_and_their_prefixes_run_clean() {
    replay::prefixes("godot3", 6, fuzz_godot3::session);
}

#[test]
fn mutated_seeds_run_clean() {
    replay::mutations("godot3", 0x9e37_79b9_7f4a_7c15, fuzz_godot3::session);
}
