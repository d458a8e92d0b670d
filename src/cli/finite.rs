//! The command line's one check of results: no number it prints is NaN or ±∞.
//!
//! JSON has no NaN or infinity, and serde_json writes them as `null` — the same `null` as an
//! α left out for a pruned basis function — so a result that overflowed would be printed as
//! if it meant something. [`first_non_finite`] walks the output as serde sees it, before it
//! is written, and finds the first such number with the path of its field.

use std::fmt::Display;

use serde::Serialize;
use serde::ser::{self, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple};
use serde::ser::{SerializeTupleStruct, SerializeTupleVariant};

/// The first number of `value` that is NaN or ±∞, with the path of its field
/// (`log_evidence`, `weights[3]`), in the order the output would be written.
pub fn first_non_finite<T: Serialize + ?Sized>(value: &T) -> Option<(String, f64)> {
    let mut finder = Finder::default();
    // The walk stops with `Stop` at the first find (or if serialising itself fails, which
    // writing the output then reports).
    let _ = value.serialize(&mut finder);
    finder.found
}

/// One step of the path to a number: a field or map key, or an index into a sequence.
#[derive(Debug, Clone)]
enum Step {
    Field(String),
    Index(usize),
}

/// The serializer that only looks at numbers.
#[derive(Debug, Default)]
struct Finder {
    path: Vec<Step>,
    found: Option<(String, f64)>,
}

impl Finder {
    fn number(&mut self, value: f64) -> Result<(), Stop> {
        if value.is_finite() {
            return Ok(());
        }
        let mut path = String::new();
        for step in &self.path {
            match step {
                Step::Field(name) if path.is_empty() => path.push_str(name),
                Step::Field(name) => path.push_str(&format!(".{name}")),
                Step::Index(i) => path.push_str(&format!("[{i}]")),
            }
        }
        self.found = Some((path, value));
        Err(Stop)
    }

    /// Serialises `value` one step further down the path.
    fn under<T: Serialize + ?Sized>(&mut self, step: Step, value: &T) -> Result<(), Stop> {
        self.path.push(step);
        value.serialize(&mut *self)?;
        self.path.pop();
        Ok(())
    }

    /// The next element of the sequence being walked (its index is the path's last step).
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        value.serialize(&mut *self)?;
        if let Some(Step::Index(i)) = self.path.last_mut() {
            *i += 1;
        }
        Ok(())
    }

    fn end_sequence(&mut self) -> Result<(), Stop> {
        self.path.pop();
        Ok(())
    }
}

/// Ends the walk: a number was found (or serialising failed).
#[derive(Debug)]
struct Stop;

impl Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped")
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<T: Display>(_: T) -> Self {
        Stop
    }
}

/// Methods of values with no number in them.
macro_rules! nothing_to_check {
    ($($method:ident($type:ty)),*) => {
        $(fn $method(self, _: $type) -> Result<(), Stop> { Ok(()) })*
    };
}

impl ser::Serializer for &mut Finder {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    nothing_to_check!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_unit_struct(&'static str)
    );

    fn serialize_f32(self, value: f32) -> Result<(), Stop> {
        self.number(value.into())
    }

    fn serialize_f64(self, value: f64) -> Result<(), Stop> {
        self.number(value)
    }

    fn serialize_none(self) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        self.under(Step::Field(variant.to_owned()), value)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Stop> {
        self.path.push(Step::Index(0));
        Ok(self)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self, Stop> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Self, Stop> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, len: usize) -> Result<Self, Stop> {
        self.serialize_seq(Some(len))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self, Stop> {
        Ok(self)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }

    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
}

/// The serde traits of sequences: each element one index further along.
macro_rules! sequence {
    ($($trait:ident::$method:ident),*) => {$(
        impl $trait for &mut Finder {
            type Ok = ();
            type Error = Stop;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
                self.element(value)
            }

            fn end(self) -> Result<(), Stop> {
                self.end_sequence()
            }
        }
    )*};
}

sequence!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl SerializeMap for &mut Finder {
    type Ok = ();
    type Error = Stop;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Stop> {
        // A key is text (a field of a flattened struct): the next value's name.
        let name = serde_json::to_value(key).ok().and_then(|k| k.as_str().map(str::to_owned));
        self.path.push(Step::Field(name.unwrap_or_else(|| "?".to_owned())));
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        value.serialize(&mut **self)?;
        self.path.pop();
        Ok(())
    }

    fn end(self) -> Result<(), Stop> {
        Ok(())
    }
}

/// The serde traits of structs: each field a step of the path.
macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl $trait for &mut Finder {
            type Ok = ();
            type Error = Stop;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Stop> {
                self.under(Step::Field(key.to_owned()), value)
            }

            fn end(self) -> Result<(), Stop> {
                Ok(())
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Fit {
        alpha: Vec<Option<f64>>,
        beta: f64,
    }

    #[derive(Serialize)]
    struct Output {
        method: &'static str,
        #[serde(flatten)]
        fit: Fit,
        events: Vec<(usize, f64)>,
    }

    fn output(alpha: f64, beta: f64, event: f64) -> Output {
        Output {
            method: "fast",
            fit: Fit { alpha: vec![Some(1.0), None, Some(alpha)], beta },
            events: vec![(1, 0.5), (2, event)],
        }
    }

    #[test]
    fn finds_the_first_number_that_is_not_finite_by_its_path() {
        assert!(first_non_finite(&output(2.0, 3.0, 4.0)).is_none());
        let found = |o: &Output| first_non_finite(o).map(|(path, v)| (path, v.to_string()));
        assert_eq!(found(&output(f64::INFINITY, f64::NAN, 4.0)), Some(("alpha[2]".into(), "inf".into())));
        assert_eq!(found(&output(2.0, f64::NAN, 4.0)), Some(("beta".into(), "NaN".into())));
        assert_eq!(found(&output(2.0, 3.0, f64::NEG_INFINITY)), Some(("events[1][1]".into(), "-inf".into())));
        // serde_json would have written all three as null, like the α left out.
        assert_eq!(
            serde_json::to_string(&output(2.0, f64::NAN, 4.0).fit).unwrap(),
            r#"{"alpha":[1.0,null,2.0],"beta":null}"#
        );
    }
}
