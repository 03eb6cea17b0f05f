//! Issue 27.6: `Document::get_as` errors name the section and the key, as a path before the
//! message (the way `config_file::from_str` names them).

use godot_serde::Config;
use godot_serde::config_file::Document;

const PROJECT: &str = "config_version=5\nversion=\"x\"\n\n[application]\n\n\
                       config/name=42\nconfig/features=PackedStringArray(\"4.6\", \"Mobile\")\n";

#[test]
fn get_as_errors_name_the_section_and_key() {
    let doc = Document::parse(PROJECT, Config::godot4()).unwrap();
    let e = doc
        .get_as::<String>("application", "config/name")
        .unwrap_err();
    assert_eq!(e.path().as_deref(), Some(r#"application["config/name"]"#));
    assert!(
        e.to_string().starts_with(
            r#"application["config/name"]: invalid type: integer `42`, expected a string"#
        ),
        "{e}"
    );
    let e = doc
        .get_as::<Vec<i32>>("application", "config/features")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"application["config/features"]: invalid type: string "4.6", expected i32"#
    );
    // A key before the first section has no section in its path.
    let e = doc.get_as::<i32>("", "version").unwrap_err();
    assert_eq!(e.path().as_deref(), Some("version"), "{e}");
    // What fits still reads.
    assert_eq!(doc.get_as::<i32>("", "config_version").unwrap(), Some(5));
}
