//! Table state kept in the address (spec 01 §2.6): page, page size, sort, direction, search and
//! filters of one list live in the query string under keys prefixed by the list id, so a link or
//! a reload shows the same page. Keys: `<id>_page` (1-based), `<id>_size`, `<id>_sort`,
//! `<id>_dir` (asc|desc), `<id>_q`, `<id>_f_<name>`.
//!
//! The address is user input: anything unreadable (bad numbers, bad escapes, sizes not offered)
//! falls back to the default value for that key and never panics.

use crate::sorted_map::SortedMap;

use crate::model::{SortDirection, TableRequest, DEFAULT_PAGE_SIZE, PAGE_SIZES};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(hashmap_as_object))]
#[serde(rename_all = "PascalCase")]
pub struct TableState {
    /// Counts from 0 (the address shows it from 1).
    pub page_index: u32,
    pub page_size: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_column: Option<String>,
    pub sort_direction: SortDirection,
    pub search: String,
    /// Filter name -> value (e.g. Location -> "101"); an absent name means "all".
    #[cfg_attr(feature = "wasm", tsify(type = "Record<string, string>"))]
    pub filters: SortedMap<String, String>,
}

impl Default for TableState {
    fn default() -> Self {
        TableState {
            page_index: 0,
            page_size: DEFAULT_PAGE_SIZE,
            sort_column: None,
            sort_direction: SortDirection::Asc,
            search: String::new(),
            filters: SortedMap::new(),
        }
    }
}

/// Longest sort column name accepted from the address; real ones are field names.
const MAX_SORT_LEN: usize = 64;

/// Longest search text (in characters) any table or patient search accepts. A name, an MRN or an
/// e-mail address fits many times over; the bound keeps every search cheap for the database
/// (SQLite refuses LIKE patterns past 50,000 bytes) and is the web inputs' `maxLength`.
pub const MAX_SEARCH_CHARS: usize = 200;

/// The answer to a longer search text.
pub const SEARCH_TOO_LONG: &str = "Search text can be at most 200 characters";

/// `Some(message)` when `text` is longer than [`MAX_SEARCH_CHARS`] characters.
pub fn search_text_error(text: &str) -> Option<&'static str> {
    // Counting stops at the bound, so a huge text costs no more than a short one.
    (text.chars().nth(MAX_SEARCH_CHARS).is_some()).then_some(SEARCH_TOO_LONG)
}

/// [`bounded_search`] for an optional search text (the program managers' MRN search of letters).
pub fn bounded_search_opt<'de, D: serde::Deserializer<'de>>(
    de: D,
) -> Result<Option<String>, D::Error> {
    let text = <Option<String> as serde::Deserialize>::deserialize(de)?;
    match text.as_deref().and_then(search_text_error) {
        Some(message) => Err(serde::de::Error::custom(message)),
        None => Ok(text),
    }
}

/// `deserialize_with` for every search text of the wire (`TableRequest.Search`, the respondent
/// search): a longer text is a deserialization error carrying [`SEARCH_TOO_LONG`], so no handler
/// ever sees one and the API answers 400 with that message where it reads the body.
pub fn bounded_search<'de, D: serde::Deserializer<'de>>(de: D) -> Result<String, D::Error> {
    let text = <String as serde::Deserialize>::deserialize(de)?;
    match search_text_error(&text) {
        Some(message) => Err(serde::de::Error::custom(message)),
        None => Ok(text),
    }
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes one query component: `+` is a space, `%XX` a byte; the bytes must be UTF-8.
/// `None` for a broken escape or invalid UTF-8, so the caller falls back to the default.
pub fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hi = hex(*bytes.get(i + 1)?)?;
                let lo = hex(*bytes.get(i + 2)?)?;
                out.push(hi << 4 | lo);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// Encodes one query component: unreserved characters stay, everything else is `%XX` of its
/// UTF-8 bytes (space included, so the result reads the same with any decoder).
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b >> 4)]));
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b & 15)]));
        }
    }
    out
}

/// A plain decimal number (no sign, no spaces) that fits in u32.
fn parse_u32(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_direction(s: &str) -> Option<SortDirection> {
    if s.eq_ignore_ascii_case("asc") {
        Some(SortDirection::Asc)
    } else if s.eq_ignore_ascii_case("desc") {
        Some(SortDirection::Desc)
    } else {
        None
    }
}

fn is_column_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_SORT_LEN
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Splits a query (with or without `?`) into its raw `key=value` parts, dropping empty ones.
fn raw_parts(query: &str) -> impl Iterator<Item = &str> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query.split('&').filter(|p| !p.is_empty())
}

fn split_part(part: &str) -> (&str, &str) {
    part.split_once('=').unwrap_or((part, ""))
}

/// Which of a list's keys `key` is, if any.
enum Key<'a> {
    Page,
    Size,
    Sort,
    Dir,
    Search,
    Filter(&'a str),
}

fn key_of<'a>(key: &'a str, list_id: &str) -> Option<Key<'a>> {
    let rest = key.strip_prefix(list_id)?.strip_prefix('_')?;
    match rest {
        "page" => Some(Key::Page),
        "size" => Some(Key::Size),
        "sort" => Some(Key::Sort),
        "dir" => Some(Key::Dir),
        "q" => Some(Key::Search),
        _ => rest
            .strip_prefix("f_")
            .filter(|name| !name.is_empty())
            .map(Key::Filter),
    }
}

/// Reads a list's state from the address query. A key that is missing, or whose value cannot be
/// read, keeps its value from `defaults`; of duplicate readable keys the last wins. Filters from
/// the address are added to (or replace) the default filters.
pub fn read_table_state(query: &str, list_id: &str, defaults: &TableState) -> TableState {
    let mut state = defaults.clone();
    if !PAGE_SIZES.contains(&state.page_size) {
        state.page_size = DEFAULT_PAGE_SIZE;
    }
    for (raw_key, raw_value) in raw_parts(query).map(split_part) {
        let (Some(key), Some(value)) = (percent_decode(raw_key), percent_decode(raw_value)) else {
            continue;
        };
        match key_of(&key, list_id) {
            Some(Key::Page) => {
                // 1-based in the address; page 0 does not exist.
                if let Some(page) = parse_u32(&value).filter(|&page| page >= 1) {
                    state.page_index = page - 1;
                }
            }
            Some(Key::Size) => {
                if let Some(size) = parse_u32(&value).filter(|size| PAGE_SIZES.contains(size)) {
                    state.page_size = size;
                }
            }
            Some(Key::Sort) if is_column_name(&value) => state.sort_column = Some(value),
            Some(Key::Dir) => {
                if let Some(direction) = parse_direction(&value) {
                    state.sort_direction = direction;
                }
            }
            Some(Key::Search) if search_text_error(&value).is_none() => state.search = value,
            Some(Key::Filter(name)) if !value.is_empty() => {
                state.filters.insert(name.to_owned(), value);
            }
            _ => {}
        }
    }
    state
}

/// Returns `query` with this list's keys replaced by `state`: other keys are kept as they were,
/// in order, and the list's keys follow. Values equal to the plain defaults (page 1, page size
/// 10, no sort, no search, no filter) are left out; the direction is written with a sort column.
/// A leading `?` is kept when the result is not empty.
pub fn write_table_state(query: &str, list_id: &str, state: &TableState) -> String {
    let mut parts: Vec<String> = raw_parts(query)
        .filter(|part| {
            percent_decode(split_part(part).0).is_none_or(|key| key_of(&key, list_id).is_none())
        })
        .map(str::to_owned)
        .collect();
    let mut put = |suffix: &str, value: &str| {
        parts.push(format!(
            "{}={}",
            percent_encode(&format!("{list_id}_{suffix}")),
            percent_encode(value)
        ));
    };
    if state.page_index > 0 {
        put("page", &(u64::from(state.page_index) + 1).to_string());
    }
    if state.page_size != DEFAULT_PAGE_SIZE && PAGE_SIZES.contains(&state.page_size) {
        put("size", &state.page_size.to_string());
    }
    if let Some(column) = state.sort_column.as_deref().filter(|c| !c.is_empty()) {
        put("sort", column);
        put(
            "dir",
            match state.sort_direction {
                SortDirection::Asc => "asc",
                SortDirection::Desc => "desc",
            },
        );
    }
    if !state.search.is_empty() {
        put("q", &state.search);
    }
    for (name, value) in &state.filters {
        if !name.is_empty() && !value.is_empty() {
            put(&format!("f_{name}"), value);
        }
    }
    let joined = crate::join(&parts, "&");
    if query.starts_with('?') && !joined.is_empty() {
        format!("?{joined}")
    } else {
        joined
    }
}

/// The server request for a state (spec 01 §7 datatable): filters travel separately, per list.
pub fn table_request(state: &TableState) -> TableRequest {
    TableRequest {
        page_index: state.page_index,
        page_size: if PAGE_SIZES.contains(&state.page_size) {
            state.page_size
        } else {
            DEFAULT_PAGE_SIZE
        },
        sort_column: state.sort_column.clone().filter(|c| !c.is_empty()),
        sort_direction: state.sort_direction,
        search: state.search.trim().to_owned(),
    }
}

/// Pages shown on each side of the current one before the pager shortens the list with gaps.
pub const PAGER_AROUND: u32 = 2;

/// The numbered pager under a list (spec 01 §2.6): "Showing `FirstRow` to `LastRow` of N
/// entries", and the page buttons: the first, the last and `PAGER_AROUND` pages on each side of
/// the current one, with a `None` (a gap, "…") for every run of pages left out.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "PascalCase")]
pub struct Pager {
    /// At least 1, also for an empty list.
    pub page_count: u32,
    /// 1-based; 0 for an empty list.
    pub first_row: u64,
    pub last_row: u64,
    /// Page indexes (from 0) to show as buttons, `None` (null) for a gap.
    #[cfg_attr(feature = "wasm", tsify(type = "(number | null)[]"))]
    pub pages: Vec<Option<u32>>,
}

/// The pager for page `page_index` (from 0) of `row_count` rows in pages of `page_size`.
pub fn pager(page_index: u32, page_size: u32, row_count: u64) -> Pager {
    let size = u64::from(page_size.max(1));
    let page_count = u32::try_from(row_count.div_ceil(size).max(1)).unwrap_or(u32::MAX);
    let start = u64::from(page_index).saturating_mul(size);
    let (first_row, last_row) = if row_count == 0 {
        (0, 0)
    } else {
        (
            start.saturating_add(1),
            row_count.min(start.saturating_add(size)),
        )
    };
    let mut pages = Vec::new();
    // Only the shown pages are visited, so a huge page count costs nothing. The first page, the
    // pages near the current one and the last page, in ascending order and each once; built in
    // order rather than sorted (a slice sort alone weighed 4.5 kB of the wasm file, issue 22).
    let last_page = page_count - 1;
    let near = page_index.saturating_sub(PAGER_AROUND)
        ..=page_index.saturating_add(PAGER_AROUND).min(last_page);
    let mut candidates = vec![0];
    candidates.extend(near.filter(|&i| i > 0));
    if last_page > 0 && candidates.last() != Some(&last_page) {
        candidates.push(last_page);
    }
    for i in candidates {
        if let Some(Some(last)) = pages.last() {
            if i > last + 1 {
                pages.push(None);
            }
        }
        pages.push(Some(i));
    }
    Pager {
        page_count,
        first_row,
        last_row,
        pages,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(column: &str, dir: SortDirection) -> TableState {
        TableState {
            sort_column: Some(column.to_owned()),
            sort_direction: dir,
            ..TableState::default()
        }
    }

    #[test]
    fn reads_every_key_with_the_prefix() {
        let q =
            "?tab=1&all_page=3&all_size=25&all_sort=UserFullName&all_dir=DESC&all_q=Jane+Do%C3%A9\
                 &all_f_Location=101&today_page=9";
        let state = read_table_state(q, "all", &TableState::default());
        assert_eq!(state.page_index, 2);
        assert_eq!(state.page_size, 25);
        assert_eq!(state.sort_column.as_deref(), Some("UserFullName"));
        assert_eq!(state.sort_direction, SortDirection::Desc);
        assert_eq!(state.search, "Jane Doé");
        assert_eq!(
            state.filters.get("Location").map(String::as_str),
            Some("101")
        );
    }

    #[test]
    fn hostile_values_fall_back_to_defaults() {
        let defaults = TableState {
            page_index: 1,
            ..sorted("Status", SortDirection::Desc)
        };
        let q =
            "all_page=99999999999999999999&all_size=1000000&all_sort=x%20y&all_dir=up&all_q=%FF%FE\
                 &all_f_Status=%E2%28";
        assert_eq!(read_table_state(q, "all", &defaults), defaults);
        for page in ["-1", "0", "+2", " 2", "", "1e3", "%"] {
            let state =
                read_table_state(&format!("all_page={page}"), "all", &TableState::default());
            assert_eq!(state.page_index, 0, "{page}");
        }
        assert_eq!(
            read_table_state("all_page=4294967295", "all", &TableState::default()).page_index,
            u32::MAX - 1
        );
        assert_eq!(percent_decode("%"), None);
        assert_eq!(percent_decode("%zz"), None);
    }

    #[test]
    fn search_text_is_bounded() {
        let at_bound = "é".repeat(MAX_SEARCH_CHARS);
        assert_eq!(search_text_error(&at_bound), None);
        assert_eq!(
            search_text_error(&format!("{at_bound}x")),
            Some(SEARCH_TOO_LONG)
        );
        assert!(SEARCH_TOO_LONG.contains(&MAX_SEARCH_CHARS.to_string()));
        let long = format!("all_q={}", "a".repeat(MAX_SEARCH_CHARS + 1));
        assert_eq!(
            read_table_state(&long, "all", &TableState::default()).search,
            ""
        );
    }

    #[test]
    fn a_longer_search_does_not_deserialize() {
        let body = |search: String| serde_json::json!({ "PageIndex": 0, "Search": search });
        let ok: TableRequest = serde_json::from_value(body("x".repeat(MAX_SEARCH_CHARS))).unwrap();
        assert_eq!(ok.search.len(), MAX_SEARCH_CHARS);
        let err = serde_json::from_value::<TableRequest>(body("x".repeat(60_000))).unwrap_err();
        assert_eq!(err.to_string(), SEARCH_TOO_LONG);
        let err = serde_json::from_value::<crate::model::RespondentSearch>(
            serde_json::json!({ "FirstName": "_".repeat(201) }),
        )
        .unwrap_err();
        assert_eq!(err.to_string(), SEARCH_TOO_LONG);
    }

    #[test]
    fn writes_only_what_differs_and_keeps_other_keys() {
        assert_eq!(
            write_table_state("?tab=1&all_page=4", "all", &TableState::default()),
            "?tab=1"
        );
        assert_eq!(
            write_table_state("?all_page=4", "all", &TableState::default()),
            ""
        );
        let mut state = sorted("UserFullName", SortDirection::Asc);
        state.page_index = 1;
        state.search = "Jane Doé & co".into();
        state.filters.insert("Location".into(), "101".into());
        let written = write_table_state("b=2&flag&all_q=old&a=%20", "all", &state);
        assert_eq!(
            written,
            "b=2&flag&a=%20&all_page=2&all_sort=UserFullName&all_dir=asc&all_q=Jane%20Do%C3%A9%20%26%20co&all_f_Location=101"
        );
        assert_eq!(
            read_table_state(&written, "all", &TableState::default()),
            state
        );
    }

    #[test]
    fn request_follows_the_state() {
        let mut state = sorted("Status", SortDirection::Desc);
        state.page_size = 7;
        state.search = "  jane ".into();
        let req = table_request(&state);
        assert_eq!(req.page_size, DEFAULT_PAGE_SIZE);
        assert_eq!(req.search, "jane");
        assert_eq!(req.sort_column.as_deref(), Some("Status"));
        assert_eq!(req.sort_direction, SortDirection::Desc);
    }
}
