//! One settings group's document on the wire (`Settings` of GET and PUT
//! /api/configurationForm/{name} and their aliases). The routes take any group by name: the
//! OpenAPI document carries every group's own schema (wasm-core, feature `schema`) among its
//! components, named after the group, and describes this field as an object. (An `anyOf` of the 42
//! groups was tried: schemathesis' coverage phase then fails inside its own generator.)

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value};

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct GroupDocument(pub Map<String, Value>);

impl JsonSchema for GroupDocument {
    fn schema_name() -> Cow<'static, str> {
        "SettingsGroupDocument".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        macro_rules! schemas {
            ($($t:ty),* $(,)?) => { vec![$(generator.subschema_for::<$t>()),*] };
        }
        let groups: Vec<Schema> = wasm_core::for_each_group!(schemas);
        let names: Vec<&str> = groups
            .iter()
            .filter_map(|g| g.get("$ref").and_then(|r| r.as_str()))
            .filter_map(|r| r.rsplit('/').next())
            .collect();
        json_schema!({
            "type": "object",
            "description": format!(
                "The document of the group the path names; its schema is the component of that name: {}",
                names.join(", ")
            ),
        })
    }
}
