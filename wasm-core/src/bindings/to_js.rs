//! Results to JS values: a serde `Serializer` that writes what serde-wasm-bindgen 0.6 wrote with
//! `serialize_maps_as_objects(true)` (and, for the pager, `serialize_missing_as_null(true)`), value
//! for value: numbers, strings, arrays, plain objects with every serialized field set (a `None`
//! field without `skip_serializing_if` is present as `undefined`), maps as plain objects, unit
//! enum variants as their names, other variants as `{variant: value}`. It leaves out
//! serde-wasm-bindgen's cache of field-name strings (a thread-local HashMap) and its Map and BigInt
//! options, none of which the results use: ~7 kB of the patient package (issue 22).

use std::fmt;

use serde::ser::{self, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = Object)]
    type JsObject;
    #[wasm_bindgen(constructor, js_class = "Object")]
    fn new() -> JsObject;
    #[wasm_bindgen(method, indexing_setter)]
    fn set(this: &JsObject, key: &JsValue, value: JsValue);

    #[wasm_bindgen(js_name = Array)]
    type JsArray;
    #[wasm_bindgen(constructor, js_class = "Array")]
    fn new() -> JsArray;
    #[wasm_bindgen(method)]
    fn push(this: &JsArray, value: JsValue) -> u32;

    #[wasm_bindgen(js_name = Uint8Array)]
    type JsBytes;
    /// A copy of `bytes` (the glue passes a view of wasm memory; the constructor copies it).
    #[wasm_bindgen(constructor, js_class = "Uint8Array")]
    fn copy_of(bytes: &[u8]) -> JsBytes;
}

/// A value JS cannot hold: a 64-bit integer beyond 2^53, or a map key that is not a string.
#[derive(Debug)]
pub struct Unrepresentable;

impl fmt::Display for Unrepresentable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not representable as a JS value")
    }
}

impl std::error::Error for Unrepresentable {}

impl ser::Error for Unrepresentable {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Unrepresentable
    }
}

type Result<T = JsValue> = std::result::Result<T, Unrepresentable>;

/// Writes results; `missing_as_null`: `None` and `()` as `null` instead of `undefined`.
pub struct ToJs {
    pub missing_as_null: bool,
}

/// Largest integer a JS number holds exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE: u64 = (1 << 53) - 1;

fn number(v: f64) -> Result {
    Ok(JsValue::from_f64(v))
}

fn key(name: &str) -> JsValue {
    JsValue::from_str(name)
}

/// `{variant: value}`: how a variant with data crosses.
fn tagged(variant: &'static str, value: JsValue) -> JsValue {
    let object = JsObject::new();
    object.set(&key(variant), value);
    object.into()
}

impl<'a> ser::Serializer for &'a ToJs {
    type Ok = JsValue;
    type Error = Unrepresentable;
    type SerializeSeq = Items<'a>;
    type SerializeTuple = Items<'a>;
    type SerializeTupleStruct = Items<'a>;
    type SerializeTupleVariant = Tagged<Items<'a>>;
    type SerializeMap = Fields<'a>;
    type SerializeStruct = Fields<'a>;
    type SerializeStructVariant = Tagged<Fields<'a>>;

    fn serialize_bool(self, v: bool) -> Result {
        Ok(JsValue::from_bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result {
        number(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result {
        number(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result {
        number(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result {
        if v.unsigned_abs() <= MAX_SAFE {
            number(v as f64)
        } else {
            Err(Unrepresentable)
        }
    }
    fn serialize_i128(self, v: i128) -> Result {
        Ok(v.into())
    }
    fn serialize_u8(self, v: u8) -> Result {
        number(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result {
        number(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result {
        number(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result {
        if v <= MAX_SAFE {
            number(v as f64)
        } else {
            Err(Unrepresentable)
        }
    }
    fn serialize_u128(self, v: u128) -> Result {
        Ok(v.into())
    }
    fn serialize_f32(self, v: f32) -> Result {
        number(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result {
        number(v)
    }
    fn serialize_char(self, v: char) -> Result {
        Ok(key(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result {
        Ok(key(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result {
        Ok(JsBytes::copy_of(v).into())
    }
    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        Ok(if self.missing_as_null {
            JsValue::NULL
        } else {
            JsValue::UNDEFINED
        })
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        Ok(key(variant))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        Ok(tagged(variant, value.serialize(self)?))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Items<'a>> {
        Ok(Items {
            to_js: self,
            array: JsArray::new(),
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Items<'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Items<'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Tagged<Items<'a>>> {
        Ok(Tagged {
            variant,
            inner: self.serialize_seq(Some(len))?,
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Fields<'a>> {
        Ok(Fields {
            to_js: self,
            object: JsObject::new(),
            next_key: JsValue::UNDEFINED,
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'a>> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Tagged<Fields<'a>>> {
        Ok(Tagged {
            variant,
            inner: self.serialize_map(None)?,
        })
    }
}

/// An array being written.
pub struct Items<'a> {
    to_js: &'a ToJs,
    array: JsArray,
}

impl ser::SerializeSeq for Items<'_> {
    type Ok = JsValue;
    type Error = Unrepresentable;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.array.push(value.serialize(self.to_js)?);
        Ok(())
    }
    fn end(self) -> Result {
        Ok(self.array.into())
    }
}

impl ser::SerializeTuple for Items<'_> {
    type Ok = JsValue;
    type Error = Unrepresentable;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Items<'_> {
    type Ok = JsValue;
    type Error = Unrepresentable;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result {
        ser::SerializeSeq::end(self)
    }
}

/// A plain object being written: a struct's fields or a map's entries.
pub struct Fields<'a> {
    to_js: &'a ToJs,
    object: JsObject,
    next_key: JsValue,
}

impl ser::SerializeMap for Fields<'_> {
    type Ok = JsValue;
    type Error = Unrepresentable;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        let key = key.serialize(self.to_js)?;
        if !key.is_string() {
            return Err(Unrepresentable);
        }
        self.next_key = key;
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let value = value.serialize(self.to_js)?;
        self.object.set(&self.next_key, value);
        Ok(())
    }
    fn end(self) -> Result {
        Ok(self.object.into())
    }
}

impl ser::SerializeStruct for Fields<'_> {
    type Ok = JsValue;
    type Error = Unrepresentable;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        let value = value.serialize(self.to_js)?;
        self.object.set(&key(name), value);
        Ok(())
    }
    fn end(self) -> Result {
        Ok(self.object.into())
    }
}

/// A variant with fields, written as `{variant: inner}`.
pub struct Tagged<S> {
    variant: &'static str,
    inner: S,
}

impl ser::SerializeTupleVariant for Tagged<Items<'_>> {
    type Ok = JsValue;
    type Error = Unrepresentable;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(&mut self.inner, value)
    }
    fn end(self) -> Result {
        Ok(tagged(self.variant, ser::SerializeSeq::end(self.inner)?))
    }
}

impl ser::SerializeStructVariant for Tagged<Fields<'_>> {
    type Ok = JsValue;
    type Error = Unrepresentable;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(&mut self.inner, name, value)
    }
    fn end(self) -> Result {
        Ok(tagged(self.variant, ser::SerializeStruct::end(self.inner)?))
    }
}
