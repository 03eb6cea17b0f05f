//! Resource packs without an engine: hand-derived bytes, round trips in every layout, and
//! hostile packs (each a clear error at its byte, within bounded memory).

use godot_serde::ErrorKind;
use godot_serde::pck::{EngineVersion, PackFormat, PackOptions, PackReader, PackWriter};
use std::io::Cursor;
