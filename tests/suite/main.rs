//! The root crate's integration tests, one test binary (`cargo test --test suite`): each
//! former `tests/<name>.rs` is the module `<name>` here, so `cargo test --test suite -- <name>::`
//! runs one of them. One binary links once per build instead of once per file.
//!
//! Shared helpers are declared here once. The global allocator is [`heap::Tracking`], which
//! counts per thread, so the heap budgets and allocation counts of tests running side by side
//! do not see each other. `tests/heap/` holds the one test file (`alloc`) that needs a
//! process-wide counter and so a binary of its own; `tests/limits/` the depth and heap limits
//! CI also runs in a release build, which would otherwise optimise the whole suite.

// Two files are modules twice, as they were in the separate binaries: `fuzz_input` (in
// `fuzz_checks` and `text_roundtrip`, each a fuzz target's body on its own) and
// `examples/tcp_server.rs` (in `godot3_tcp`, and in `codec` through the async example that
// includes it).
#![allow(clippy::duplicate_mod)]

#[macro_use]
#[path = "../common/mod.rs"]
mod common;
#[path = "../conformance/mod.rs"]
mod conformance;
#[cfg(all(feature = "crypto", feature = "compression"))]
#[path = "../common/container_fuzz.rs"]
mod container_fuzz;
#[path = "../common/fuzz_checks.rs"]
mod fuzz_checks;
#[path = "../common/generate.rs"]
mod generate;
#[path = "../common/heap.rs"]
mod heap;
#[cfg(feature = "json")]
#[path = "../common/json_fuzz.rs"]
mod json_fuzz;
#[cfg(all(feature = "pck", feature = "crypto"))]
#[path = "../common/pck_fuzz.rs"]
mod pck_fuzz;
#[path = "../common/replay.rs"]
mod replay;
#[cfg(all(feature = "resource", feature = "compression"))]
#[path = "../common/resource_fuzz.rs"]
mod resource_fuzz;
#[cfg(feature = "resource")]
#[path = "../common/resource_text_fuzz.rs"]
mod resource_text_fuzz;
#[cfg(feature = "resource")]
#[path = "../common/rsrc_live.rs"]
mod rsrc_live;
#[path = "../common/text_fuzz.rs"]
mod text_fuzz;
#[path = "../common/text_roundtrip.rs"]
mod text_roundtrip;
#[path = "../common/tokens.rs"]
mod tokens;
#[path = "../common/value_oracle.rs"]
mod value_oracle;

/// Counts, per thread, the heap each test holds and the allocations it makes.
#[global_allocator]
static HEAP: heap::Tracking = heap::Tracking;

mod alloc_perf;
mod byte_order_hint;
mod bytes_fields;
#[cfg(feature = "tokio")]
mod codec;
mod config_file_edits;
mod config_file_fixtures;
mod config_file_linear;
mod config_file_live;
mod config_file_properties;
mod config_file_serde;
mod container_decoders;
#[cfg(all(feature = "crypto", feature = "compression"))]
mod container_fuzz_replay;
#[cfg(any(feature = "crypto", feature = "compression"))]
mod containers;
#[cfg(all(feature = "crypto", feature = "compression"))]
mod containers_live;
mod dictionary_index;
mod display;
mod display_compact;
mod doc_aliases;
mod document_get_as_context;
mod dump_snapshots;
mod encode_fast_paths;
mod engine_hint;
mod enum_index;
mod error_kinds;
mod error_paths;
mod errors;
mod float_range;
mod frame;
mod fuzz_replay;
mod game_state;
#[cfg(any(feature = "glam", feature = "mint"))]
mod glam_mint;
mod godot3_fixtures;
mod godot3_live;
mod godot3_tcp;
mod godot4_engine;
mod godot4_fixtures;
mod godot4_live;
mod godot_kit;
mod hostile;
#[cfg(feature = "json")]
mod json_fuzz_replay;
#[cfg(feature = "json")]
mod json_native;
#[cfg(feature = "json")]
mod json_native_live;
mod layout;
mod markers;
mod migrate_save;
#[cfg(feature = "pck")]
mod pck;
#[cfg(all(feature = "pck", feature = "crypto"))]
mod pck_fuzz_replay;
#[cfg(all(feature = "pck", feature = "crypto"))]
mod pck_live;
mod properties;
mod regressions;
#[cfg(feature = "resource")]
mod resource_binary;
#[cfg(all(feature = "resource", feature = "compression"))]
mod resource_binary_live;
#[cfg(feature = "resource")]
mod resource_convert_live;
#[cfg(all(feature = "resource", feature = "compression"))]
mod resource_fuzz_replay;
#[cfg(feature = "resource")]
mod resource_text;
#[cfg(feature = "resource")]
mod resource_text_format4;
#[cfg(feature = "resource")]
mod resource_text_fuzz_replay;
#[cfg(feature = "resource")]
mod resource_text_live;
mod serde_features;
mod snapshot_frames;
mod sorted_maps;
mod tee;
mod text_fixtures;
mod text_float_versions;
mod text_fuzz_replay;
mod text_godot3_live;
mod text_godot4_live;
mod text_hostile;
mod text_hostile_live;
mod text_serde;
mod truncation;
mod typed_inference;
mod value_contract;
mod variant_api;
mod variant_direct;
mod variant_direct_payloads;
mod variant_model;
mod variant_serde;
