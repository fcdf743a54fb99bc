//! wasm-core rules the API calls that have not landed on branch `core` yet. Each stand-in has
//! the contract's signature and messages, so switching to wasm-core is a one-line change.

use wasm_core::model::LoginRequest;
use wasm_core::validation::is_blank;
use wasm_core::ValidationErrors;

/// Stand-in for `wasm_core::validation::validate_login` (contract: `validateLogin`).
pub fn validate_login(req: &LoginRequest, ask_username: bool) -> ValidationErrors {
    let mut errors = ValidationErrors::new();
    errors.check(is_blank(&req.username_or_email), "usernameOrEmail", "Username or email is required");
    errors.check(req.password.is_empty(), "password", "Password is required");
    if ask_username {
        errors.check(
            req.user_name.as_deref().is_none_or(is_blank),
            "userName",
            "Username is required",
        );
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(u: &str, p: &str, name: Option<&str>) -> LoginRequest {
        LoginRequest {
            username_or_email: u.into(),
            password: p.into(),
            remember_me: false,
            device_id: None,
            user_name: name.map(Into::into),
        }
    }

    #[test]
    fn login_messages() {
        let e = validate_login(&req(" ", "", None), false);
        assert_eq!(e.field("usernameOrEmail"), ["Username or email is required"]);
        assert_eq!(e.field("password"), ["Password is required"]);
        assert!(validate_login(&req("a", "b", None), false).is_valid());
        assert_eq!(validate_login(&req("a", "b", Some("")), true).field("userName"), ["Username is required"]);
    }
}
