//! Wire types (DTOs) shared by the API and the web app. Field names are the spec's (spec 01 §3,
//! spec 02 §3): most are PascalCase; a few requests the spec shows in camelCase stay so.

pub mod account;
pub mod documents;
pub mod error;
pub mod survey_queue;
pub mod table;

pub use account::*;
pub use documents::*;
pub use error::*;
pub use survey_queue::*;
pub use table::*;
pub mod appointments;
pub mod survey_status;
pub use appointments::*;
pub use survey_status::*;
pub mod history_portal;
pub use history_portal::*;
pub mod core_settings;
pub mod membership;
pub mod recovery;
pub mod setup;
pub use core_settings::*;
pub use membership::*;
pub use recovery::*;
pub use setup::*;
pub mod medical_history;
pub use medical_history::*;
pub mod iam_here;
pub use iam_here::*;
pub mod labels;
pub use labels::*;
pub mod embed;
pub use embed::*;
pub mod survey;
pub use survey::*;
pub mod survey_package;
pub use survey_package::*;
pub mod logo;
pub use logo::*;
pub mod settings;
pub use settings::*;
