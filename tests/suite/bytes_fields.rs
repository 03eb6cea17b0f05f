//! `Vec<u8>` as PackedByteArray through the re-exported `godot_serde::serde_bytes`.
use crate::common;

use common::hex;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Bytes {
    #[serde(with = "godot_serde::serde_bytes")]
    data: Vec<u8>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Ints {
    data: Vec<u8>,
}

#[test]
fn serde_bytes_is_reexported_and_gives_packed_byte_array() {
    let v = Bytes {
        data: vec![1, 2, 3],
    };
    // Dictionary (27), 1 entry; key "data" (String 4, length 4); PackedByteArray (29), 3
    // bytes, 1 byte of padding (spec §PACKED_BYTE_ARRAY).
    let expected = hex("1b000000 01000000 04000000 04000000 64617461 1d000000 03000000 01020300");
    assert_eq!(godot_serde::to_bytes(&v).unwrap(), expected);
    assert_eq!(godot_serde::from_bytes::<Bytes>(&expected).unwrap(), v);
    // Godot 3: PoolByteArray is id 20, Dictionary 18.
    let g3 = godot_serde::Config::godot3().to_bytes(&v).unwrap();
    assert_eq!(
        g3,
        hex("12000000 01000000 04000000 04000000 64617461 14000000 03000000 01020300")
    );
    // Without it, `Vec<u8>` is an Array (28) of ints.
    let ints = godot_serde::to_bytes(&Ints {
        data: vec![1, 2, 3],
    })
    .unwrap();
    assert_eq!(&ints[20..28], &hex("1c000000 03000000")[..]);
    // A ByteBuf field works too.
    #[derive(Serialize)]
    struct Buf {
        data: godot_serde::serde_bytes::ByteBuf,
    }
    let buf = Buf {
        data: godot_serde::serde_bytes::ByteBuf::from(vec![1, 2, 3]),
    };
    assert_eq!(godot_serde::to_bytes(&buf).unwrap(), expected);
}
