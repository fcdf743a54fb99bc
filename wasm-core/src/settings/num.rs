//! Numbers in settings documents: `#[serde(with = "crate::settings::num")] #[cfg_attr(feature = "schema", schemars(with = "Option<f64>"))]` on an `f64` field.
//!
//! A form sends what the user typed, so a field may arrive as a number, as text ("12"), empty or
//! null. Reading never fails: text that is not a number, empty and null read as NaN, which every
//! number check reports (so the user gets the field's message, not a parse error). Written back,
//! a whole value is an integer (`20`, not `20.0`) and NaN is null.

use serde::de::{self, Deserializer, Visitor};
use serde::Serializer;

pub fn serialize<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    if !value.is_finite() {
        s.serialize_none()
    } else if value.fract() == 0.0 && value.abs() < 9.0e15 {
        s.serialize_i64(*value as i64)
    } else {
        s.serialize_f64(*value)
    }
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    d.deserialize_any(Lenient)
}

struct Lenient;

impl<'de> Visitor<'de> for Lenient {
    type Value = f64;

    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("a number")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        Ok(v.trim()
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .unwrap_or(f64::NAN))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<f64, E> {
        Ok(f64::NAN)
    }
    fn visit_none<E: de::Error>(self) -> Result<f64, E> {
        Ok(f64::NAN)
    }
    fn visit_unit<E: de::Error>(self) -> Result<f64, E> {
        Ok(f64::NAN)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<f64, D::Error> {
        d.deserialize_any(Lenient)
    }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct T {
        #[serde(with = "super")]
        n: f64,
    }

    fn read(json: &str) -> f64 {
        serde_json::from_str::<T>(json).unwrap().n
    }

    #[test]
    fn reads_what_a_form_sends() {
        assert_eq!(read(r#"{"n": 12}"#), 12.0);
        assert_eq!(read(r#"{"n": 1.5}"#), 1.5);
        assert_eq!(read(r#"{"n": " 7 "}"#), 7.0);
        for odd in [
            r#"{"n": ""}"#,
            r#"{"n": null}"#,
            r#"{"n": "abc"}"#,
            r#"{"n": true}"#,
            r#"{"n": "1e999"}"#,
        ] {
            assert!(read(odd).is_nan(), "{odd}");
        }
    }

    #[test]
    fn writes_whole_values_as_integers() {
        assert_eq!(
            serde_json::to_string(&T { n: 20.0 }).unwrap(),
            r#"{"n":20}"#
        );
        assert_eq!(
            serde_json::to_string(&T { n: 2.5 }).unwrap(),
            r#"{"n":2.5}"#
        );
        assert_eq!(
            serde_json::to_string(&T { n: f64::NAN }).unwrap(),
            r#"{"n":null}"#
        );
    }
}
