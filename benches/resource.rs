//! Reading a binary resource, ours against the engine's `ResourceLoader.load` of the same file
//! in the same run (`cargo bench --bench resource --features resource`, with `$GODOT4` and/or
//! `godot3-server` for the engine columns).
//!
//! The file: a `Resource` whose metadata holds an Array of 3 000 `Gradient` sub-resources,
//! each with offsets (PackedFloat32Array of 8), colors (PackedColorArray of 8) and a name, and
//! a PackedByteArray of 1 MiB (about 1.4 MB in all), written by our writer in each engine's
//! layout. Ours, each round: `read_binary` (the whole model, values copied out). The engine,
//! each round: `ResourceLoader.load(path, "", CACHE_MODE_IGNORE)` (Godot 4.6) /
//! `ResourceLoader.load(path, "", true)` (Godot 3.2.3), which also creates the 3 001 objects.
//! Best of several rounds; the ratio engine time / our time is what is reported (above 1: we
//! are faster).

mod engine_bench;

use engine_bench::{best, run_engine, time_line};
use godot_serde::resource::{
    BinaryOptions, ResourceFile, ResourceFormat, SubResource, read_binary, sub_ref, write_binary,
};
use godot_serde::{Color, PackedByteArray, PackedColorArray, PackedFloat32Array, Variant};
use std::path::Path;

const ROUNDS: usize = 7;
const GRADIENTS: usize = 3000;

fn model(format: ResourceFormat) -> ResourceFile {
    let id = |i: usize| -> (String, Variant) {
        match format {
            ResourceFormat::Godot4 => (format!("Gradient_{i}"), sub_ref(format!("Gradient_{i}"))),
            ResourceFormat::Godot3 => ((i + 1).to_string(), sub_ref(i as i64 + 1)),
        }
    };
    let sub_resources = (0..GRADIENTS)
        .map(|i| SubResource {
            id: id(i).0,
            class: "Gradient".into(),
            properties: vec![
                (
                    "resource_name".into(),
                    Variant::from(format!("gradient {i}")),
                ),
                (
                    "offsets".into(),
                    Variant::PackedFloat32Array(PackedFloat32Array(
                        (0..8).map(|k| k as f32 / 8.0).collect(),
                    )),
                ),
                (
                    "colors".into(),
                    Variant::PackedColorArray(PackedColorArray(
                        (0..8)
                            .map(|k| Color {
                                r: k as f32 / 8.0,
                                g: 0.5,
                                b: (i % 7) as f32 / 7.0,
                                a: 1.0,
                            })
                            .collect(),
                    )),
                ),
            ],
        })
        .collect();
    let list = Variant::from((0..GRADIENTS).map(|i| id(i).1).collect::<Vec<_>>());
    let blob = Variant::PackedByteArray(PackedByteArray(
        (0..1u32 << 20).map(|j| (j % 251) as u8).collect(),
    ));
    let properties = match format {
        ResourceFormat::Godot4 => vec![
            ("metadata/list".into(), list),
            ("metadata/blob".into(), blob),
        ],
        _ => {
            let mut meta = godot_serde::Dictionary::new();
            meta.insert(Variant::from("list"), list);
            meta.insert(Variant::from("blob"), blob);
            vec![("__meta__".into(), Variant::Dictionary(meta))]
        }
    };
    ResourceFile {
        format,
        class: "Resource".into(),
        script_class: None,
        uid: None,
        ext_resources: vec![],
        sub_resources,
        properties,
        scene: None,
    }
}

fn engine(cmd: &Path, dir: &Path, file: &[u8], godot3: bool) -> Option<f64> {
    let (ticks, load) = if godot3 {
        (
            "OS.get_ticks_usec()",
            "ResourceLoader.load(\"res://big.res\", \"\", true)",
        )
    } else {
        (
            "Time.get_ticks_usec()",
            "ResourceLoader.load(\"res://big.res\", \"\", ResourceLoader.CACHE_MODE_IGNORE)",
        )
    };
    let gd = format!(
        "extends SceneTree\nfunc _init():\n\tvar best = 1e18\n\tfor r in {ROUNDS}:\n\t\tvar t = {ticks}\n\
         \t\tvar res = {load}\n\t\tbest = min(best, {ticks} - t)\n\t\tprint(\"COUNT \", res.get_meta(\"list\").size())\n\
         \tprint(\"TIME \", best)\n\tquit(0)\n"
    );
    let out = run_engine(cmd, dir, godot3, &[("big.res", file)], &gd)?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("COUNT {GRADIENTS}")),
        "the engine did not load the file:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    time_line(&stdout)
}

fn main() {
    let dir =
        std::env::temp_dir().join(format!("godot_serde_bench_resource_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    println!(
        "{GRADIENTS} Gradient sub-resources and 1 MiB of bytes; best of {ROUNDS}; ratio = engine time / our time"
    );
    println!(
        "{:<10} {:>9} {:>10} {:>12} {:>8}",
        "layout", "bytes", "ours ms", "engine ms", "ratio"
    );
    for (name, format, options) in [
        ("Godot 4.6", ResourceFormat::Godot4, BinaryOptions::godot4()),
        ("Godot 3.2", ResourceFormat::Godot3, BinaryOptions::godot3()),
    ] {
        let file = write_binary(&model(format), &options).unwrap();
        let t_ours = best(ROUNDS, || {
            let model = read_binary(&file).unwrap();
            assert_eq!(model.sub_resources.len(), GRADIENTS);
        });
        let t_engine = if format == ResourceFormat::Godot3 {
            engine(Path::new("godot3-server"), &dir, &file, true)
        } else {
            std::env::var_os("GODOT4").and_then(|e| engine(Path::new(&e), &dir, &file, false))
        };
        let (e, r) = match t_engine {
            Some(t) => (format!("{:.2}", t * 1e3), format!("{:.2}", t / t_ours)),
            None => ("-".into(), "-".into()),
        };
        println!(
            "{name:<10} {:>9} {:>10.2} {e:>12} {r:>8}",
            file.len(),
            t_ours * 1e3
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
