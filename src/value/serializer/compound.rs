//! The compound serializers: Array elements, tuple structs (math types, Signal), maps and
//! structs (Dictionaries, marker payloads), and enum variants with fields.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Array elements.
pub(crate) struct SeqBuilder {
    pub(super) ser: VariantSerializer,
    pub(super) items: Vec<Variant>,
}

impl SeqBuilder {
    fn finish(self) -> Variant {
        Variant::from(Array::from(self.items))
    }
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.items.push(value.serialize(self.ser)?);
        Ok(())
    }
    fn end(self) -> Result<Variant> {
        Ok(self.finish())
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(self.finish())
    }
}

/// A plain tuple struct (an Array), a math type's components, or another marker's fields.
pub(crate) enum TupleStructBuilder {
    Seq(SeqBuilder),
    Marker {
        name: &'static str,
        ser: VariantSerializer,
        fields: Vec<Variant>,
    },
    Components {
        ty: VariantType,
        scalar: Scalar,
        n: u8,
        wide: bool,
        values: Vec<f64>,
    },
}

impl ser::SerializeTupleStruct for TupleStructBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match self {
            TupleStructBuilder::Seq(s) => ser::SerializeSeq::serialize_element(s, value),
            TupleStructBuilder::Marker { ser, fields, .. } => {
                fields.push(value.serialize(*ser)?);
                Ok(())
            }
            TupleStructBuilder::Components {
                scalar,
                wide,
                values,
                n,
                ..
            } => {
                if values.len() >= usize::from(*n) {
                    return Err(unsupported("too many math type components"));
                }
                let (x, int) = value.serialize(NumberCapture)?;
                #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
                let x = match scalar {
                    Scalar::Real if *wide => x,
                    Scalar::Real | Scalar::F32 => f64::from(x as f32),
                    Scalar::I32 => {
                        let int = int.ok_or_else(|| unsupported("an integer vector component"))?;
                        i32::try_from(int).map_err(|_| out_of_range(int))? as f64
                    }
                    _ => return Err(unsupported("a math type component")),
                };
                values.push(x);
                Ok(())
            }
        }
    }
    fn end(self) -> Result<Variant> {
        match self {
            TupleStructBuilder::Seq(s) => Ok(s.finish()),
            TupleStructBuilder::Marker { name, ser, fields } => {
                if let Some(s) = (name == crate::types::SIGNAL)
                    .then(|| signal(&fields))
                    .flatten()
                {
                    return Ok(Variant::from(s));
                }
                ser.by_wire(|w| {
                    let mut t = ser::Serializer::serialize_tuple_struct(w, name, fields.len())?;
                    for f in &fields {
                        let field = Field {
                            value: f,
                            pairs: ser.pairs,
                        };
                        ser::SerializeTupleStruct::serialize_field(&mut t, &field)?;
                    }
                    ser::SerializeTupleStruct::end(t)
                })
            }
            TupleStructBuilder::Components { ty, n, values, .. } => {
                if values.len() != usize::from(n) {
                    return Err(unsupported("too few math type components"));
                }
                math(ty, &values)
            }
        }
    }
}

/// A Signal from its marker's fields as built, when they are what its byte serializer
/// fields take as they are (a text, an id) and decoding its bytes gives exactly them back
/// (what the wire still changes in the name, a NUL or a leading BOM, and a target without
/// Signal are settled with the rest of the Variant); `None` sends the fields through the
/// bytes.
fn signal(fields: &[Variant]) -> Option<crate::types::Signal> {
    let [Variant::String(name), id] = fields else {
        return None;
    };
    let id = match id {
        Variant::Int(i) => u64::try_from(*i).ok()?,
        // A u64 beyond i64, kept by the field serializer (see `VariantSerializer::field`).
        Variant::Rid(crate::types::Rid(id)) => *id,
        _ => return None,
    };
    Some(crate::types::Signal::new(name.as_str(), ObjectId(id)))
}

/// A math type from its components in wire order.
fn math(ty: VariantType, v: &[f64]) -> Result<Variant> {
    #[allow(clippy::cast_possible_truncation)]
    fn reals<T: bytemuck::Pod>(v: &[f64]) -> Result<T> {
        let r: Vec<Real> = v.iter().map(|&x| x as Real).collect();
        bytemuck::try_pod_read_unaligned(bytemuck::cast_slice(&r))
            .map_err(|_| unsupported("math type components"))
    }
    #[allow(clippy::cast_possible_truncation)]
    fn ints<T: bytemuck::Pod>(v: &[f64]) -> Result<T> {
        let r: Vec<i32> = v.iter().map(|&x| x as i32).collect();
        bytemuck::try_pod_read_unaligned(bytemuck::cast_slice(&r))
            .map_err(|_| unsupported("math type components"))
    }
    #[allow(clippy::cast_possible_truncation)]
    fn f32s<T: bytemuck::Pod>(v: &[f64]) -> Result<T> {
        let r: Vec<f32> = v.iter().map(|&x| x as f32).collect();
        bytemuck::try_pod_read_unaligned(bytemuck::cast_slice(&r))
            .map_err(|_| unsupported("math type components"))
    }
    Ok(match ty {
        VariantType::Vector2 => Variant::from(reals::<Vector2>(v)?),
        VariantType::Vector2i => Variant::from(ints::<Vector2i>(v)?),
        VariantType::Rect2 => Variant::from(reals::<Rect2>(v)?),
        VariantType::Rect2i => Variant::from(ints::<Rect2i>(v)?),
        VariantType::Vector3 => Variant::from(reals::<Vector3>(v)?),
        VariantType::Vector3i => Variant::from(ints::<Vector3i>(v)?),
        VariantType::Transform2D => Variant::from(reals::<Transform2D>(v)?),
        VariantType::Vector4 => Variant::from(reals::<Vector4>(v)?),
        VariantType::Vector4i => Variant::from(ints::<Vector4i>(v)?),
        VariantType::Plane => Variant::from(reals::<Plane>(v)?),
        VariantType::Quaternion => Variant::from(reals::<Quaternion>(v)?),
        VariantType::Aabb => Variant::from(reals::<Aabb>(v)?),
        VariantType::Basis => Variant::from(reals::<Basis>(v)?),
        VariantType::Transform3D => Variant::from(reals::<Transform3D>(v)?),
        VariantType::Projection => Variant::from(reals::<Projection>(v)?),
        VariantType::Color => Variant::from(f32s::<Color>(v)?),
        _ => return Err(unsupported(format!("{} from components", ty.name()))),
    })
}

/// Dictionary entries (maps and structs).
pub(crate) struct MapBuilder {
    pub(super) ser: VariantSerializer,
    pub(super) dict: Dictionary,
    /// Every entry in order, when the serializer keeps pairs.
    pub(super) pairs: Option<Vec<Variant>>,
    pub(super) key: Option<Variant>,
}

impl MapBuilder {
    fn entry(&mut self, key: Variant, value: Variant) -> Result<()> {
        if let Some(pairs) = &mut self.pairs {
            pairs.push(Variant::from(Array::from(vec![key, value])));
            return Ok(());
        }
        // A repeated key keeps its first place and takes the last value, as decoding does.
        self.dict.insert(key, value);
        Ok(())
    }

    fn finish(self) -> Variant {
        match self.pairs {
            Some(pairs) => Variant::from(Array::from(pairs)),
            None => Variant::from(self.dict),
        }
    }
}

/// A marker field serialized for the byte serializer: an Array of `[key, value]` pairs
/// (see [`VariantSerializer::pairs`]) goes out as the map it came from, a kept `u64`
/// (see [`VariantSerializer::field`]) as that number.
struct Field<'a> {
    value: &'a Variant,
    pairs: bool,
}

impl Serialize for Field<'_> {
    fn serialize<S: ser::Serializer>(
        &self,
        serializer: S,
    ) -> core::result::Result<S::Ok, S::Error> {
        match self.value {
            Variant::Array(a) if self.pairs => {
                serializer.collect_map(a.items.iter().map(|p| match p {
                    Variant::Array(kv) => match kv.items.as_slice() {
                        [k, v] => (k, v),
                        _ => (p, &Variant::Nil),
                    },
                    _ => (p, &Variant::Nil),
                }))
            }
            Variant::Rid(crate::types::Rid(id)) => serializer.serialize_u64(*id),
            v => v.serialize(serializer),
        }
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.key = Some(key.serialize(self.ser)?);
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let key = self
            .key
            .take()
            .ok_or_else(|| unsupported("a map value without a key"))?;
        let value = value.serialize(self.ser)?;
        self.entry(key, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(self.finish())
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let key = Variant::String(key.into());
        let value = value.serialize(self.ser)?;
        self.entry(key, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(self.finish())
    }
}

/// A data-carrying enum variant: the one-entry Dictionary `{key: inner}`.
pub(crate) struct VariantBuilder<B> {
    pub(super) key: Variant,
    pub(super) inner: B,
}

impl<B> VariantBuilder<B> {
    fn wrap(key: Variant, inner: Variant) -> Variant {
        let mut d = Dictionary::new();
        d.insert(key, inner);
        Variant::from(d)
    }
}

impl ser::SerializeTupleVariant for VariantBuilder<SeqBuilder> {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(&mut self.inner, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(Self::wrap(self.key, self.inner.finish()))
    }
}

impl ser::SerializeStructVariant for VariantBuilder<MapBuilder> {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(&mut self.inner, key, value)
    }
    fn end(self) -> Result<Variant> {
        Ok(Self::wrap(self.key, self.inner.finish()))
    }
}
