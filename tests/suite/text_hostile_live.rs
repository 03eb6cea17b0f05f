//! The text-form decisions of issue 22 (key order, key identity, `\u0000`, `-0.0`) against
//! the live engines: for each text, the engine's `var_to_str(str_to_var(t))` (Godot 4.6) /
//! `var2str(str2var(t))` (Godot 3.2.3) equals our print of our parse, and its
//! `var_to_bytes` / `var2bytes` of the value equals our bytes of ours. Skips loudly without
//! an engine; fails then when `GODOT_SERDE_REQUIRE_ENGINE=1`.

use crate::common;

use common::engine::{
    Godot3Project, Godot4Project, godot3_or_skip, godot4_or_skip, godot4_version,
};
use godot_serde::{Config, text};
use std::time::Duration;

/// `{{}:0,{[X,0]:0,[X,1]:0}:0}` with X = `depth` nested empty Arrays (the input).
fn equal_prefix_keys(depth: usize) -> String {
    let x = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    format!("{{{{}}:0,{{[{x},0]:0,[{x},1]:0}}:0}}")
}

/// Texts both engines read.
fn common_texts() -> Vec<String> {
    [
        "{\"b\": 1, \"a\": 2, 3: 0, 1: 0, 2.5: 0, [1, 2]: 0, [1]: 0, Vector2(1, 2): 0, null: 0, true: 0}",
        "{ {1:0,2:0}: 1, {2:0,1:0}: 2 }",
        "{-0.0: 1, 0.0: 2, nan: 3, nan: 4}",
        "{-0.0: 1}",
        "[-0.0, Vector2(-0.0, 1)]",
        "{\"z\": 0, 5: 0, \"a\": 0, false: 0, Color(1, 0, 0, 1): 0}",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// Texts only Godot 4 reads (StringName, `\u0000`, 4-only types).
fn godot4_texts() -> Vec<String> {
    let mut t: Vec<String> = [
        "{\"x\": 1, &\"x\": 2}",
        "{&\"b\": 0, \"a\": 1, &\"c\": 2, Vector2i(1, 2): 3}",
        "{[\"x\"]: 1, [&\"x\"]: 2}",
        // Godot 3.2.3 keeps equal Dictionary keys apart (see the Godot 3 test).
        "{ {1:0,2:0}: 1, {1:0,2:0}: 2 }",
        // Godot 3.2.3 orders Array keys by another rule (see the Godot 3 test).
        "{[1, [2, 3]]: 0, [1, [2, 2]]: 1, [1, [2]]: 2, [0, 9]: 3, []: 4}",
        "{[nan, 1]: 0, [0.0, 2]: 1, [nan, 0]: 2}",
        // Godot 3 reads no `nan` inside a constructor.
        "{Vector3(1, nan, 0): 0, Vector3(1, 0, 0): 1}",
        "\"a\\u0000b\"",
        "&\"\\u0000\"",
    ]
    .map(str::to_owned)
    .to_vec();
    t.push(equal_prefix_keys(3));
    t.push(equal_prefix_keys(12));
    t
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Checks the engine's `R <text hex> <bytes hex>` lines against ours, in order.
fn check(engine: &str, stdout: &str, texts: &[String], config: Config) {
    let results: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("R "))
        .collect();
    assert_eq!(results.len(), texts.len(), "{engine}:\n{stdout}");
    for (t, r) in texts.iter().zip(results) {
        let (text_hex, bytes_hex) = r.split_once(' ').unwrap();
        let theirs = String::from_utf8(unhex(text_hex)).unwrap();
        let v = text::parse_variant_with(t, config).unwrap();
        assert_eq!(
            text::variant_to_string_with(&v, config),
            theirs,
            "{engine}: {t}"
        );
        assert_eq!(
            hex(&config.to_bytes(&v).unwrap()),
            bytes_hex,
            "{engine}: {t}"
        );
    }
}

#[test]
fn key_order_identity_nul_and_zero_match_godot4() {
    let Some(engine) = godot4_or_skip("key_order_identity_nul_and_zero_match_godot4") else {
        return;
    };
    println!("Godot 4 engine: {}", godot4_version(&engine));
    let mut texts = common_texts();
    texts.extend(godot4_texts());
    let project = Godot4Project::new("text_hostile", &[]);
    let lines: Vec<String> = texts
        .iter()
        .map(|t| serde_json::to_string(t).unwrap())
        .collect();
    std::fs::write(project.dir.join("texts.jsonl"), lines.join("\n")).unwrap();
    std::fs::write(
        project.dir.join("run.gd"),
        "extends SceneTree\nfunc _init():\n\
         \tvar f = FileAccess.open(\"res://texts.jsonl\", FileAccess.READ)\n\
         \tfor line in f.get_as_text().split(\"\\n\"):\n\
         \t\tvar v = str_to_var(JSON.parse_string(line))\n\
         \t\tprint(\"R \", var_to_str(v).to_utf8_buffer().hex_encode(), \" \", var_to_bytes(v).hex_encode())\n\
         \tquit(0)\n",
    )
    .unwrap();
    let out = project.run(&engine, "run.gd", &[], Duration::from_secs(120));
    let stdout = String::from_utf8_lossy(&out.stdout);
    check("Godot 4", &stdout, &texts, Config::godot4());
}

#[test]
fn key_order_identity_and_zero_match_godot3() {
    let Some(engine) = godot3_or_skip("key_order_identity_and_zero_match_godot3") else {
        return;
    };
    // Not here: Array keys of one length, which Godot 3.2.3 orders by its own `Array <`
    // (`[1, [2]]` before `[0, 9]`, `[X, 1]` before `[X, 0]`, live: a `<` that answers true
    // at the first element that is not less, and both ways for some pairs) and its insertion
    // sort; ours orders them element by element, as Godot 4 does. Nor
    // two equal Dictionaries as keys: Godot 3.2.3 keeps both (a Dictionary hashes by its
    // address there, live), ours and Godot 4 merge them.
    let texts = common_texts();
    let project = Godot3Project::new("hostile", &[] as &[&std::path::Path]);
    let dir = &project.dir;
    let lines: Vec<String> = texts
        .iter()
        .map(|t| serde_json::to_string(t).unwrap())
        .collect();
    let data = dir.join("texts.jsonl");
    std::fs::write(&data, lines.join("\n")).unwrap();
    std::fs::write(
        dir.join("run.gd"),
        format!(
            "extends SceneTree\nfunc _init():\n\
             \tvar f = File.new()\n\
             \tf.open(\"{}\", File.READ)\n\
             \tfor line in f.get_as_text().split(\"\\n\"):\n\
             \t\tvar v = str2var(parse_json(line))\n\
             \t\tprint(\"R \", var2str(v).to_utf8().hex_encode(), \" \", var2bytes(v).hex_encode())\n\
             \tquit(0)\n",
            data.display()
        ),
    )
    .unwrap();
    let out = project
        .spawn(&engine, "run.gd", &[] as &[&str], Duration::from_secs(120))
        .join()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    check("Godot 3", &stdout, &texts, Config::godot3());
}
