//! What the web app shows for a failed API call (spec 01 §8, spec 02 §8): 401 goes to the patient
//! login; 404 is the dialog '404 Not Found' titled 'Server Error'; any other failure is a dialog
//! titled with the body's Title or 'Server Error', with its Message, ErrorId, StackTrace (dev
//! only) and field Errors. The body is whatever came back: JSON, HTML from a proxy, or nothing.
//!
//! The body is read by the small tolerant JSON reader below instead of serde_json, which would
//! add tens of kilobytes to the wasm build; it is the same code natively and in the browser.

use crate::validation::ValidationErrors;
use crate::wire;

pub const LOGIN_PATH: &str = "/patient/login";
pub const SERVER_ERROR_TITLE: &str = "Server Error";
pub const NOT_FOUND_MESSAGE: &str = "404 Not Found";
/// Status 0 is what the web app passes when no response arrived (spec 01 §8, spelling as shown).
/// A failure without a message of its own (a template, crate::message_templates).
pub const STATUS_MESSAGE: &str = "The server answered with status {status}.";
pub const OFFLINE_MESSAGE: &str = "No internet connnection. Please try again later";

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub enum ErrorDialogKind {
    /// Leave the page for `RedirectTo` (no dialog).
    Redirect,
    /// Show the error dialog.
    Dialog,
}

wire! {
    #[serde(rename_all = "PascalCase")]
    pub struct ErrorDialog {
        pub kind: ErrorDialogKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub redirect_to: Option<String>,
        pub title: String,
        pub message: String,
        /// Shown with a note to contact the system administrator.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub error_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub stack_trace: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub errors: Option<ValidationErrors>,
    }
}

/// Longest plain-text body shown as the message; longer text is likely a page, not a sentence.
const MAX_TEXT_MESSAGE: usize = 200;

/// Turns a failed response into what the user sees. Never panics, whatever the body holds.
pub fn describe_http_error(status: u16, body: &str) -> ErrorDialog {
    let json = parse_json(body);
    let fields: &[(String, Json)] = match &json {
        Some(Json::Obj(fields)) => fields,
        _ => &[],
    };
    let text = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| match v {
                Json::Str(s) if !s.trim().is_empty() => Some(s.clone()),
                Json::Num(n) => Some(n.clone()),
                _ => None,
            })
    };
    let errors = fields
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("Errors"))
        .and_then(|(_, v)| field_errors(v));
    let mut dialog = ErrorDialog {
        kind: ErrorDialogKind::Dialog,
        redirect_to: None,
        title: text("Title").unwrap_or_else(|| SERVER_ERROR_TITLE.to_owned()),
        message: String::new(),
        error_id: text("ErrorId"),
        stack_trace: text("StackTrace"),
        errors,
    };
    match status {
        401 => {
            dialog.kind = ErrorDialogKind::Redirect;
            dialog.redirect_to = Some(LOGIN_PATH.to_owned());
            dialog.title = text("Title").unwrap_or_else(|| "Unauthorized".to_owned());
            dialog.message = text("Message").unwrap_or_default();
        }
        404 => {
            dialog.title = SERVER_ERROR_TITLE.to_owned();
            dialog.message = NOT_FOUND_MESSAGE.to_owned();
        }
        0 => {
            dialog.title = "Error".to_owned();
            dialog.message = OFFLINE_MESSAGE.to_owned();
        }
        _ => {
            let plain = body.trim();
            dialog.message = text("Message").unwrap_or_else(|| {
                if json.is_none()
                    && !plain.is_empty()
                    && !plain.starts_with(['<', '{', '['])
                    && plain.chars().count() <= MAX_TEXT_MESSAGE
                {
                    plain.to_owned()
                } else {
                    crate::message_templates::fill(
                        STATUS_MESSAGE,
                        // As u32: the only u16 written as text, its formatter 250 bytes of wasm.
                        &[("status", &u32::from(status).to_string())],
                    )
                }
            });
        }
    }
    dialog
}

/// `{"field": ["message", ...]}`; a single string counts as one message, other values are skipped.
fn field_errors(value: &Json) -> Option<ValidationErrors> {
    let Json::Obj(fields) = value else {
        return None;
    };
    let mut errors = ValidationErrors::new();
    for (field, messages) in fields {
        match messages {
            Json::Str(s) => errors.add(field, s.clone()),
            Json::Arr(items) => {
                for item in items {
                    if let Json::Str(s) = item {
                        errors.add(field, s.clone());
                    }
                }
            }
            _ => {}
        }
    }
    (!errors.is_valid()).then_some(errors)
}

/// A JSON value; numbers keep their text (only shown, never computed with).
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

/// Nesting deeper than this is refused, so a hostile body cannot exhaust the stack.
const MAX_DEPTH: usize = 64;

/// Parses a whole JSON text; `None` when it is not valid JSON.
pub fn parse_json(text: &str) -> Option<Json> {
    let mut p = Parser {
        s: text.trim_start_matches('\u{feff}').as_bytes(),
        i: 0,
    };
    let value = p.value(0)?;
    p.ws();
    (p.i == p.s.len()).then_some(value)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while matches!(self.s.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.ws();
        let hit = self.s.get(self.i) == Some(&b);
        if hit {
            self.i += 1;
        }
        hit
    }

    fn literal(&mut self, word: &[u8], value: Json) -> Option<Json> {
        let end = self.i.checked_add(word.len())?;
        (self.s.get(self.i..end)? == word).then(|| {
            self.i = end;
            value
        })
    }

    fn value(&mut self, depth: usize) -> Option<Json> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        match *self.s.get(self.i)? {
            b'{' => {
                self.i += 1;
                let mut fields = Vec::new();
                if self.eat(b'}') {
                    return Some(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return None;
                    }
                    fields.push((key, self.value(depth + 1)?));
                    if self.eat(b'}') {
                        return Some(Json::Obj(fields));
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Some(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Some(Json::Arr(items));
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            b'"' => self.string().map(Json::Str),
            b't' => self.literal(b"true", Json::Bool(true)),
            b'f' => self.literal(b"false", Json::Bool(false)),
            b'n' => self.literal(b"null", Json::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, as JSON defines it.
    fn number(&mut self) -> Option<Json> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let from = p.i;
            while p.s.get(p.i).is_some_and(u8::is_ascii_digit) {
                p.i += 1;
            }
            p.i > from
        };
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        if self.s.get(self.i) == Some(&b'0') {
            self.i += 1;
        } else if !digits(self) {
            return None;
        }
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            if !digits(self) {
                return None;
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        Some(Json::Num(text.to_owned()))
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.s.get(self.i..self.i.checked_add(4)?)?;
        let text = std::str::from_utf8(digits).ok()?;
        let n = u32::from_str_radix(text, 16).ok()?;
        self.i += 4;
        Some(n)
    }

    /// A string at the cursor (which must be on its opening quote).
    fn string(&mut self) -> Option<String> {
        if self.s.get(self.i) != Some(&b'"') {
            return None;
        }
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let b = *self.s.get(self.i)?;
            self.i += 1;
            match b {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => {
                    let e = *self.s.get(self.i)?;
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            if (0xD800..0xDC00).contains(&hi)
                                && self.s.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                let save = self.i;
                                self.i += 2;
                                match self.hex4() {
                                    Some(lo) if (0xDC00..0xE000).contains(&lo) => char::from_u32(
                                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00),
                                    )?,
                                    _ => {
                                        self.i = save;
                                        char::REPLACEMENT_CHARACTER
                                    }
                                }
                            } else {
                                char::from_u32(hi).unwrap_or(char::REPLACEMENT_CHARACTER)
                            }
                        }
                        _ => return None,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return None,
                _ => out.push(b),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_json_like_serde_json() {
        let samples = [
            r#"{"a":[1,-2.5e3,true,false,null],"b":{"c":"d\"\\\/\n\u00e9\ud83d\ude00"}}"#,
            r#"  [ ]  "#,
            r#""x""#,
            r#"{"Title":"T","Errors":{"f":["m1","m2"]}}"#,
        ];
        for text in samples {
            let ours = parse_json(text).unwrap_or_else(|| panic!("{text}"));
            let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(to_serde(&ours), theirs, "{text}");
        }
        for bad in [
            "",
            "1e",
            "01",
            "1.",
            "+1",
            "-",
            "{",
            "{\"a\"}",
            "[1,]",
            "{\"a\":1,}",
            "\"\u{1}\"",
            "nul",
            "{} x",
            "\"\\x\"",
        ] {
            assert_eq!(parse_json(bad), None, "{bad:?}");
        }
        let deep = "[".repeat(100_000);
        assert_eq!(parse_json(&deep), None);
        assert_eq!(
            parse_json(r#""\ud800x""#),
            Some(Json::Str("\u{fffd}x".into()))
        );
    }

    fn to_serde(j: &Json) -> serde_json::Value {
        use serde_json::Value;
        match j {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Num(n) => serde_json::from_str(n).unwrap(),
            Json::Str(s) => Value::String(s.clone()),
            Json::Arr(a) => Value::Array(a.iter().map(to_serde).collect()),
            Json::Obj(o) => {
                Value::Object(o.iter().map(|(k, v)| (k.clone(), to_serde(v))).collect())
            }
        }
    }

    #[test]
    fn dialogs_per_status() {
        let d = describe_http_error(401, "");
        assert_eq!(
            (d.kind, d.redirect_to.as_deref()),
            (ErrorDialogKind::Redirect, Some(LOGIN_PATH))
        );
        let d = describe_http_error(
            404,
            r#"{"Title":"Not Found","Message":"404 Not Found","ErrorId":"e1"}"#,
        );
        assert_eq!(
            (d.title.as_str(), d.message.as_str(), d.error_id.as_deref()),
            ("Server Error", "404 Not Found", Some("e1"))
        );
        let d = describe_http_error(
            400,
            r#"{"Title":"Bad Request","Message":"Invalid","ErrorId":"e2","Errors":{"password":["Password is required"]}}"#,
        );
        assert_eq!(d.title, "Bad Request");
        assert_eq!(
            d.errors.unwrap().field("password"),
            ["Password is required"]
        );
        let d = describe_http_error(502, "<html>Bad gateway</html>");
        assert_eq!(
            (d.title.as_str(), d.message.as_str()),
            ("Server Error", "The server answered with status 502.")
        );
        assert_eq!(
            describe_http_error(503, "Service Unavailable").message,
            "Service Unavailable"
        );
        assert_eq!(describe_http_error(0, "").message, OFFLINE_MESSAGE);
    }
}
