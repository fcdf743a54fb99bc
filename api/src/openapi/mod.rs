//! The OpenAPI 3.1 document, generated from the router itself (GET /api/openapi.json, and
//! `portal-api openapi` without a server). Every route is registered through [`ApiRouter`], which
//! reads the handler's signature: its extractors say who may call it (`RequireRole<R>`, read from
//! the one table of role sets), its body and its path and query parameters; its answer type says
//! what comes back. Schemas are the wasm-core wire types' own (schemars, feature `schema`).

pub mod describe;
mod document;
mod router;
mod schemas;

pub use describe::Access;
pub use document::{document, operation_access};
pub use router::{ApiRouter, Operation};

#[cfg(test)]
mod tests;
