//! Bytes straight into a [`Variant`], without serde's data model:
//! [`Deserializer::read_variant`], a client of the [`Reader`](crate::wire::Reader).
//!
//! Every type is read here, through the Deserializer's wire reader (header, depth, budget,
//! String fields) and the payload rules of `wire/payload.rs` that the serde path uses too
//! (counts, NodePath head, RID, Object head, Signal fields, components); no serde visitor is
//! involved. The result, the errors (kind, offset and path) and the bytes used are those of
//! `Variant::deserialize`, which the `decode_variant` and `slice_vs_reader` fuzz targets check
//! on every input.

use crate::config::GodotVersion;
use crate::de::Deserializer;
use crate::error::{Error, ErrorKind, Result, Segment};
use crate::read::Read;
use crate::types::{
    Callable, NodePath, ObjectId, PackedByteArray, PackedStringArray, Real, Rid, Signal,
    StringName, cautious, decode_packed,
};
use crate::value::{
    Array, ContainerType, Dictionary, DictionaryBuilder, KeyMode, Object, Variant, text_print,
};
use crate::wire::payload::{NODE_PATH_NAME, NODE_PATH_SUBNAME, PACKED_STRING, PROPERTY_NAME};
use crate::wire::{
    Descriptor, FromNumber, HeaderAt, Hint, Item, ObjectHead, Reader, VariantType, padding, string,
};

/// A 64-bit component as a [`Real`]: cast as serde's `f32` visitor (and Godot's
/// single-precision `real_t`) casts it.
#[allow(clippy::cast_possible_truncation, clippy::unnecessary_cast)]
fn real(v: f64) -> Real {
    v as Real
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// Decodes the next value as a [`Variant`], as `Variant::deserialize(&mut de)` does, but
    /// without going through serde's data model: the way to read dynamic data fast.
    ///
    /// ```
    /// use godot_serde::{Config, Deserializer, Variant};
    ///
    /// let bytes = godot_serde::to_bytes(&[1, 2])?;
    /// let mut de = Deserializer::from_slice(&bytes, Config::default());
    /// assert_eq!(de.read_variant()?, Variant::from(vec![Variant::Int(1), Variant::Int(2)]));
    /// de.end()?;
    /// # Ok::<(), godot_serde::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of `Variant::deserialize`: malformed input for the configured engine, a
    /// nesting deeper than [`Config::with_max_depth`](crate::Config::with_max_depth), an
    /// Object when objects are not allowed, ...
    pub fn read_variant(&mut self) -> Result<Variant> {
        // A header the serde path read ahead (`Option`) is this value's; nothing below reads
        // ahead.
        if let Some(h) = self.take_read_ahead() {
            return self.read_variant_at(h);
        }
        FromBytes { de: self }.variant_in(&mut Shapes::default(), None)
    }

    /// [`read_variant`](Self::read_variant) for a header read ahead.
    #[cold]
    #[inline(never)]
    fn read_variant_at(&mut self, h: HeaderAt) -> Result<Variant> {
        FromBytes { de: self }
            .variant_at(h, &mut Shapes::default(), None)
            .map_err(|e| e.or_at(h.offset))
    }
}

/// The bytes → Variant reader over a [`Deserializer`] (whose [`Reader`] it reads through).
struct FromBytes<'a, R> {
    de: &'a mut Deserializer<R>,
}

impl<'de, R: Read<'de>> FromBytes<'_, R> {
    /// The wire reader.
    #[inline(always)]
    fn rd(&mut self) -> &mut Reader<R> {
        self.de.wire()
    }

    /// [`read_variant`](Deserializer::read_variant), with the keys the Arrays being read
    /// remember (`shapes`); `row`: this is an Array element whose Dictionary may meet the keys
    /// of the element before it, from `shapes.keys[row..]`.
    fn variant_in(&mut self, shapes: &mut Shapes<'de>, row: Option<usize>) -> Result<Variant> {
        let h = self.rd().read_header()?;
        self.variant_at(h, shapes, row)
            .map_err(|e| e.or_at(h.offset))
    }

    /// [`variant_in`](Self::variant_in) with the header read.
    fn variant_at(
        &mut self,
        h: HeaderAt,
        shapes: &mut Shapes<'de>,
        row: Option<usize>,
    ) -> Result<Variant> {
        use VariantType as T;
        Ok(match h.ty {
            T::Nil => Variant::Nil,
            T::Bool => Variant::Bool(self.rd().read_u32()? != 0),
            T::Int => Variant::Int(self.rd().read_int(h.head)?),
            T::Float => Variant::Float(self.rd().read_float(h.head)?),
            T::String => Variant::String((*self.rd().read_text("String")?).into()),
            T::Vector2 => Variant::Vector2(self.reals(h)?),
            T::Vector3 => Variant::Vector3(self.reals(h)?),
            T::Array => match self.rd().array_descriptor(h.head)? {
                None => self.array(shapes, ContainerType::Untyped)?,
                Some(d) => {
                    let element_type = container_type(d)?;
                    self.array(shapes, element_type)?
                }
            },
            T::Dictionary => match self.rd().dictionary_descriptors(h.head)? {
                None => self.dictionary(shapes, row)?,
                Some((k, v)) => {
                    let (k, v) = (container_type(k)?, container_type(v)?);
                    self.typed_dictionary(shapes, k, v)?
                }
            },
            T::Object => match self.rd().read_object_head(h)? {
                ObjectHead::Null => Variant::Nil,
                ObjectHead::Id(id) => Variant::ObjectId(ObjectId(id)),
                ObjectHead::Full { class, count } => self.object(class, count, shapes)?,
            },
            _ => self.other(h)?,
        })
    }

    /// [`variant_at`](Self::variant_at) for the types that hold no Variant, but for the
    /// common ones: out of line, so that the containers' frames stay small.
    #[inline(never)]
    fn other(&mut self, h: HeaderAt) -> Result<Variant> {
        use VariantType as T;
        let rd = self.rd();
        Ok(match h.ty {
            T::Vector2i => Variant::Vector2i(self.numbers::<_, i32>(h)?),
            T::Rect2 => Variant::Rect2(self.reals(h)?),
            T::Rect2i => Variant::Rect2i(self.numbers::<_, i32>(h)?),
            T::Vector3i => Variant::Vector3i(self.numbers::<_, i32>(h)?),
            T::Transform2D => Variant::from(self.reals::<crate::types::Transform2D>(h)?),
            T::Vector4 => Variant::Vector4(self.reals(h)?),
            T::Vector4i => Variant::Vector4i(self.numbers::<_, i32>(h)?),
            T::Plane => Variant::Plane(self.reals(h)?),
            T::Quaternion => Variant::Quaternion(self.reals(h)?),
            T::Aabb => Variant::from(self.reals::<crate::types::Aabb>(h)?),
            T::Basis => Variant::from(self.reals::<crate::types::Basis>(h)?),
            T::Transform3D => Variant::from(self.reals::<crate::types::Transform3D>(h)?),
            T::Projection => Variant::from(self.reals::<crate::types::Projection>(h)?),
            T::Color => Variant::Color(self.numbers::<_, f32>(h)?),
            T::StringName => Variant::StringName(StringName(rd.read_string("StringName")?)),
            T::NodePath => {
                let head = rd.read_node_path_head()?;
                let names = self.strings(head.names, NODE_PATH_NAME)?;
                let subnames = self.strings(head.subnames, NODE_PATH_SUBNAME)?;
                Variant::from(NodePath {
                    names,
                    subnames,
                    absolute: head.absolute,
                })
            }
            T::Rid => Variant::Rid(Rid(rd.read_rid()?)),
            T::Callable => Variant::Callable(Callable),
            T::Signal => {
                let name = (*rd.read_signal_name()?).to_owned();
                let object = rd.read_signal_object()?;
                Variant::from(Signal::new(name, ObjectId(object)))
            }
            T::PackedByteArray => {
                let len = rd.read_byte_array_len()?;
                let bytes = rd.read_slice(len)?.to_vec();
                rd.skip_padding(padding(len))?;
                Variant::PackedByteArray(PackedByteArray(bytes))
            }
            T::PackedInt32Array => Variant::PackedInt32Array(self.packed(h)?.into()),
            T::PackedInt64Array => Variant::PackedInt64Array(self.packed(h)?.into()),
            T::PackedFloat32Array => Variant::PackedFloat32Array(self.packed(h)?.into()),
            T::PackedFloat64Array => Variant::PackedFloat64Array(self.packed(h)?.into()),
            T::PackedStringArray => {
                let count = rd.read_string_array_count()?;
                Variant::PackedStringArray(PackedStringArray(self.strings(count, PACKED_STRING)?))
            }
            T::PackedVector2Array => Variant::PackedVector2Array(self.packed(h)?.into()),
            T::PackedVector3Array => Variant::PackedVector3Array(self.packed(h)?.into()),
            T::PackedColorArray => Variant::PackedColorArray(self.packed(h)?.into()),
            T::PackedVector4Array => Variant::PackedVector4Array(self.packed(h)?.into()),
            // The containers, Object and the leaf types above are `variant_at`'s.
            other => return Err(not_read_here(other)),
        })
    }

    /// An Array element or a Dictionary entry's value, read from the input slice when it is
    /// there: a leaf value (see [`leaf`]) straight from it, a container after the header read
    /// here; anything else, or anything [`leaf`] does not take (which
    /// [`variant_in`](Self::variant_in) then explains when it is wrong), by `variant_in`,
    /// which reads the same bytes. `depth_ok`: the caller knows the depth is within the limit (no key's
    /// text is being read in the loops that call this).
    #[inline(always)]
    fn item(
        &mut self,
        depth_ok: bool,
        shapes: &mut Shapes<'de>,
        row: Option<usize>,
    ) -> Result<Variant> {
        if depth_ok {
            let rd = self.rd();
            if let Some((word, rest)) = rd.unread().and_then(<[u8]>::split_first_chunk) {
                if let Ok(head) = rd.decode_header(u32::from_le_bytes(*word)) {
                    if let Some((v, rest)) = leaf(head, rest, rd.version()) {
                        rd.read_to(rest);
                        return Ok(v);
                    }
                    if matches!(head.ty, VariantType::Array | VariantType::Dictionary) {
                        let h = HeaderAt {
                            head,
                            offset: rd.offset(),
                        };
                        rd.read_to(rest);
                        return self
                            .variant_at(h, shapes, row)
                            .map_err(|e| e.or_at(h.offset));
                    }
                }
            }
        }
        self.variant_in(shapes, row)
    }

    /// A Dictionary entry's value ([`item`](Self::item)); an error names the key that starts
    /// at `key_at`. The key was read at the same depth (or its depth checked, when known), so
    /// the depth is within the limit.
    #[inline(always)]
    fn value(&mut self, shapes: &mut Shapes<'de>, key_at: usize) -> Result<Variant> {
        match self.item(true, shapes, None) {
            Ok(v) => Ok(v),
            Err(e) => Err(e.in_segment(self.de.key_path(key_at))),
        }
    }

    /// A float math type: its [`Real`] components, as [`numbers`](Self::numbers) reads them.
    #[inline]
    fn reals<T: bytemuck::Pod>(&mut self, h: HeaderAt) -> Result<T> {
        self.numbers::<T, Real>(h)
    }

    /// A math type (or Color) whose components are `C`s, read as its marker payload reads
    /// them: of the type's component kind, `f64` for `real_t` ones with the 4.x 64-bit flag.
    #[inline]
    fn numbers<T: bytemuck::Pod, C: bytemuck::Pod + FromNumber>(
        &mut self,
        h: HeaderAt,
    ) -> Result<T> {
        let Some((_, scalar)) = h.ty.components() else {
            return Err(not_read_here(h.ty));
        };
        let comp = scalar.on_wire(self.rd().wide(h.head));
        let mut value = T::zeroed();
        let slots: &mut [C] = bytemuck::try_cast_slice_mut(core::slice::from_mut(&mut value))
            .map_err(|_| not_read_here(h.ty))?;
        self.rd().read_components(comp, slots)?;
        Ok(value)
    }

    /// A numeric packed array's elements (its header `h` read), as its marker payload reads
    /// them: the count checked ([`Reader::read_packed_len`]), the bytes decoded as the
    /// marker's bytes are.
    fn packed<E: crate::types::Flat>(&mut self, h: HeaderAt) -> Result<Vec<E>> {
        let Some((n, scalar)) = h.ty.packed_element() else {
            return Err(not_read_here(h.ty));
        };
        let rd = self.rd();
        let width = scalar.size(rd.wide(h.head));
        let len = rd.read_packed_len(usize::from(n) * width)?;
        let bytes = rd.read_slice(len)?;
        decode_packed::<E, Error>(&bytes, width, h.ty.name())
    }

    /// `count` String fields (NodePath names, PackedStringArray elements), as the serde path's
    /// sequence of them reads them: charged to the budget as a container of `count`.
    fn strings(&mut self, count: u32, what: &'static str) -> Result<Vec<String>> {
        let rd = self.rd();
        let hint = rd.charge(count, Item::PackedString);
        let mut left = count;
        let mut read = || {
            let mut out = Vec::with_capacity(cautious(hint.get(left)));
            while left > 0 {
                left -= 1;
                hint.took_one(left, rd);
                out.push(rd.read_string(what)?);
            }
            Ok(out)
        };
        let r = read();
        hint.release(left, rd);
        r
    }

    /// A full Object's `count` properties (its class read), one level deeper, as the serde
    /// path reads them: a name that may not be a reserved marker name, then a Variant.
    fn object(&mut self, class: String, count: u32, shapes: &mut Shapes<'de>) -> Result<Variant> {
        self.nested(|fb| {
            let hint = fb.rd().charge(count, Item::Property);
            let mut left = count;
            let mut read = || {
                let mut properties = Vec::with_capacity(cautious(hint.get(left)));
                while left > 0 {
                    left -= 1;
                    let rd = fb.rd();
                    hint.took_one(left, rd);
                    let at = rd.offset();
                    let name = rd.read_text(PROPERTY_NAME)?;
                    Deserializer::<R>::check_key(&name, at)?;
                    let name = (*name).to_owned();
                    properties.push((name, fb.variant_in(shapes, None)?));
                }
                Ok(properties)
            };
            let r: Result<Vec<_>> = read();
            hint.release(left, fb.rd());
            Ok(Variant::from(Object {
                class,
                properties: r?,
            }))
        })
    }

    /// Runs `f` one level deeper, as the Deserializer's `nested` does, but checking the stack
    /// left every [`LEVELS_PER_STACK_CHECK`] levels instead of at each one: this reader's
    /// levels are small and known.
    fn nested<T>(&mut self, f: impl FnOnce(&mut FromBytes<'_, R>) -> Result<T>) -> Result<T> {
        self.de
            .nested_every(LEVELS_PER_STACK_CHECK, |de| f(&mut FromBytes { de }))
    }

    /// An Array's elements (of `element_type`, untyped or from its descriptor), as the
    /// Deserializer and `Array`'s visitor read them. The keys its Dictionaries remember go on
    /// top of `shapes`, starting from those the last Array left (`shapes.recent`); when it
    /// ends, its own become those.
    fn array(&mut self, shapes: &mut Shapes<'de>, element_type: ContainerType) -> Result<Variant> {
        let count = self.rd().read_count("Array count", Item::Element)?;
        self.nested(|fb| {
            let hint = fb.rd().charge(count, Item::Element);
            let mut left = count;
            let row = shapes.keys.len();
            // Records often hold Arrays of records of one shape (a player's items): the keys of
            // the last Dictionary of the Array that ended last are this one's first guess.
            shapes.keys.append(&mut shapes.recent);
            // The elements' depth, the same for all.
            let depth_ok = fb.rd().depth.allows();
            let r = (|| {
                let mut items = Vec::with_capacity(cautious(hint.get(left)));
                while left > 0 {
                    left -= 1;
                    hint.took_one(left, fb.rd());
                    match fb.item(depth_ok, shapes, Some(row)) {
                        Ok(v) => items.push(v),
                        Err(e) => {
                            return Err(e.in_segment(Segment::Index((count - left - 1) as usize)));
                        }
                    }
                }
                Ok(items)
            })();
            hint.release(left, fb.rd());
            shapes.recent.clear();
            let ended = shapes.keys.drain(row..);
            shapes.recent.extend(ended);
            Ok(Variant::from(Array {
                element_type,
                items: r?,
            }))
        })
    }

    /// An untyped Dictionary's entries, as the Deserializer and `Dictionary`'s visitor read
    /// them: a repeated key keeps its place and takes the later value. `row`: where in
    /// `shapes` the keys of the Dictionary before this one in the same Array are.
    fn dictionary(&mut self, shapes: &mut Shapes<'de>, row: Option<usize>) -> Result<Variant> {
        let count = self.rd().read_count("Dictionary count", Item::Entry)?;
        if count == 0 {
            return self.nested(|_| Ok(Variant::from(Dictionary::new())));
        }
        self.nested(|fb| {
            let hint = fb.rd().charge(count, Item::Entry);
            let mut left = count;
            let r = fb.entries(count, &mut left, hint, shapes, row);
            hint.release(left, fb.rd());
            r.map(Variant::from)
        })
    }

    /// A typed Dictionary's entries (its descriptors read): those of an untyped one, with
    /// its key and value types. Out of line: the untyped one is the common case.
    #[inline(never)]
    fn typed_dictionary(
        &mut self,
        shapes: &mut Shapes<'de>,
        key_type: ContainerType,
        value_type: ContainerType,
    ) -> Result<Variant> {
        let mut v = self.dictionary(shapes, None)?;
        if let Variant::Dictionary(d) = &mut v {
            d.set_key_type(key_type);
            d.set_value_type(value_type);
        }
        Ok(v)
    }

    /// The `count` entries of a Dictionary (`left` of them left unread), each key first
    /// matched against the remembered key at the same place (`shapes.keys[row + i]`).
    fn entries(
        &mut self,
        count: u32,
        left: &mut u32,
        hint: Hint,
        shapes: &mut Shapes<'de>,
        mut row: Option<usize>,
    ) -> Result<Dictionary> {
        // Room as the serde path makes it once the first key is read (`left` then one less).
        let mut dict = DictionaryBuilder::with_capacity(
            KeyMode::Exact,
            cautious(hint.get(count.saturating_sub(1))).saturating_add(1),
        );
        let mut i = 0;
        // Keys are read one level deeper than the Dictionary, at the depth `nested` set: a
        // known key skips the header read that checks it, so it is checked here.
        if !self.rd().depth.allows() {
            row = None;
        }
        while *left > 0 {
            *left -= 1;
            let rd = self.rd();
            let key_at = rd.offset();
            hint.took_one(*left, rd);
            // A key with the bytes of the remembered one: cloned, and distinct from the
            // earlier keys (which all matched too).
            if let (Some(row), Some(unread)) = (row, rd.unread()) {
                if let Some((key, print, rest)) = shapes.known(row + i, unread) {
                    rd.read_to(rest);
                    let value = self.value(shapes, key_at)?;
                    dict.push_distinct(key, value, print);
                    i += 1;
                    continue;
                }
            }
            let (key, print) = self.key(shapes)?;
            let key_len = self.rd().offset() - key_at;
            let value = self.value(shapes, key_at)?;
            let learned = row.and_then(|row| {
                let raw = self.rd().input_from(key_at)?.get(..key_len)?;
                shapes.learn(row, i, &key, print, raw)
            });
            let repeated = dict.insert_printed(key, value, print).is_some();
            match learned {
                Some(known) if !repeated => shapes.remember(known),
                // What follows a key not learned or repeated is not learned.
                _ => row = None,
            }
            i += 1;
        }
        Ok(dict.finish())
    }

    /// A Dictionary key: a String or StringName key's text may not be a reserved marker name,
    /// as the Deserializer's keys are checked.
    fn key(&mut self, shapes: &mut Shapes<'de>) -> Result<(Variant, u64)> {
        let h = self.rd().read_header()?;
        let r = match h.ty {
            VariantType::String => self.rd().read_text("String").and_then(|s| {
                Deserializer::<R>::check_key(&s, h.offset)?;
                Ok((Variant::String((*s).into()), text_print(s.as_bytes())))
            }),
            _ => self.other_key(h, shapes),
        };
        r.map_err(|e| e.or_at(h.offset))
    }

    /// [`key`](Self::key) for a key that is not a String, out of line (most keys are
    /// Strings).
    #[inline(never)]
    fn other_key(&mut self, h: HeaderAt, shapes: &mut Shapes<'de>) -> Result<(Variant, u64)> {
        if h.ty == VariantType::StringName {
            let s = self.rd().read_text("StringName")?;
            Deserializer::<R>::check_key(&s, h.offset)?;
            return Ok(printed(Variant::StringName(StringName((*s).to_owned()))));
        }
        self.variant_at(h, shapes, None).map(printed)
    }
}

/// The element, key or value type a typed container's descriptor `d` stands for.
fn container_type(d: Descriptor) -> Result<ContainerType> {
    ContainerType::from_parts(d.kind, d.id, d.name).map_err(|m| Error::new(ErrorKind::Message(m)))
}

/// The error for a type [`FromBytes::other`] does not read (the table rules that out).
#[cold]
fn not_read_here(ty: VariantType) -> Error {
    Error::new(ErrorKind::Message(
        format!("{ty} is not read by this reader").into(),
    ))
}

/// `key` and its [`fingerprint`](crate::value::fingerprint).
fn printed(key: Variant) -> (Variant, u64) {
    let print = crate::value::fingerprint(&key);
    (key, print)
}

/// A leaf value of header `h` (nil, bool, int, float, String, Vector2, Vector3) from the
/// start of `rest` when it is whole and well-formed, and the bytes after it; `None` for
/// anything else.
#[inline(always)]
fn leaf(h: crate::wire::Header, rest: &[u8], version: GodotVersion) -> Option<(Variant, &[u8])> {
    use VariantType as T;
    Some(match h.ty {
        T::Nil => (Variant::Nil, rest),
        T::Bool => {
            let (b, rest) = rest.split_first_chunk::<4>()?;
            (Variant::Bool(u32::from_le_bytes(*b) != 0), rest)
        }
        T::Int if h.flag() => {
            let (b, rest) = rest.split_first_chunk::<8>()?;
            (Variant::Int(i64::from_le_bytes(*b)), rest)
        }
        T::Int => {
            let (b, rest) = rest.split_first_chunk::<4>()?;
            (Variant::Int(i32::from_le_bytes(*b).into()), rest)
        }
        T::Float if h.flag() => {
            let (b, rest) = rest.split_first_chunk::<8>()?;
            (Variant::Float(f64::from_le_bytes(*b)), rest)
        }
        T::Float => {
            let (b, rest) = rest.split_first_chunk::<4>()?;
            (Variant::Float(f32::from_le_bytes(*b).into()), rest)
        }
        T::String => {
            let (len, rest) = rest.split_first_chunk::<4>()?;
            let len = usize::try_from(i32::from_le_bytes(*len)).ok()?;
            let (bytes, rest) = rest.split_at_checked(string::padded_len(len))?;
            (Variant::String(string::text(bytes, len).ok()?.into()), rest)
        }
        T::Vector2 => {
            let (v, rest) = slice_reals(rest, h.wide(version))?;
            (Variant::Vector2(v), rest)
        }
        T::Vector3 => {
            let (v, rest) = slice_reals(rest, h.wide(version))?;
            (Variant::Vector3(v), rest)
        }
        _ => return None,
    })
}

/// A float math type (all its components `Real`s) from the start of `bytes`, and the bytes
/// after it: `f32` components, or `f64` when `wide`.
#[inline(always)]
fn slice_reals<T: bytemuck::Pod>(mut bytes: &[u8], wide: bool) -> Option<(T, &[u8])> {
    let mut value = T::zeroed();
    let slots: &mut [Real] =
        bytemuck::try_cast_slice_mut(core::slice::from_mut(&mut value)).ok()?;
    for x in slots {
        *x = if wide {
            let (b, rest) = bytes.split_first_chunk::<8>()?;
            bytes = rest;
            real(f64::from_le_bytes(*b))
        } else {
            let (b, rest) = bytes.split_first_chunk::<4>()?;
            bytes = rest;
            Real::from(f32::from_le_bytes(*b))
        };
    }
    Some((value, bytes))
}

/// Whether `a` and `b` (of one length, a multiple of 4: a String field with its header) hold
/// the same bytes, compared a word at a time in line (keys are short: a call to `memcmp`
/// costs more than the comparison).
#[inline(always)]
fn same_words(mut a: &[u8], mut b: &[u8]) -> bool {
    loop {
        match (a.split_first_chunk::<8>(), b.split_first_chunk::<8>()) {
            (Some((x, a_rest)), Some((y, b_rest))) => {
                if u64::from_ne_bytes(*x) != u64::from_ne_bytes(*y) {
                    return false;
                }
                a = a_rest;
                b = b_rest;
            }
            _ => {
                return match (a.first_chunk::<4>(), b.first_chunk::<4>()) {
                    (Some(x), Some(y)) => {
                        u32::from_ne_bytes(*x) == u32::from_ne_bytes(*y)
                            && a.len() == 4
                            && b.len() == 4
                    }
                    _ => a.is_empty() && b.is_empty(),
                };
            }
        }
    }
}

/// Levels of this reader between two checks of the stack left: one of its levels (an
/// Array or Dictionary with the calls of one element or entry) takes a few KiB even
/// unoptimized, so four stay well within [`STACK_RED_ZONE`](crate::wire::depth::STACK_RED_ZONE) (the limits tests run 1 024 levels
/// on a 2 MiB thread in debug builds).
const LEVELS_PER_STACK_CHECK: usize = 4;

/// The most keys of one Dictionary [`Shapes`] remembers (Dictionaries this small find a
/// repeated key by fingerprints; larger ones use the hash index).
const SHAPE_KEYS: usize = crate::value::LINEAR_MAX;

/// Keys remembered while decoding, for the Arrays being read: each Array's part starts where
/// the stack of keys stood when it began (its `row`), from the part of the last Array that
/// ended (`recent`), and leaves the stack when it ends, becoming `recent`; inner Arrays stack
/// theirs on top. An Array's part holds the String keys of the last Dictionary among
/// its elements (a prefix of its keys, all distinct), with the input bytes each was read
/// from: an Array of records repeats them in every element. A key whose bytes (header,
/// length, text, padding) are those of the key at the same place in the Dictionary before
/// decodes to the same String (the same checks; the depth is checked per Dictionary) and,
/// since every key before it
/// matched too (a key that does not truncates the part there), differs from them all: it is
/// cloned (no UTF-8 check, no comparison) instead of read. Slices only.
#[derive(Default)]
struct Shapes<'de> {
    keys: Vec<KnownKey<'de>>,
    /// The part of the last Array that ended, which the next Array starts from.
    recent: Vec<KnownKey<'de>>,
}

/// A key in [`Shapes`].
struct KnownKey<'de> {
    /// The bytes it was read from.
    raw: &'de [u8],
    key: compact_str::CompactString,
    /// Its [`fingerprint`](crate::value::fingerprint).
    print: u64,
}

impl<'de> Shapes<'de> {
    /// Pushes a key [`learn`](Self::learn) returned; the first makes room for a whole
    /// Dictionary's and an inner one's.
    fn remember(&mut self, key: KnownKey<'de>) {
        if self.keys.capacity() == 0 {
            self.keys.reserve(SHAPE_KEYS);
            self.recent.reserve(SHAPE_KEYS);
        }
        self.keys.push(key);
    }

    /// Key `i` when `unread` starts with its bytes: the key, its fingerprint and the input
    /// after it.
    #[inline]
    fn known(&self, i: usize, unread: &'de [u8]) -> Option<(Variant, u64, &'de [u8])> {
        let k = self.keys.get(i)?;
        let (head, rest) = unread.split_at_checked(k.raw.len())?;
        same_words(head, k.raw).then(|| (Variant::String(k.key.clone()), k.print, rest))
    }

    /// Forgets the keys from `row + i` on and returns key `i` of the Dictionary whose keys
    /// start at `row` (fingerprint `print`, read from `raw`) to remember, when it is a String
    /// that needs no allocation to copy; it is pushed once it proved distinct.
    fn learn(
        &mut self,
        row: usize,
        i: usize,
        key: &Variant,
        print: u64,
        raw: &'de [u8],
    ) -> Option<KnownKey<'de>> {
        self.keys.truncate(row + i);
        let Variant::String(text) = key else {
            return None;
        };
        if i >= SHAPE_KEYS || text.is_heap_allocated() {
            return None;
        }
        Some(KnownKey {
            raw,
            key: text.clone(),
            print,
        })
    }
}
