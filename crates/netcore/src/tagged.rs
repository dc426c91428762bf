//! Internally tagged enums (`kind = "torus"` beside the variant's fields) read without serde's
//! content buffer, so that an error inside a field names the field and its line.
//!
//! serde's own `#[serde(tag = "...")]` buffers the whole table before it knows the variant,
//! and the buffer forgets keys and positions: `rows = "4"` in a `[topology]` table was reported
//! as "line 1: invalid type: string "4", expected u32". Here the enum derives serde's
//! *externally* tagged form under `#[serde(remote = "Self")]` (inherent `serialize` and
//! `deserialize` functions), and [`tagged!`](crate::tagged!) implements the traits in the
//! internally tagged form on top of it:
//!
//! - reading: the table's entries are visited in order; once the tag has been read, the
//!   variant reads the remaining entries straight from the input, so the input's own errors
//!   (with key path and line) come through. Entries before the tag are buffered and an error in
//!   one of them names its key.
//! - writing: the external form `{variant: {fields}}` is rewritten to `{tag: variant, fields}`.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Debug, PartialEq, Serialize, Deserialize)]
//! #[serde(remote = "Self", rename_all = "snake_case", deny_unknown_fields)]
//! enum Shape {
//!     Square { side: u32 },
//!     Dot,
//! }
//! netcore::tagged!(Shape, "kind");
//!
//! let shape: Shape = toml::from_str("kind = \"square\"\nside = 3").unwrap();
//! assert_eq!(shape, Shape::Square { side: 3 });
//! let error = toml::from_str::<Shape>("kind = \"square\"\nside = \"3\"").unwrap_err();
//! assert!(error.to_string().contains("side"), "{error}");
//! assert_eq!(toml::to_string(&Shape::Dot).unwrap(), "kind = \"dot\"\n");
//! ```
#![warn(clippy::cast_possible_truncation)]

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, StrDeserializer};
use serde::de::{self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, VariantAccess};
use serde::{Deserializer, Serialize, Serializer};

/// An enum written with its variant under the key [`Tagged::TAG`]; implemented by
/// [`tagged!`](crate::tagged!).
pub trait Tagged: Sized {
    /// The key that names the variant.
    const TAG: &'static str;
    /// serde's externally tagged reading of the enum (`#[serde(remote = "Self")]`).
    fn deserialize_external<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
    /// serde's externally tagged writing of the enum (`#[serde(remote = "Self")]`).
    fn serialize_external<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
}

/// Implements `Serialize` and `Deserialize` for an enum deriving both under
/// `#[serde(remote = "Self")]`, in the internally tagged form with the given tag key.
#[macro_export]
macro_rules! tagged {
    ($ty:ty, $tag:literal) => {
        impl $crate::tagged::Tagged for $ty {
            const TAG: &'static str = $tag;
            fn deserialize_external<'de, D: ::serde::Deserializer<'de>>(
                d: D,
            ) -> ::std::result::Result<Self, D::Error> {
                <$ty>::deserialize(d)
            }
            fn serialize_external<S: ::serde::Serializer>(
                &self,
                s: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                <$ty>::serialize(self, s)
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                d: D,
            ) -> ::std::result::Result<Self, D::Error> {
                $crate::tagged::deserialize(d)
            }
        }
        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(
                &self,
                s: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                $crate::tagged::serialize(self, s)
            }
        }
    };
}

/// Reads `T` in the internally tagged form.
pub fn deserialize<'de, D: Deserializer<'de>, T: Tagged>(d: D) -> Result<T, D::Error> {
    d.deserialize_map(TableVisitor(PhantomData))
}

/// Writes `T` in the internally tagged form.
pub fn serialize<T: Tagged, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    struct External<'a, T>(&'a T);
    impl<T: Tagged> Serialize for External<'_, T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.0.serialize_external(s)
        }
    }
    use serde::ser::Error;
    use serde_json::Value;
    let external = serde_json::to_value(External(value)).map_err(S::Error::custom)?;
    let mut table = serde_json::Map::new();
    match external {
        Value::String(variant) => {
            table.insert(T::TAG.to_owned(), Value::String(variant));
        }
        Value::Object(outer) if outer.len() == 1 => {
            for (variant, fields) in outer {
                table.insert(T::TAG.to_owned(), Value::String(variant));
                match fields {
                    Value::Object(fields) => table.extend(fields),
                    other => {
                        return Err(S::Error::custom(format!(
                            "a tagged variant must hold a table, not {other}"
                        )));
                    }
                }
            }
        }
        other => return Err(S::Error::custom(format!("not an enum variant: {other}"))),
    }
    Value::Object(table).serialize(s)
}

struct TableVisitor<T>(PhantomData<T>);

impl<'de, T: Tagged> de::Visitor<'de> for TableVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a table with the key `{}`", T::TAG)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut before = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == T::TAG {
                let variant: String = map.next_value()?;
                let rest = Rest { before: before.into_iter(), pending: None, live: map };
                return T::deserialize_external(Variant { variant, rest });
            }
            before.push((key, map.next_value::<serde_json::Value>()?));
        }
        Err(de::Error::missing_field(T::TAG))
    }
}

/// The table's entries other than the tag: those read before it, then the live rest.
struct Rest<A> {
    before: std::vec::IntoIter<(String, serde_json::Value)>,
    pending: Option<(String, serde_json::Value)>,
    live: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Rest<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.before.next() {
            Some((key, value)) => {
                let read = seed.deserialize(StrDeserializer::<A::Error>::new(&key)).map(Some);
                self.pending = Some((key, value));
                read
            }
            None => self.live.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match self.pending.take() {
            Some((key, value)) => {
                seed.deserialize(value).map_err(|e| de::Error::custom(format_args!("`{key}`: {e}")))
            }
            None => self.live.next_value_seed(seed),
        }
    }
}

/// A deserializer that presents the variant name and the rest of the table to serde's
/// externally tagged derive.
struct Variant<A> {
    variant: String,
    rest: A,
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for Variant<Rest<A>> {
    type Error = A::Error;

    fn deserialize_any<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> EnumAccess<'de> for Variant<Rest<A>> {
    type Error = A::Error;
    type Variant = Rest<A>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Rest<A>), A::Error> {
        let name: de::value::StringDeserializer<A::Error> = self.variant.into_deserializer();
        Ok((seed.deserialize(name)?, self.rest))
    }
}

impl<'de, A: MapAccess<'de>> VariantAccess<'de> for Rest<A> {
    type Error = A::Error;

    fn unit_variant(mut self) -> Result<(), A::Error> {
        match self.next_key::<String>()? {
            Some(key) => Err(de::Error::custom(format_args!("unknown field `{key}`"))),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        seed.deserialize(MapAccessDeserializer::new(self))
    }

    fn tuple_variant<V: de::Visitor<'de>>(self, _: usize, _: V) -> Result<V::Value, A::Error> {
        Err(de::Error::custom("a tagged variant must hold a table, not a tuple"))
    }

    fn struct_variant<V: de::Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }
}
