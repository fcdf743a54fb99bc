//! The error body of every failed API call (spec 01 §8): the web app's error dialog shows
//! Title (or 'Server Error'), Message, the ErrorId with a note to contact the administrator, and
//! StackTrace when present (development only). Validation failures add field -> messages.

use crate::wire;
use crate::ValidationErrors;

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct ApiError {
        pub title: String,
        pub message: String,
        pub error_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub stack_trace: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub errors: Option<ValidationErrors>,
    }
}
