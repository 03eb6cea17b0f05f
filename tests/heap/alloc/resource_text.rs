//! Heap held by a `resource::TextResource`: its text, and per section its tag, header fields
//! (their values read) and the place of each property line (values are not kept).

use super::{Worst, fuzz_checks, peak_of, serial, short_name, with_big_stack};
use godot_serde::Variant;
use godot_serde::resource::{Target, TextResource};

/// The `.tscn` / `.tres` texts that cost a document the most heap per byte, each about
/// `len` bytes: many nodes, many tiny properties, many empty sections, header fields of
/// nested Arrays.
fn shapes(len: usize) -> Vec<(&'static str, String)> {
    let fill = |head: &str, unit: &dyn Fn(usize) -> String| {
        fuzz_checks::heap::fill_to(head, unit, "", len)
    };
    let deep = format!("{}{}", "[".repeat(127), "]".repeat(127));
    vec![
        (
            "nodes `[node name=\"n\" parent=\".\"]`",
            fill("[gd_scene format=3]\n[node name=\"R\"]\n", &|i| {
                format!("[node name=\"{}\" parent=\".\"]\n", short_name(i))
            }),
        ),
        (
            "properties `k=1`",
            fill("[gd_resource type=\"R\" format=3]\n[resource]\n", &|i| {
                format!("{}=1\n", short_name(i))
            }),
        ),
        (
            "empty sections `[editable path=\"\"]`",
            fill("[gd_scene format=3]\n[node name=\"R\"]\n", &|_| {
                "[editable path=\"\"]".to_owned()
            }),
        ),
        (
            "fields of 127 nested Arrays",
            fill("[gd_scene format=3]\n[node name=\"R\"]\n", &|i| {
                format!("[node name=\"{}\" parent=\".\" f={deep}]\n", short_name(i))
            }),
        ),
    ]
}

/// Heap per byte of text a `TextResource` may hold: 64 KiB + this × the text.
const INDEX_FACTOR: usize = 48;

/// A document holds its text and a bounded amount per section, field and property line
/// (worst measured: 41.5 × for header fields of nested Arrays, 18–24 × for the rest); an
/// edit holds, beside the document, the edited one read back, within the same budget (it
/// held a third copy, 83.8 ×, before edits were read back beside the document instead of
/// over a copy of it).
#[test]
fn text_resource_heap_per_byte_of_text() {
    let _serial = serial();
    with_big_stack(|| {
        let mut worst = Worst::default();
        let mut edit = Worst::default();
        let limits = godot_serde::config_file::Limits::new().with_max_sections(usize::MAX);
        for (name, text) in shapes(256 << 10) {
            let parse = || TextResource::parse_with(&text, godot_serde::Config::godot4(), &limits);
            let peak = peak_of(parse);
            let mut doc = parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            println!(
                "TextResource {name}: {peak} B for {} B of text ({:.1} ×)",
                text.len(),
                peak as f64 / text.len() as f64
            );
            worst.record(peak, text.len(), INDEX_FACTOR, || name.to_owned());
            let target = if doc.is_scene() {
                Target::Node(".")
            } else {
                Target::Resource
            };
            let peak = peak_of(|| {
                doc.set_property(target, "edited", &Variant::Int(1))
                    .unwrap()
            });
            println!(
                "  one edit: {peak} B ({:.1} ×)",
                peak as f64 / text.len() as f64
            );
            edit.record(peak, text.len(), INDEX_FACTOR, || name.to_owned());
        }
        println!(
            "TextResource, 64 KiB + {INDEX_FACTOR} × text: worst {} B for {} B ({:.1} ×): {}; \
             an edit at most {:.1} ×",
            worst.peak,
            worst.len,
            worst.peak as f64 / worst.len as f64,
            worst.what,
            edit.peak as f64 / edit.len.max(1) as f64
        );
    });
}
