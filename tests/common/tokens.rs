//! serde_test token builders shared by the marker and Variant serde tests
//! (`tests/suite/markers.rs`, `tests/suite/variant_serde.rs`).
#![allow(dead_code)]

use serde_test::Token;

/// The token of one `Real` component: `F32`, or `F64` with `double-precision`.
#[cfg(not(feature = "double-precision"))]
pub fn r(x: f32) -> Token {
    Token::F32(x)
}
#[cfg(feature = "double-precision")]
pub fn r(x: f32) -> Token {
    Token::F64(f64::from(x))
}

/// One `Real` token per component.
pub fn reals(xs: &[f32]) -> Vec<Token> {
    xs.iter().map(|&x| r(x)).collect()
}

/// One `I32` token per component.
pub fn ints(xs: &[i32]) -> Vec<Token> {
    xs.iter().map(|&x| Token::I32(x)).collect()
}

/// `TupleStruct{name, len}, fields.., TupleStructEnd` with one token per field: what a
/// marker serializes as.
pub fn tuple_struct(name: &'static str, fields: Vec<Token>) -> Vec<Token> {
    tuple_struct_of(name, fields.len(), fields)
}

/// A tuple struct of `len` fields given as `tokens`.
pub fn tuple_struct_of(name: &'static str, len: usize, tokens: Vec<Token>) -> Vec<Token> {
    let mut t = vec![Token::TupleStruct { name, len }];
    t.extend(tokens);
    t.push(Token::TupleStructEnd);
    t
}

/// `Map{1}, Str(name), payload.., MapEnd`: how our deserializer presents a Godot value.
pub fn marker_map(name: &'static str, payload: Vec<Token>) -> Vec<Token> {
    let mut t = vec![Token::Map { len: Some(1) }, Token::Str(name)];
    t.extend(payload);
    t.push(Token::MapEnd);
    t
}

/// A seq of scalar tokens (one token per element).
pub fn seq(items: Vec<Token>) -> Vec<Token> {
    seq_of(items.len(), items)
}

/// A seq of `len` elements given as `tokens`.
pub fn seq_of(len: usize, tokens: Vec<Token>) -> Vec<Token> {
    let mut t = vec![Token::Seq { len: Some(len) }];
    t.extend(tokens);
    t.push(Token::SeqEnd);
    t
}
