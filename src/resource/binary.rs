//! Binary resource files (`.res`, `.scn`: `RSRC`, and `RSCC` when saved with
//! `ResourceSaver.FLAG_COMPRESS`), as `core/io/resource_format_binary.cpp` reads and writes
//! them, for Godot 3 (format version 3) and Godot 4 (format versions 4–6).
//!
//! ```text
//! "RSRC"  big_endian u32  real_is_double u32  engine major u32  minor u32  format version u32
//! main resource class (string)  import metadata offset u64
//! Godot 4: flags u32  uid u64  [script class (string) with flag 8]  11 reserved u32
//! Godot 3: 14 reserved u32
//! string table: count u32, strings
//! external resources: count u32, each class (string) path (string) [uid u64, Godot 4 with flag 2]
//! internal resources: count u32, each path (string: local://ID or res://…::ID) offset u64
//! each internal resource at its offset: class (string), property count u32,
//!   each property: name (string table index u32) value
//! "RSRC"
//! ```
//!
//! A string is its UTF-8 length plus one (u32), the bytes and a NUL. The last internal
//! resource is the main one. Flags (Godot 4): 1 named scene ids, 2 uids, 4 `real_t` is double,
//! 8 script class. Format 4 is Godot 4.0–4.1, 5 (script class) 4.2, 6 (PackedVector4Array)
//! 4.3 and later; Godot 3 writes 3.
//!
//! A compressed file is `RSCC` followed by the rest of a `FileAccessCompressed` file (mode,
//! block size, size, block table, blocks; [`container`](crate::container) reads and writes
//! them), whose content is the file above from the byte after `RSRC`.

use std::collections::HashMap;

use super::binary_scene;
use super::binary_variant::{Budget, Reader, corrupt};
use super::binary_writer::{Met, Tables, Writer, id_text, walk_value};
use super::model::{ExtResource, Reference, ResourceFile, ResourceFormat, SubResource, reference};
use crate::error::{Error, ErrorKind, Result};
use crate::value::Variant;

const MAGIC: &[u8; 4] = b"RSRC";
const COMPRESSED_MAGIC: &[u8; 4] = b"RSCC";
const FLAG_NAMED_SCENE_IDS: u32 = 1;
const FLAG_UIDS: u32 = 2;
const FLAG_REAL_T_IS_DOUBLE: u32 = 4;
const FLAG_HAS_SCRIPT_CLASS: u32 = 8;
const RESERVED_FIELDS_GODOT4: usize = 11;
const RESERVED_FIELDS_GODOT3: usize = 14;
/// The newest format version this module reads (Godot 4.3+ writes 6).
pub const MAX_FORMAT_VERSION: u32 = 6;

/// How [`write_binary`] lays out a file: the engine version and format version of its header,
/// and whether it is compressed. Chosen explicitly: [`BinaryOptions::godot4`] and
/// [`BinaryOptions::godot3`] are what Godot 4.6 and Godot 3.2 write;
/// [`BinaryInfo::options`] are those of a file read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinaryOptions {
    /// The engine version written in the header (major, minor).
    pub engine: (u32, u32),
    /// The format version: 3 for Godot 3, 4–6 for Godot 4.
    pub format_version: u32,
    /// `RSCC` (compressed with Zstandard in 4096-byte blocks, as `FLAG_COMPRESS` saves).
    pub compress: bool,
    /// The path written for the main resource in the internal table (`local://…`); the
    /// engine does not read it back. `None`: `local://` and the class, as for a resource
    /// without an id.
    pub main_path: Option<String>,
    /// The string table to start from (a read file's, to write its bytes again: the engine
    /// puts in it the names of properties it then leaves out for holding their default value).
    /// Names the file uses that are not in it follow in the engine's order.
    pub strings: Vec<String>,
}

impl BinaryOptions {
    /// Godot 4.6's layout: engine 4.6, format version 6, uncompressed.
    #[must_use]
    pub fn godot4() -> Self {
        BinaryOptions {
            engine: (4, 6),
            format_version: 6,
            compress: false,
            main_path: None,
            strings: Vec::new(),
        }
    }

    /// Godot 3.2's layout: engine 3.2, format version 3, uncompressed.
    #[must_use]
    pub fn godot3() -> Self {
        BinaryOptions {
            engine: (3, 2),
            format_version: 3,
            compress: false,
            main_path: None,
            strings: Vec::new(),
        }
    }

    /// The same with `RSCC` compression on or off.
    #[must_use]
    pub fn with_compression(mut self, compress: bool) -> Self {
        self.compress = compress;
        self
    }

    /// The same with another engine version in the header.
    #[must_use]
    pub fn with_engine(mut self, major: u32, minor: u32) -> Self {
        self.engine = (major, minor);
        self
    }

    /// The same with another format version (3 for Godot 3; 4, 5 or 6 for Godot 4).
    #[must_use]
    pub fn with_format_version(mut self, version: u32) -> Self {
        self.format_version = version;
        self
    }

    fn layout(&self) -> ResourceFormat {
        if self.format_version >= 4 {
            ResourceFormat::Godot4
        } else {
            ResourceFormat::Godot3
        }
    }
}

/// What a binary file's header holds beyond the [`ResourceFile`]: enough to write the file's
/// bytes again ([`BinaryInfo::options`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BinaryInfo {
    /// The engine version of the header (major, minor).
    pub engine: (u32, u32),
    /// The format version.
    pub format_version: u32,
    /// Whether the file was `RSCC`.
    pub compressed: bool,
    /// Whether the file was big-endian (`FLAG_SAVE_BIG_ENDIAN`).
    pub big_endian: bool,
    /// Whether `real_t` values are 64-bit (flag 4, a double-precision engine).
    pub real_is_double: bool,
    /// The header's flags (Godot 4), 0 for Godot 3.
    pub flags: u32,
    /// The main resource's path in the internal table.
    pub main_path: String,
    /// The string table.
    pub strings: Vec<String>,
}

impl BinaryInfo {
    /// The options that write the file again: same header, same string table, same
    /// compression.
    #[must_use]
    pub fn options(&self) -> BinaryOptions {
        BinaryOptions {
            engine: self.engine,
            format_version: self.format_version,
            compress: self.compressed,
            main_path: Some(self.main_path.clone()),
            strings: self.strings.clone(),
        }
    }
}

/// Reads a binary resource or scene (`RSRC`, or `RSCC` with the `compression` feature).
///
/// # Errors
///
/// A clear error, with the byte offset where it has one (in the decompressed data for
/// `RSCC`), for anything the engine would not load: a wrong magic, a format version above 6,
/// counts or offsets beyond the file, an unknown value type, a reference out of range,
/// nesting deeper than 1024 levels, invalid UTF-8, a malformed scene. Nothing is allocated
/// from a count the rest of the file cannot hold.
pub fn read_binary(file: &[u8]) -> Result<ResourceFile> {
    read_binary_with_info(file).map(|(file, _)| file)
}

/// [`read_binary`], with the header's details.
///
/// # Errors
///
/// As [`read_binary`].
pub fn read_binary_with_info(file: &[u8]) -> Result<(ResourceFile, BinaryInfo)> {
    let magic = file.get(..4).ok_or_else(|| {
        Error::at(
            ErrorKind::UnexpectedEof {
                needed: 4 - file.len(),
            },
            file.len(),
        )
    })?;
    if magic == COMPRESSED_MAGIC {
        let body = decompress(file)?;
        return parse(&body, true, 0);
    }
    if magic != MAGIC {
        return Err(corrupt(
            format!("not a binary resource: magic {magic:02x?}, expected \"RSRC\" or \"RSCC\""),
            0,
        ));
    }
    parse(file.get(4..).unwrap_or_default(), false, 4).map_err(|e| match e.offset() {
        Some(at) => Error::at(e.into_kind(), at + 4),
        None => e,
    })
}

#[cfg(feature = "compression")]
fn decompress(file: &[u8]) -> Result<Vec<u8>> {
    crate::container::read_compressed_with_magic(
        file,
        COMPRESSED_MAGIC,
        &crate::container::Limits::new(),
    )
}

#[cfg(not(feature = "compression"))]
fn decompress(_file: &[u8]) -> Result<Vec<u8>> {
    Err(ErrorKind::Unsupported(
        "a compressed binary resource (RSCC) needs the `compression` feature".into(),
    )
    .into())
}

/// The file after its magic; `base` is where `data` starts in the stream the internal
/// resources' offsets count in (4 in a plain file, after `RSRC`; 0 in a compressed one,
/// whose stream starts after `RSCC`).
fn parse(data: &[u8], compressed: bool, base: u64) -> Result<(ResourceFile, BinaryInfo)> {
    let mut r = Reader {
        data,
        pos: 0,
        big_endian: false,
        real_is_double: false,
        godot3: false,
        strings: Vec::new(),
        internal_ids: Vec::new(),
        external_count: 0,
        budget: Budget::for_input(data.len()),
    };
    let big_endian = r.u32()? != 0;
    r.big_endian = big_endian;
    let _use_real64 = r.u32()?;
    let major = r.u32()?;
    let minor = r.u32()?;
    let version_at = r.pos;
    let format_version = r.u32()?;
    if format_version > MAX_FORMAT_VERSION || major > 4 {
        return Err(corrupt(
            format!(
                "format version {format_version} of engine {major}.{minor}: this reader knows format versions up to {MAX_FORMAT_VERSION} (Godot 4.6)"
            ),
            version_at,
        ));
    }
    if format_version < 3 {
        return Err(corrupt(
            format!("format version {format_version} (Godot 2 and older) is not supported"),
            version_at,
        ));
    }
    let godot3 = format_version == 3;
    r.godot3 = godot3;
    // The main resource's class, which its own entry repeats.
    let _class = r.ustring("resource class")?;
    let _import_metadata = r.u64()?;
    let mut flags = 0;
    let mut uid = None;
    let mut script_class = None;
    if godot3 {
        r.bytes(4 * RESERVED_FIELDS_GODOT3)?;
    } else {
        flags = r.u32()?;
        r.real_is_double = flags & FLAG_REAL_T_IS_DOUBLE != 0;
        let raw = r.u64()?;
        if flags & FLAG_UIDS != 0 {
            uid = uid_text(raw);
        }
        if flags & FLAG_HAS_SCRIPT_CLASS != 0 {
            script_class = Some(r.ustring("script class")?);
        }
        r.bytes(4 * RESERVED_FIELDS_GODOT4)?;
    }
    let n = r.count("string table size", 4)?;
    let mut strings = Vec::with_capacity(n);
    for _ in 0..n {
        strings.push(r.ustring("string table entry")?);
    }
    r.strings = strings;
    let n = r.count("external resource count", 8)?;
    let mut ext_resources = Vec::with_capacity(n);
    for i in 0..n {
        let class = r.ustring("external resource class")?;
        let path = r.ustring("external resource path")?;
        let uid = if !godot3 && flags & FLAG_UIDS != 0 {
            uid_text(r.u64()?)
        } else {
            None
        };
        ext_resources.push(ExtResource {
            id: (i + 1).to_string(),
            class,
            path,
            uid,
        });
    }
    r.external_count = ext_resources.len();
    let table_at = r.pos;
    let n = r.count("internal resource count", 12)?;
    let mut internal = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.pos;
        let path = r.ustring("internal resource path")?;
        let offset = r.u64()?;
        internal.push((at, path, offset));
    }
    if internal.is_empty() {
        return Err(corrupt(
            "no internal resource: the file has no main resource",
            table_at,
        ));
    }
    r.internal_ids = internal.iter().map(|(_, path, _)| local_id(path)).collect();
    // The resources follow the table one after another, in table order, as the saver writes
    // them: each is read from its offset up to the next one's, so no byte is read twice.
    let mut starts = Vec::with_capacity(internal.len());
    let mut floor = r.pos;
    for (entry_at, path, offset) in &internal {
        let start = offset
            .checked_sub(base)
            .and_then(|o| usize::try_from(o).ok())
            .filter(|&o| o >= floor && o < data.len())
            .ok_or_else(|| {
                corrupt(
                    format!(
                        "internal resource {path:?} at offset {offset}: not after the previous resource (byte {}) within the file's {} bytes",
                        floor as u64 + base,
                        data.len() as u64 + base
                    ),
                    entry_at + 4 + path.len() + 1,
                )
            })?;
        starts.push(start);
        floor = start + 1;
    }
    let mut resources = Vec::with_capacity(internal.len());
    let count = internal.len();
    // Where the main resource's `_bundled` value starts: a scene state's errors point there.
    let mut bundled_at = 0;
    for (i, (_, path, _)) in internal.iter().enumerate() {
        let start = starts.get(i).copied().unwrap_or(data.len());
        let end = starts.get(i + 1).copied().unwrap_or(data.len());
        r.pos = start;
        let full = r.data;
        r.data = full.get(..end).unwrap_or(full);
        let class = r.ustring("resource class")?;
        let n = r.count("property count", 8)?;
        let mut properties = Vec::with_capacity(n);
        for _ in 0..n {
            let name_at = r.pos;
            let name = r.table_string()?;
            if name.is_empty() {
                return Err(corrupt("a property without a name", name_at));
            }
            if name == "_bundled" {
                bundled_at = r.pos;
            }
            let value = r.variant(0)?;
            properties.push((name, value));
        }
        r.data = full;
        let main = i + 1 == count;
        resources.push((local_id(path), path.clone(), class, properties, main));
    }
    let Some((_, main_path, main_class, main_properties, _)) = resources.pop() else {
        return Err(corrupt("no main resource", table_at));
    };
    let sub_resources = resources
        .into_iter()
        .map(|(id, _, class, properties, _)| SubResource {
            id,
            class,
            properties,
        })
        .collect();
    let format = if godot3 {
        ResourceFormat::Godot3
    } else {
        ResourceFormat::Godot4
    };
    let mut file = ResourceFile {
        format,
        class: main_class,
        script_class,
        uid,
        ext_resources,
        sub_resources,
        properties: main_properties,
        scene: None,
    };
    if file.class == "PackedScene" {
        binary_scene::unbundle(&mut file, &mut r.budget).map_err(|e| e.or_at(bundled_at))?;
    }
    let info = BinaryInfo {
        engine: (major, minor),
        format_version,
        compressed,
        big_endian,
        real_is_double: r.real_is_double,
        flags,
        main_path,
        strings: r.strings,
    };
    Ok((file, info))
}

/// A resource to write: its id, class and properties (borrowed from the model).
type ToWrite<'a> = (&'a str, &'a str, Vec<(&'a str, &'a Variant)>);

/// The id of an internal resource's path: what follows `local://`, or after `::` for a
/// `res://file::id` path, or the whole path.
fn local_id(path: &str) -> String {
    if let Some(id) = path.strip_prefix("local://") {
        return id.to_owned();
    }
    match path.rfind("::") {
        Some(i) => path.get(i + 2..).unwrap_or_default().to_owned(),
        None => path.to_owned(),
    }
}

/// Writes `file` as the engine's binary saver does: the same header, string table order
/// (NodePath names first, as the saver meets them walking the resources from the main one,
/// then property names in resource order, after `options.strings`), external and internal
/// tables, and properties in the model's order; the main resource last.
///
/// # Errors
///
/// [`ErrorKind::Unsupported`] when the file's [`ResourceFormat`] is not the options' one
/// (format version 3 is Godot 3, 4–6 Godot 4), for a format version above 6, a value the
/// target engine does not have (Vector2i for Godot 3, PackedVector4Array below format 6), a
/// reference to an id the file does not list, an object that is not a reference, a string
/// containing NUL; [`ErrorKind::Unsupported`] too for `compress` without the `compression`
/// feature.
pub fn write_binary(file: &ResourceFile, options: &BinaryOptions) -> Result<Vec<u8>> {
    let unsupported = |m: String| -> Error { ErrorKind::Unsupported(m.into()).into() };
    if options.format_version > MAX_FORMAT_VERSION || options.format_version < 3 {
        return Err(unsupported(format!(
            "format version {}: Godot 3 writes 3, Godot 4 writes 4 to 6",
            options.format_version
        )));
    }
    if options.layout() != file.format {
        return Err(unsupported(format!(
            "a {:?} resource written with format version {} (Godot 3 is format version 3, Godot 4 4 to 6)",
            file.format, options.format_version
        )));
    }
    let godot3 = file.format == ResourceFormat::Godot3;
    // The main resource's properties: a scene's state is its `_bundled` Dictionary. Borrowed,
    // not copied: a save game's main resource may hold most of the file.
    let bundled = match &file.scene {
        Some(scene) => Some(binary_scene::bundle(scene, file.format)?),
        None => None,
    };
    let mut main_properties: Vec<(&str, &Variant)> = file
        .properties
        .iter()
        .filter(|(name, _)| bundled.is_none() || name != "_bundled")
        .map(|(name, value)| (name.as_str(), value))
        .collect();
    if let Some(bundled) = &bundled {
        // In the engine's property order: Resource's own (`resource_*`) first, then
        // PackedScene's `_bundled`, then `script` and metadata.
        let at = main_properties
            .iter()
            .position(|(name, _)| !name.starts_with("resource_"))
            .unwrap_or(main_properties.len());
        main_properties.insert(at, ("_bundled", bundled));
    }
    // (id, class, properties) of each resource, the main one last.
    let mut resources: Vec<ToWrite<'_>> = file
        .sub_resources
        .iter()
        .map(|sub| {
            let props = sub
                .properties
                .iter()
                .map(|(n, v)| (n.as_str(), v))
                .collect();
            (sub.id.as_str(), sub.class.as_str(), props)
        })
        .collect();
    resources.push(("", file.class.as_str(), main_properties));
    if options.format_version < 6 {
        for (_, _, properties) in &resources {
            for (name, value) in properties {
                if contains_vector4_array(value) {
                    return Err(unsupported(format!(
                        "property {name:?} holds a PackedVector4Array, which format version {} does not have (6 and later)",
                        options.format_version
                    )));
                }
            }
        }
    }

    // The string table: the seed, then NodePath names in the saver's walk, then property names.
    let mut strings: Vec<String> = Vec::new();
    let mut index: HashMap<String, u32> = HashMap::new();
    let add = |s: &str, strings: &mut Vec<String>, index: &mut HashMap<String, u32>| {
        if !index.contains_key(s) {
            index.insert(s.to_owned(), strings.len() as u32);
            strings.push(s.to_owned());
        }
    };
    for s in &options.strings {
        add(s, &mut strings, &mut index);
    }
    let mut path_names: Vec<&str> = Vec::new();
    let mut visited = vec![false; file.sub_resources.len()];
    if let Some((_, _, main)) = resources.last() {
        let values: Vec<&Variant> = main.iter().map(|(_, v)| *v).collect();
        walk_paths(file, &values, &mut visited, &mut path_names);
    }
    for (i, sub) in file.sub_resources.iter().enumerate() {
        if !visited.get(i).copied().unwrap_or(true) {
            if let Some(slot) = visited.get_mut(i) {
                *slot = true;
            }
            let values: Vec<&Variant> = sub.properties.iter().map(|(_, v)| v).collect();
            walk_paths(file, &values, &mut visited, &mut path_names);
        }
    }
    for s in path_names {
        add(s, &mut strings, &mut index);
    }
    for (_, _, properties) in &resources {
        for (name, _) in properties {
            add(name, &mut strings, &mut index);
        }
    }

    let mut w = Writer {
        out: Vec::with_capacity(1024),
    };
    w.out.extend_from_slice(MAGIC);
    w.u32(0); // little-endian
    w.u32(0); // 64-bit file: always false
    w.u32(options.engine.0);
    w.u32(options.engine.1);
    w.u32(options.format_version);
    w.ustring(&file.class)?;
    w.u64(0); // import metadata offset
    if godot3 {
        for _ in 0..RESERVED_FIELDS_GODOT3 {
            w.u32(0);
        }
    } else {
        let script_class = file.script_class.as_deref().filter(|s| {
            !s.is_empty() && options.format_version >= 5 && file.class != "PackedScene"
        });
        let mut flags = FLAG_NAMED_SCENE_IDS | FLAG_UIDS;
        if script_class.is_some() {
            flags |= FLAG_HAS_SCRIPT_CLASS;
        }
        w.u32(flags);
        w.u64(uid_id(file.uid.as_deref())?);
        if let Some(class) = script_class {
            w.ustring(class)?;
        }
        for _ in 0..RESERVED_FIELDS_GODOT4 {
            w.u32(0);
        }
    }
    w.u32(u32_len(strings.len())?);
    for s in &strings {
        w.ustring(s)?;
    }
    w.u32(u32_len(file.ext_resources.len())?);
    for ext in &file.ext_resources {
        w.ustring(&ext.class)?;
        w.ustring(&ext.path)?;
        if !godot3 {
            w.u64(uid_id(ext.uid.as_deref())?);
        }
    }
    w.u32(u32_len(resources.len())?);
    let mut slots = Vec::with_capacity(resources.len());
    for (i, (id, _, _)) in resources.iter().enumerate() {
        let path = if i + 1 == resources.len() {
            options
                .main_path
                .clone()
                .unwrap_or_else(|| format!("local://{}", if godot3 { "0" } else { &file.class }))
        } else if id.contains("://") {
            (*id).to_owned()
        } else {
            format!("local://{id}")
        };
        w.ustring(&path)?;
        slots.push(w.out.len());
        w.u64(0);
    }
    let external: Vec<String> = file.ext_resources.iter().map(|e| e.id.clone()).collect();
    let internal: Vec<String> = file.sub_resources.iter().map(|s| s.id.clone()).collect();
    let tables = Tables {
        godot3,
        external: &external,
        internal: &internal,
        strings: &index,
    };
    for ((_, class, properties), slot) in resources.iter().zip(slots) {
        // Offsets count from the start of the file, magic included; a compressed file's
        // from the start of its compressed stream, which has no magic.
        let offset = if options.compress {
            w.out.len() - 4
        } else {
            w.out.len()
        } as u64;
        if let Some(bytes) = w.out.get_mut(slot..slot + 8) {
            bytes.copy_from_slice(&offset.to_le_bytes());
        }
        w.ustring(class)?;
        w.u32(u32_len(properties.len())?);
        for (name, value) in properties {
            let i = index.get(*name).copied().unwrap_or(0);
            w.u32(i);
            w.variant(value, &tables)
                .map_err(|e| unsupported(format!("property {name:?}: {}", e.kind())))?;
        }
    }
    w.out.extend_from_slice(MAGIC);
    if options.compress {
        return compress(&w.out);
    }
    Ok(w.out)
}

#[cfg(feature = "compression")]
fn compress(plain: &[u8]) -> Result<Vec<u8>> {
    crate::container::write_compressed_with_magic(
        plain.get(4..).unwrap_or_default(),
        COMPRESSED_MAGIC,
        crate::container::CompressionMode::Zstd,
        crate::container::DEFAULT_BLOCK_SIZE,
    )
}

#[cfg(not(feature = "compression"))]
fn compress(_plain: &[u8]) -> Result<Vec<u8>> {
    Err(ErrorKind::Unsupported(
        "a compressed binary resource (RSCC) needs the `compression` feature".into(),
    )
    .into())
}

fn u32_len(n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        Error::new(ErrorKind::Unsupported(
            "a table of 2^32 entries or more".into(),
        ))
    })
}

fn contains_vector4_array(v: &Variant) -> bool {
    match v {
        Variant::PackedVector4Array(_) => true,
        Variant::Array(a) => a.items.iter().any(contains_vector4_array),
        Variant::Dictionary(d) => d
            .iter()
            .any(|(k, v)| contains_vector4_array(k) || contains_vector4_array(v)),
        _ => false,
    }
}

/// NodePath names in the order the saver registers them (`_find_resources`): a resource's
/// properties in order, a sub-resource's before the rest of the property that refers to it.
fn walk_paths<'f>(
    file: &'f ResourceFile,
    values: &[&'f Variant],
    visited: &mut Vec<bool>,
    out: &mut Vec<&'f str>,
) {
    for value in values {
        let mut met = Vec::new();
        walk_value(value, &mut met);
        for item in met {
            match item {
                Met::Name(s) => out.push(s),
                Met::Object(v) => {
                    let Some(Reference::Sub(id)) = reference(v) else {
                        continue;
                    };
                    let key = id_text(id);
                    let Some(i) = file.sub_resources.iter().position(|s| s.id == key) else {
                        continue;
                    };
                    if visited.get(i).copied().unwrap_or(true) {
                        continue;
                    }
                    if let Some(slot) = visited.get_mut(i) {
                        *slot = true;
                    }
                    if let Some(sub) = file.sub_resources.get(i) {
                        let values: Vec<&Variant> = sub.properties.iter().map(|(_, v)| v).collect();
                        crate::wire::depth::grow(|| walk_paths(file, &values, visited, out));
                    }
                }
            }
        }
    }
}

/// The base-34 digits of `ResourceUID::id_to_text` (`z` and `9` unused, as in the engine).
const UID_DIGITS: &[u8; 34] = b"abcdefghijklmnopqrstuvwxy012345678";

/// `uid://…` for a uid, `None` for the invalid id (-1) and any other negative one.
pub fn uid_text(raw: u64) -> Option<String> {
    let mut id = i64::from_ne_bytes(raw.to_ne_bytes());
    if id < 0 {
        return None;
    }
    let mut digits = Vec::new();
    loop {
        let c = (id % 34) as usize;
        digits.push(UID_DIGITS.get(c).copied().unwrap_or(b'a'));
        id /= 34;
        if id == 0 {
            break;
        }
    }
    digits.reverse();
    Some(format!("uid://{}", String::from_utf8_lossy(&digits)))
}

/// The id of `uid://…` (`ResourceUID::text_to_id`), -1 for `None`.
///
/// # Errors
///
/// [`ErrorKind::Unsupported`] for a text that is not `uid://` and base-34 digits.
pub fn uid_id(text: Option<&str>) -> Result<u64> {
    let Some(text) = text else {
        return Ok(u64::MAX);
    };
    let bad = || -> Error {
        ErrorKind::Unsupported(
            format!("{text:?} is not a uid (uid:// and letters a-y, digits 0-8)").into(),
        )
        .into()
    };
    let digits = text.strip_prefix("uid://").ok_or_else(bad)?;
    if digits == "<invalid>" {
        return Ok(u64::MAX);
    }
    let mut id: u64 = 0;
    for c in digits.bytes() {
        let d = match c {
            b'a'..=b'z' => u64::from(c - b'a'),
            b'0'..=b'9' => u64::from(c - b'0') + 25,
            _ => return Err(bad()),
        };
        id = id.wrapping_mul(34).wrapping_add(d);
    }
    Ok(id & 0x7FFF_FFFF_FFFF_FFFF)
}
