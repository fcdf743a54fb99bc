//! Single sign-on (issue 19): SSO Management's routes (spec 03 §7 "SSO") and the sign-in flows
//! that end in an SSO session (spec 01 §2.11, §4, §6).

pub mod cerner;
pub mod configuration;
pub mod decryption;
pub mod epic;
pub mod saml;
mod smart;

use crate::openapi::ApiRouter;

pub fn router() -> ApiRouter {
    ApiRouter::new()
        .merge(configuration::router())
        .merge(decryption::router())
        .merge(saml::router())
        .merge(epic::router())
        .merge(cerner::router())
}
