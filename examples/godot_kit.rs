//! The Rust side of the Godot 4 kit in `examples/godot/`: checks the vectors that
//! `make_vectors.gd` wrote with your engine, and writes the cases that `verify.gd` decodes
//! with it.
//!
//! ```sh
//! godot --headless --path examples/godot -s make_vectors.gd -- "$PWD/vectors.jsonl"
//! cargo run --example godot_kit -- check vectors.jsonl         # the crate vs your engine's bytes
//! cargo run --example godot_kit -- write vectors.jsonl cases   # <case>.bin + <case>.expr
//! godot --headless --path examples/godot -s verify.gd -- "$PWD/cases"
//! ```
//!
//! `check` decodes every record's bytes (`hex_canonical`, else `hex`: NodePath padding is
//! written as zeros by the crate and left unwritten by the engine) into a `Variant`, encodes
//! it again and compares byte for byte; it prints `CASE <name> PASS|FAIL <reason>` and a
//! `SUMMARY`, and exits with 1 if any case failed. `write` writes, for every record, the
//! crate's encoding of the decoded value as `<name>.bin` and the record's expression as
//! `<name>.expr` (for an object sent as an id, `objid(...)` of that id: see
//! [`expected_expr`]), which `verify.gd` evaluates and compares with what the engine decodes.
//! Records with an `error` (a case the engine could not build) or a `kind` (framing) are
//! skipped. The record fields are those of `tests/fixtures/godot4/vectors-sample.jsonl`.

use godot_serde::{Config, GODOT_MAX_DEPTH, Variant};
use serde_json::Value;
use std::path::Path;

/// One value record of a vectors file.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The case name (a file name stem for `write`).
    pub name: String,
    /// The GDScript expression that built the value.
    pub expr: String,
    /// The engine's bytes, NodePath padding zeroed.
    pub bytes: Vec<u8>,
}

/// The config of the kit: latest Godot 4 layout, objects allowed as data (never
/// instantiated), the engine's own nesting limit.
pub fn config() -> Config {
    Config::godot4()
        .with_allow_objects(true)
        .with_max_depth(GODOT_MAX_DEPTH)
}

fn unhex(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd hex length {}", s.len()));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}

/// Reads a vectors file (one JSON object per line); skips records with `error` or `kind`.
///
/// # Errors
///
/// A line that is not a JSON object with `name`, `expr` and `hex`, with its line number.
pub fn read_vectors(text: &str) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let rec: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        if rec.get("error").is_some() || rec.get("kind").is_some() {
            continue;
        }
        let text = |key: &str| {
            rec.get(key)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("line {}: no {key:?}", i + 1))
        };
        let hex = rec
            .get("hex_canonical")
            .and_then(Value::as_str)
            .map_or_else(|| text("hex"), Ok)?;
        out.push(Record {
            name: text("name")?.to_owned(),
            expr: text("expr")?.to_owned(),
            bytes: unhex(hex).map_err(|e| format!("line {}: {e}", i + 1))?,
        });
    }
    Ok(out)
}

/// Decodes a record's bytes and encodes the value again: the crate's bytes for it.
///
/// # Errors
///
/// The decoding or encoding error, as text.
pub fn reencode(rec: &Record) -> Result<Vec<u8>, String> {
    let value: Variant = config()
        .from_bytes(&rec.bytes)
        .map_err(|e| format!("decoding failed: {e}"))?;
    config()
        .to_bytes(&value)
        .map_err(|e| format!("encoding failed: {e}"))
}

/// `check` for one record: `Ok` when the crate gives back the engine's bytes.
///
/// # Errors
///
/// Why it did not.
pub fn check(rec: &Record) -> Result<(), String> {
    let again = reencode(rec)?;
    if again != rec.bytes {
        let at = again
            .iter()
            .zip(&rec.bytes)
            .position(|(a, b)| a != b)
            .unwrap_or(again.len().min(rec.bytes.len()));
        return Err(format!(
            "bytes differ from byte {at} ({} bytes from the crate, {} from the engine)",
            again.len(),
            rec.bytes.len()
        ));
    }
    Ok(())
}

/// The expression `verify.gd` compares the engine's decoding with: the record's own, except
/// for an object sent as an id (`var_to_bytes` of an object without full objects). Its bytes
/// hold the id the object had in the engine run that wrote the vectors, which no object has in
/// the run that verifies them, so the expected value is what `bytes_to_var` gives for it:
/// an `EncodedObjectAsID` with that id (`objid(...)`, the id as its 64 bits).
pub fn expected_expr(rec: &Record) -> String {
    match config().from_bytes::<Variant>(&rec.bytes) {
        Ok(Variant::ObjectId(id)) => format!("objid(i64('{:016x}'))", id.0),
        _ => rec.expr.clone(),
    }
}

/// `write`: `<name>.bin` (the crate's bytes) and `<name>.expr` for every record; returns how
/// many cases were written and the records that could not be (with why).
///
/// # Errors
///
/// I/O errors.
pub fn write_cases(records: &[Record], dir: &Path) -> std::io::Result<(usize, Vec<String>)> {
    std::fs::create_dir_all(dir)?;
    let (mut written, mut failed) = (0, Vec::new());
    for rec in records {
        match reencode(rec) {
            Ok(bytes) => {
                std::fs::write(dir.join(format!("{}.bin", rec.name)), bytes)?;
                std::fs::write(dir.join(format!("{}.expr", rec.name)), expected_expr(rec))?;
                written += 1;
            }
            Err(e) => failed.push(format!("{}: {e}", rec.name)),
        }
    }
    Ok((written, failed))
}

fn main() -> Result<(), String> {
    // Godot nests up to 1024 levels (GODOT_MAX_DEPTH): room for that in a debug build.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| run().map_err(|e| e.to_string()))
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "the kit panicked".to_string())?
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: godot_kit check VECTORS.jsonl | godot_kit write VECTORS.jsonl DIR";
    let records = match args.get(1) {
        Some(path) => read_vectors(&std::fs::read_to_string(path)?)?,
        None => return Err(usage.into()),
    };
    match (args[0].as_str(), args.get(2)) {
        ("check", None) => {
            let mut failed = 0;
            for rec in &records {
                match check(rec) {
                    Ok(()) => println!("CASE {} PASS", rec.name),
                    Err(e) => {
                        failed += 1;
                        println!("CASE {} FAIL {e}", rec.name);
                    }
                }
            }
            println!("SUMMARY {} passed, {failed} failed", records.len() - failed);
            if failed > 0 {
                std::process::exit(1);
            }
        }
        ("write", Some(dir)) => {
            let (written, failed) = write_cases(&records, Path::new(dir))?;
            println!("wrote {written} cases to {dir}");
            for f in &failed {
                println!("not written: {f}");
            }
            if !failed.is_empty() {
                std::process::exit(1);
            }
        }
        _ => return Err(usage.into()),
    }
    Ok(())
}
