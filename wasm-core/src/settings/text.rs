//! Text fields the API also accepts as numbers (a BI-RADS category `2`, a location number
//! `102`): `#[serde(deserialize_with = "crate::settings::text::lenient")]` on a `String`,
//! `lenient_list` on a `Vec<String>`. A whole number reads as its digits; anything else that is
//! not text (null, a decimal, a bool) reads as empty. Written back, the value is text.
//! (Native reading only: the browser reads documents through `settings::js`.)

use serde::de::{self, Deserializer, SeqAccess, Visitor};

struct Lenient;

impl<'de> Visitor<'de> for Lenient {
    type Value = String;

    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("text or a whole number")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Ok(v.to_string())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<String, E> {
        Ok(String::new())
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<String, E> {
        Ok(String::new())
    }
    fn visit_none<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }
    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(Lenient)
    }
}

pub fn lenient<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    d.deserialize_any(Lenient)
}

struct Item(String);

impl<'de> serde::Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Item, D::Error> {
        lenient(d).map(Item)
    }
}

struct List;

impl<'de> Visitor<'de> for List {
    type Value = Vec<String>;

    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("a list")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
        let mut out = Vec::new();
        while let Some(Item(s)) = seq.next_element()? {
            out.push(s);
        }
        Ok(out)
    }
    fn visit_none<E: de::Error>(self) -> Result<Vec<String>, E> {
        Ok(Vec::new())
    }
    fn visit_unit<E: de::Error>(self) -> Result<Vec<String>, E> {
        Ok(Vec::new())
    }
}

pub fn lenient_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    d.deserialize_any(List)
}

#[cfg(test)]
mod tests {
    #[derive(serde::Deserialize)]
    struct T {
        #[serde(deserialize_with = "super::lenient", default)]
        s: String,
        #[serde(deserialize_with = "super::lenient_list", default)]
        l: Vec<String>,
    }

    #[test]
    fn numbers_read_as_text() {
        let t: T = serde_json::from_str(r#"{"s": 2, "l": [102, "103", null]}"#).unwrap();
        assert_eq!(t.s, "2");
        assert_eq!(t.l, ["102", "103", ""]);
        let t: T = serde_json::from_str(r#"{"s": "4A", "l": null}"#).unwrap();
        assert_eq!(t.s, "4A");
        assert!(t.l.is_empty());
        let t: T = serde_json::from_str(r#"{"s": 1.5}"#).unwrap();
        assert_eq!(t.s, "");
    }
}
