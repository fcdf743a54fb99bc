//! Wire types (DTOs) shared by the API and the web app. Field names are the spec's (spec 01 §3,
//! spec 02 §3): most are PascalCase; a few requests the spec shows in camelCase stay so.

pub mod account;
pub mod error;
pub mod table;
pub mod survey_queue;
pub mod documents;

pub use account::*;
pub use error::*;
pub use table::*;
pub use survey_queue::*;
pub use documents::*;
pub mod survey_status;
pub mod appointments;
pub use survey_status::*;
pub use appointments::*;
pub mod survey;
pub use survey::*;
