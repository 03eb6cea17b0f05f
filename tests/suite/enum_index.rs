//! Issue 27.2: an int is an enum variant by position only when the config says so
//! (`EnumRepr::Index`). In the default name mode `put_var(3)` must not decode as the fourth
//! variant: a client could pick any variant by number, and reordering the variants would
//! change what the numbers mean.

use crate::common;

use common::hex;
use godot_serde::{Config, EnumRepr, Variant};

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
enum ClientMsg {
    Hello,
    Move(i32),
    Chat { text: String },
    Bye,
}

/// `put_var(3)` payload: int (2), 3.
const INT_3: &str = "02000000 03000000";
/// `{3: 7}`: Dictionary (27) of one entry, key int 3, value int 7.
const DICT_3: &str = "1b000000 01000000 02000000 03000000 02000000 07000000";

fn message(r: godot_serde::Result<ClientMsg>) -> String {
    match r {
        Ok(v) => panic!("decoded {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_int_is_not_a_variant_in_name_mode() {
    let g4 = Config::godot4();
    for (what, bytes) in [("unit", INT_3), ("with data", DICT_3)] {
        let bytes = hex(bytes);
        let m = message(g4.from_bytes(&bytes));
        assert!(
            m.contains("enum ClientMsg") && m.contains("EnumRepr::Index"),
            "{what}: {m}"
        );
        assert!(
            g4.from_reader::<_, ClientMsg>(&bytes[..]).is_err(),
            "{what}"
        );
        // Through a Variant (from_variant, and the Variant as a serde Deserializer).
        let v = g4.variant_from_bytes(&bytes).unwrap();
        let m = message(g4.from_variant(&v));
        assert!(m.contains("EnumRepr::Index"), "{what}, from_variant: {m}");
        assert!(
            <ClientMsg as serde::Deserialize>::deserialize(&v).is_err(),
            "{what}, &Variant"
        );
        // Godot 3 bytes are the same for ints and Dictionaries of ints... except the ids.
        let g3 = Config::godot3().to_bytes(&v).unwrap();
        assert!(
            Config::godot3().from_bytes::<ClientMsg>(&g3).is_err(),
            "{what}"
        );
    }
    // The text form goes through the same rule.
    assert!(godot_serde::text::from_str::<ClientMsg>("3").is_err());
    assert!(godot_serde::text::from_str::<ClientMsg>("{3: 7}").is_err());
    // The exact message for the unit case, with the byte offset of the int.
    assert_eq!(
        message(g4.from_bytes(&hex(INT_3))),
        "invalid type: int 3, expected a variant name of enum ClientMsg \
         (variant indices are read only with EnumRepr::Index) (byte 0)"
    );
    // Names work as before.
    assert_eq!(
        g4.from_bytes::<ClientMsg>(&hex("04000000 03000000 42796500"))
            .unwrap(),
        ClientMsg::Bye
    );
}

#[test]
fn an_int_is_a_variant_with_enum_repr_index() {
    let by_index = Config::godot4().with_enum_repr(EnumRepr::Index);
    assert_eq!(
        by_index.from_bytes::<ClientMsg>(&hex(INT_3)).unwrap(),
        ClientMsg::Bye
    );
    let move_1 = hex("1b000000 01000000 02000000 01000000 02000000 07000000");
    assert_eq!(
        by_index.from_bytes::<ClientMsg>(&move_1).unwrap(),
        ClientMsg::Move(7)
    );
    let v = by_index.variant_from_bytes(&move_1).unwrap();
    assert_eq!(
        by_index.from_variant::<ClientMsg>(&v).unwrap(),
        ClientMsg::Move(7)
    );
    assert_eq!(
        by_index
            .from_variant::<ClientMsg>(&Variant::Int(3))
            .unwrap(),
        ClientMsg::Bye
    );
    // Names are read in index mode too: a name cannot change meaning.
    assert_eq!(
        by_index
            .from_bytes::<ClientMsg>(&hex("04000000 03000000 42796500"))
            .unwrap(),
        ClientMsg::Bye
    );
    // An index past the last variant is an error.
    assert!(
        by_index
            .from_bytes::<ClientMsg>(&hex("02000000 04000000"))
            .is_err()
    );
}
