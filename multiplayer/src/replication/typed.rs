//! A synchronizer's state as one Rust struct whose fields are the property paths, declared
//! once per scene: [`TypedSync`] builds the [`Synchronizer`] from the struct, reads and writes
//! the state through the public [`Session`] replication API, and matches fields to
//! properties **by path**, not by position, so a config in another order (one made in the
//! editor, or read from a scene) still puts each value in its property.
//!
//! The Godot side's config is checked against the same declaration at `_ready` by the
//! generated script ([`gdscript::script`](super::gdscript::script)'s `check_<name>`), which
//! `push_error`s the first difference: an editor-made config with the properties in another
//! order would otherwise fill the wrong properties without a word.
//!
//! ```
//! use godot_serde::Vector2;
//! use godot_serde_multiplayer::replication::{ReplicationMode, typed::TypedSync};
//! use godot_serde_multiplayer::{Session, Settings};
//!
//! #[derive(serde::Serialize, serde::Deserialize, Default, Debug, PartialEq)]
//! struct Player {
//!     name: String,
//!     position: Vector2,
//!     #[serde(rename = "Sprite:modulate")]
//!     tint: godot_serde::Color,
//! }
//!
//! let player = TypedSync::<Player>::new("Sync", ReplicationMode::Always)?;
//! let paths: Vec<&str> =
//!     player.synchronizer().config.properties().iter().map(|p| p.path.as_str()).collect();
//! assert_eq!(paths, [".:name", ".:position", "Sprite:modulate"]);
//!
//! let mut session = Session::server(Settings::default());
//! let ann = Player { name: "Ann".into(), ..Player::default() };
//! let sync = session.declare_synchronizer(player.synchronizer().clone(), player.values(&ann)?)?;
//! assert_eq!(player.get(&session, sync)?, ann);
//! let ann = Player { position: Vector2::new(1.0, 2.0), ..ann };
//! player.set(&mut session, sync, &ann)?;
//! assert_eq!(player.get(&session, sync)?, ann);
//! # Ok::<(), godot_serde_multiplayer::ProtocolError>(())
//! ```

use std::marker::PhantomData;

use godot_serde::{Config, Dictionary, Variant};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{ReplicationConfig, ReplicationMode, SyncId, Synchronizer};
use crate::{ProtocolError, Session};

/// The state of one synchronizer as the struct `T` (see the [module doc](self)).
#[derive(Debug, Clone)]
pub struct TypedSync<T> {
    sync: Synchronizer,
    /// Per field in declaration order: its serde key and its property path.
    fields: Vec<(String, String)>,
    _state: PhantomData<fn() -> T>,
}

/// The property path of a field: `.:name` for a property of the synchronizer's root node, the
/// key itself when it names one with `:` (`Sprite:modulate`).
fn path_of(key: &str) -> String {
    if key.contains(':') {
        key.to_owned()
    } else {
        format!(".:{key}")
    }
}

fn refuse(detail: String) -> ProtocolError {
    ProtocolError::Replication(detail)
}

impl<T: Serialize + DeserializeOwned + Default> TypedSync<T> {
    /// The synchronizer at `path` whose config is one property per field of `T`, in the
    /// fields' order, every one spawned and in `mode` (change one with
    /// [`property`](Self::property)).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Encode`] when `T` does not serialize as a struct with named fields.
    pub fn new(path: &str, mode: ReplicationMode) -> Result<Self, ProtocolError> {
        let config = ReplicationConfig::for_struct::<T>(mode)?;
        Self::with_config(path, config)
    }

    /// The synchronizer at `path` with a config made elsewhere (read from a scene, or built
    /// by hand), in any order: each of its properties must be a field of `T` and each field
    /// one of its properties.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`] naming a property that is no field or a field that is no
    /// property; [`ProtocolError::Encode`] as [`new`](Self::new).
    pub fn with_config(path: &str, config: ReplicationConfig) -> Result<Self, ProtocolError> {
        let fields: Vec<(String, String)> = field_keys::<T>()?
            .into_iter()
            .map(|key| {
                let path = path_of(&key);
                (key, path)
            })
            .collect();
        for p in config.properties() {
            if !fields.iter().any(|(_, path)| *path == p.path) {
                return Err(refuse(format!(
                    "synchronizer {path:?}: property {:?} is no field of {}",
                    p.path,
                    std::any::type_name::<T>()
                )));
            }
        }
        for (key, field_path) in &fields {
            if !config.properties().iter().any(|p| p.path == *field_path) {
                return Err(refuse(format!(
                    "synchronizer {path:?}: field {key:?} of {} ({field_path:?}) is not in its config",
                    std::any::type_name::<T>()
                )));
            }
        }
        Ok(Self {
            sync: Synchronizer::new(path, config),
            fields,
            _state: PhantomData,
        })
    }

    /// The same declaration with the spawn flag and mode of `field`'s property changed
    /// (`field`: the field's serde name, `position`, or its property path, `.:position`).
    #[must_use]
    pub fn property(mut self, field: &str, spawn: bool, mode: ReplicationMode) -> Self {
        if let Some((_, path)) = self
            .fields
            .iter()
            .find(|(key, path)| key == field || path == field)
        {
            self.sync.config = self.sync.config.clone().set(path, spawn, mode);
        }
        self
    }

    /// The same declaration with its synchronizer changed (authority, intervals, visibility).
    #[must_use]
    pub fn map_synchronizer(mut self, f: impl FnOnce(Synchronizer) -> Synchronizer) -> Self {
        let config = self.sync.config.clone();
        self.sync = f(self.sync);
        // The properties are the declaration's: only the synchronizer's settings change.
        self.sync.config = config;
        self
    }

    /// The synchronizer to declare ([`Session::declare_synchronizer`], a [`Spawner`](super::Spawner)'s
    /// scene) and to generate the GDScript from.
    pub fn synchronizer(&self) -> &Synchronizer {
        &self.sync
    }

    /// `state`'s values in the config's order, each field in its property.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Encode`] when `state` has no Godot 4 form or is no struct.
    pub fn values(&self, state: &T) -> Result<Vec<Variant>, ProtocolError> {
        let Variant::Dictionary(dict) = Config::godot4()
            .to_variant(state)
            .map_err(|e| ProtocolError::Encode(e.to_string()))?
        else {
            return Err(ProtocolError::Encode(
                "a synchronized state must be a struct with named fields".into(),
            ));
        };
        self.sync
            .config
            .properties()
            .iter()
            .map(|p| {
                let key = self
                    .fields
                    .iter()
                    .find(|(_, path)| *path == p.path)
                    .map(|(key, _)| key.as_str())
                    .unwrap_or_default();
                dict.get(key).cloned().ok_or_else(|| {
                    ProtocolError::Encode(format!("the state has no field {key:?} ({})", p.path))
                })
            })
            .collect()
    }

    /// A state from `values` in the config's order.
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`] for a wrong count; [`ProtocolError::ArgumentType`] when a
    /// value does not fit its field.
    pub fn state_from(&self, values: &[Variant]) -> Result<T, ProtocolError> {
        let props = self.sync.config.properties();
        if values.len() != props.len() {
            return Err(refuse(format!(
                "synchronizer {:?} has {} properties, the state has {} values",
                self.sync.path,
                props.len(),
                values.len()
            )));
        }
        let mut dict = Dictionary::new();
        for (key, path) in &self.fields {
            let value = props
                .iter()
                .position(|p| p.path == *path)
                .and_then(|i| values.get(i))
                .cloned()
                .unwrap_or_default();
            dict.insert(Variant::from(key.as_str()), value);
        }
        Config::godot4()
            .from_variant::<T>(&Variant::Dictionary(dict))
            .map_err(|e| ProtocolError::ArgumentType {
                method: self.sync.path.clone(),
                source: e.into(),
            })
    }

    /// Sets the state of `sync` (declared with [`synchronizer`](Self::synchronizer)).
    ///
    /// # Errors
    ///
    /// As [`values`](Self::values) and [`Session::set_state`].
    pub fn set(&self, session: &mut Session, sync: SyncId, state: &T) -> Result<(), ProtocolError> {
        session.set_state(sync, self.values(state)?)
    }

    /// The state of `sync` (after an [`Event::Synchronized`](crate::Event::Synchronized), say).
    ///
    /// # Errors
    ///
    /// [`ProtocolError::Replication`] for an unknown synchronizer; as
    /// [`state_from`](Self::state_from).
    pub fn get(&self, session: &Session, sync: SyncId) -> Result<T, ProtocolError> {
        let values = session
            .state(sync)
            .ok_or_else(|| refuse(format!("no synchronizer {sync:?}")))?;
        self.state_from(values)
    }
}

/// The serde keys of `T`'s fields, in order.
fn field_keys<T: Serialize + Default>() -> Result<Vec<String>, ProtocolError> {
    let value = Config::godot4()
        .to_variant(&T::default())
        .map_err(|e| ProtocolError::Encode(e.to_string()))?;
    let Variant::Dictionary(dict) = value else {
        return Err(ProtocolError::Encode(
            "a synchronized state must be a struct with named fields".into(),
        ));
    };
    dict.keys()
        .map(|key| match key {
            Variant::String(s) => Ok(s.to_string()),
            Variant::StringName(s) => Ok(s.to_string()),
            other => Err(ProtocolError::Encode(format!(
                "field key {other:?} is not a name"
            ))),
        })
        .collect()
}
