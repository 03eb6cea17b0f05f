//! [`Array`] API: construction, `Vec`-like access through `Deref`, iteration.
//!
//! An `Array` is a `Vec<Variant>` plus an element type: every `Vec` method (`len`, `get`,
//! `iter`, `retain`, slicing, ...) is available through [`Deref`]. The element type of a typed
//! Array is not enforced when pushing; the serializer writes whatever the items are.

use core::ops::{Deref, DerefMut};

use super::{Array, ContainerType, Variant};

impl Array {
    /// An empty, untyped Array.
    ///
    /// ```
    /// use godot_serde::Array;
    ///
    /// let mut a = Array::new();
    /// a.push(1);
    /// a.push("two");
    /// assert_eq!(a.len(), 2);
    /// assert_eq!(a.to_string(), "[1, \"two\"]");
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty typed Array (`Array[int]` and friends, Godot 4.3+).
    ///
    /// ```
    /// use godot_serde::{Array, ContainerType, VariantType};
    ///
    /// let mut a = Array::typed(ContainerType::Builtin(VariantType::Int));
    /// a.extend([1.into(), 2.into()]);
    /// assert_eq!(a.to_string(), "Array[int]([1, 2])");
    /// ```
    #[must_use]
    pub fn typed(element_type: ContainerType) -> Self {
        Array {
            element_type,
            items: Vec::new(),
        }
    }

    /// Appends anything that converts into a [`Variant`].
    pub fn push(&mut self, value: impl Into<Variant>) {
        self.items.push(value.into());
    }

    /// Whether the Array has an element type (`Array[T]`).
    #[must_use]
    pub fn is_typed(&self) -> bool {
        self.element_type != ContainerType::Untyped
    }

    /// The elements, giving up the element type.
    #[must_use]
    pub fn into_vec(self) -> Vec<Variant> {
        self.items
    }
}

impl Deref for Array {
    type Target = Vec<Variant>;

    fn deref(&self) -> &Vec<Variant> {
        &self.items
    }
}

impl DerefMut for Array {
    fn deref_mut(&mut self) -> &mut Vec<Variant> {
        &mut self.items
    }
}

impl From<Vec<Variant>> for Array {
    /// An untyped Array of the items.
    fn from(items: Vec<Variant>) -> Self {
        Array {
            element_type: ContainerType::Untyped,
            items,
        }
    }
}

impl IntoIterator for Array {
    type Item = Variant;
    type IntoIter = std::vec::IntoIter<Variant>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Variant;
    type IntoIter = core::slice::Iter<'a, Variant>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<'a> IntoIterator for &'a mut Array {
    type Item = &'a mut Variant;
    type IntoIter = core::slice::IterMut<'a, Variant>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter_mut()
    }
}

impl Extend<Variant> for Array {
    fn extend<I: IntoIterator<Item = Variant>>(&mut self, iter: I) {
        self.items.extend(iter);
    }
}
