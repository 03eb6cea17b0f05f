//! Replays the `session` fuzz target's committed seeds (`fuzz/seeds/session/`), every prefix
//! of each, and deterministic mutations, through the target's own body.

use crate::fuzz_body;
use crate::replay;

#[test]
fn seeds_and_their_prefixes_run_clean() {
    replay::prefixes("session", 9, fuzz_body::session);
}

#[test]
fn mutated_seeds_run_clean() {
    replay::mutations("session", 0x2545_f491_4f6c_dd1d, fuzz_body::session);
}
