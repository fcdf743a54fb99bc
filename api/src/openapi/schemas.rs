//! The document's `components/schemas`, from the wasm-core wire types' JSON Schemas (schemars,
//! wasm-core feature `schema`). Requests are described as serde reads them (a field with a
//! default may be left out) and answers as serde writes them (every field not skipped is there),
//! so a type whose two descriptions differ appears twice: its answer under its own name, its
//! request under `{Name}_Input`.

use schemars::generate::{Contract, SchemaSettings};
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Value};

pub const PREFIX: &str = "#/components/schemas/";
pub const INPUT_SUFFIX: &str = "_Input";

pub struct Schemas {
    input: SchemaGenerator,
    output: SchemaGenerator,
    inline: SchemaGenerator,
}

fn settings(contract: Contract) -> SchemaSettings {
    SchemaSettings::draft2020_12().with(|s| {
        s.definitions_path = PREFIX.trim_start_matches('#').into();
        s.contract = contract;
    })
}

impl Schemas {
    pub fn new() -> Schemas {
        Schemas {
            input: settings(Contract::Deserialize).into_generator(),
            output: settings(Contract::Serialize).into_generator(),
            inline: settings(Contract::Deserialize)
                .with(|s| s.inline_subschemas = true)
                .into_generator(),
        }
    }

    /// A request body's schema (a `$ref` for named types).
    pub fn input<T: JsonSchema>(&mut self) -> Value {
        self.input.subschema_for::<T>().to_value()
    }

    /// An answer's schema (a `$ref` for named types).
    pub fn output<T: JsonSchema>(&mut self) -> Value {
        self.output.subschema_for::<T>().to_value()
    }

    /// A schema with nothing referenced, to read parameters' names and types from.
    pub fn input_inline<T: JsonSchema>(&mut self) -> Value {
        self.inline.root_schema_for::<T>().to_value()
    }

    /// The component schemas, and the input names that had to be renamed (old -> new).
    pub fn finish(mut self) -> (Map<String, Value>, Vec<(String, String)>) {
        let mut out = self.output.take_definitions(true);
        let input = self.input.take_definitions(true);
        let renamed: Vec<(String, String)> = input
            .iter()
            .filter(|(name, schema)| out.get(*name).is_some_and(|o| o != *schema))
            .map(|(name, _)| (name.clone(), format!("{name}{INPUT_SUFFIX}")))
            .collect();
        for (name, mut schema) in input {
            rename_refs(&mut schema, &renamed);
            let name = renamed
                .iter()
                .find(|(old, _)| *old == name)
                .map_or(name, |(_, new)| new.clone());
            out.entry(name).or_insert(schema);
        }
        (out, renamed)
    }
}

/// Points `$ref`s at renamed input schemas.
pub fn rename_refs(value: &mut Value, renamed: &[(String, String)]) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if key == "$ref" {
                    if let Some(name) = v.as_str().and_then(|r| r.strip_prefix(PREFIX)) {
                        if let Some((_, new)) = renamed.iter().find(|(old, _)| old == name) {
                            *v = Value::String(format!("{PREFIX}{new}"));
                        }
                    }
                } else {
                    rename_refs(v, renamed);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_refs(v, renamed)),
        _ => {}
    }
}
