//! Address queries, dates and error bodies come from outside. A fixed-seed generator feeds every
//! reader odd text: nothing may panic, and table state must survive a write/read round trip.

use wasm_core::sorted_map::SortedMap;

use wasm_core::dates::{self, DateFormat};
use wasm_core::http_error::{describe_http_error, parse_json};
use wasm_core::model::{SortDirection, PAGE_SIZES};
use wasm_core::table::{read_table_state, write_table_state, TableState};

/// xorshift64*: deterministic, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn text(&mut self, pieces: &[&str], max: usize) -> String {
        (0..self.below(max + 1))
            .map(|_| pieces[self.below(pieces.len())])
            .collect()
    }
}

const QUERY_PIECES: &[&str] = &[
    "all_",
    "page",
    "size",
    "sort",
    "dir",
    "q",
    "f_",
    "=",
    "&",
    "?",
    "%",
    "%2",
    "%C3",
    "%A9",
    "%FF",
    "+",
    "-",
    "0",
    "1",
    "9",
    "25",
    "4294967296",
    "asc",
    "desc",
    "é",
    "€",
    " ",
    "x",
];
const DATE_PIECES: &[&str] = &[
    "2026", "-", "02", "29", "T", "23", ":", "59", ".", "123", "Z", "+", "05", "00", " ", "9", "x",
    "٣",
];
const JSON_PIECES: &[&str] = &[
    "{", "}", "[", "]", ":", ",", "\"", "\\", "\\u", "d83d", "Title", "Errors", "1", "-", "e",
    "true", "null", " ", "é", "\u{1}",
];

#[test]
fn table_readers_never_panic_and_sizes_stay_allowed() {
    let mut rng = Rng(0x5EED_0001);
    let defaults = TableState::default();
    for _ in 0..20_000 {
        let query = rng.text(QUERY_PIECES, 12);
        let state = read_table_state(&query, "all", &defaults);
        assert!(PAGE_SIZES.contains(&state.page_size), "{query}");
        // Writing what was read and reading it back gives the same state.
        let written = write_table_state(&query, "all", &state);
        assert_eq!(
            read_table_state(&written, "all", &defaults),
            state,
            "{query} -> {written}"
        );
    }
}

#[test]
fn table_state_round_trips_through_the_address() {
    let mut rng = Rng(0x5EED_0002);
    let words = [
        "",
        "Jane",
        "Doé",
        "a&b=c",
        "100%",
        "+1",
        " ",
        "Мария",
        "x/y?z#",
    ];
    for _ in 0..5_000 {
        let mut filters = SortedMap::new();
        for _ in 0..rng.below(3) {
            let name = ["Location", "Status", "Loc Name"][rng.below(3)];
            let value = words[1 + rng.below(words.len() - 1)];
            filters.insert(name.to_owned(), value.to_owned());
        }
        let state = TableState {
            page_index: [0, 1, 7, u32::MAX - 1][rng.below(4)],
            page_size: PAGE_SIZES[rng.below(PAGE_SIZES.len())],
            sort_column: [None, Some("UserFullName".to_owned())][rng.below(2)].clone(),
            sort_direction: [SortDirection::Asc, SortDirection::Desc][rng.below(2)],
            search: words[rng.below(words.len())].to_owned(),
            filters,
        };
        // Without a sort column the direction is not written (it only means something with one).
        let expected = TableState {
            sort_direction: if state.sort_column.is_some() {
                state.sort_direction
            } else {
                SortDirection::Asc
            },
            ..state.clone()
        };
        let query = write_table_state("?keep=1", "all", &state);
        assert!(query.starts_with("?keep=1"), "{query}");
        assert_eq!(
            read_table_state(&query, "all", &TableState::default()),
            expected,
            "{query}"
        );
    }
}

#[test]
fn date_parsing_never_panics() {
    let mut rng = Rng(0x5EED_0003);
    for _ in 0..20_000 {
        let iso = rng.text(DATE_PIECES, 14);
        let offset = [-1440, -720, -300, 0, 330, 840, 1080, i32::MIN, i32::MAX][rng.below(9)];
        for format in DateFormat::ALL {
            let text = dates::format_date(&iso, format, offset, "EST");
            assert!(
                text.is_empty() || offset.unsigned_abs() <= 1080,
                "{iso} {offset}"
            );
        }
        dates::format_appointment(&iso, rng.below(2) == 0, offset);
    }
}

#[test]
fn error_bodies_never_panic() {
    let mut rng = Rng(0x5EED_0004);
    for _ in 0..20_000 {
        let body = rng.text(JSON_PIECES, 16);
        let status = [0, 400, 401, 404, 500, 502, 999][rng.below(7)];
        let dialog = describe_http_error(status, &body);
        assert!(!dialog.title.is_empty(), "{body}");
        // Whatever our reader accepts, serde_json accepts too.
        if parse_json(&body).is_some() {
            assert!(
                serde_json::from_str::<serde_json::Value>(&body).is_ok(),
                "{body}"
            );
        }
    }
}
