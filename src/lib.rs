#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

#[cfg(feature = "litebyte")]
#[cfg_attr(docsrs, doc(cfg(feature = "litebyte")))]
pub mod litebyte;

mod config;
mod error;
mod types;
mod value;
mod wire;

pub use config::{Config, EnumRepr, GodotVersion};
pub use error::{Error, ErrorKind, Result};
pub use types::*;
pub use value::{Array, ContainerType, Dictionary, Object, Variant};
pub use wire::VariantType;
