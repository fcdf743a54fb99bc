//! Reading settings documents from plain JS objects (feature `wasm`), field by field, without
//! serde's deserializer (whose error formatting would bring float printing into the wasm file).
//! Each field reads like `settings::num` and serde's `default` do natively: a missing field
//! takes its default; a number field that is not a JS number reads as NaN (so
//! the field's check reports it); other ill-typed values take the default.

pub use wasm_bindgen::JsValue;

/// A value read from JS, `default` where JS has nothing usable.
pub trait FromJs: Sized {
    fn from_js(value: &JsValue, default: Self) -> Self;
}

/// Field `key` of `obj` (see `FromJs`).
pub fn read<T: FromJs>(obj: &JsValue, key: &str, default: T) -> T {
    let v = crate::bindings::field(obj, key);
    if v.is_undefined() {
        default
    } else {
        T::from_js(&v, default)
    }
}

impl FromJs for String {
    fn from_js(value: &JsValue, default: Self) -> Self {
        value.as_string().unwrap_or(default)
    }
}

impl FromJs for bool {
    fn from_js(value: &JsValue, default: Self) -> Self {
        value.as_bool().unwrap_or(default)
    }
}

impl FromJs for f64 {
    fn from_js(value: &JsValue, _default: Self) -> Self {
        // Text is not parsed here (float parsing is large in wasm): the form kit hands numbers
        // over as numbers, and text as NaN, like an empty field.
        value.as_f64().unwrap_or(f64::NAN)
    }
}

impl<T: FromJs + Default> FromJs for Vec<T> {
    fn from_js(value: &JsValue, default: Self) -> Self {
        if !crate::bindings::is_array(value) {
            return default;
        }
        let len = crate::bindings::field(value, "length")
            .as_f64()
            .unwrap_or(0.0) as u32;
        (0..len)
            .map(|i| T::from_js(&crate::bindings::field(value, &i.to_string()), T::default()))
            .collect()
    }
}
