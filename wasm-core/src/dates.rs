//! Dates as the spec shows them (spec 01 §9, §2.3, §2.10; spec 02 §9). No chrono: the wasm build
//! stays small, and the few calendar sums needed are done here on days since 1970-01-01.
//!
//! Instants travel as ISO 8601 text in UTC. The viewer's zone is given as the offset of that
//! instant in minutes east of UTC (the web app passes `-new Date(iso).getTimezoneOffset()`), so
//! daylight saving is the browser's business and this code stays pure.

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
pub enum DateFormat {
    /// 'EEEE, MMMM d, y': letter dates (spec 01 §2.3).
    LongDate,
    /// 'MM/DD/YYYY, hh:mm:ss A': log dates (spec 01 §9).
    LogDateTime,
    /// 'MM/dd/YYYY': history table, time hidden (spec 01 §9).
    TableDate,
    /// 'MM/dd/YYYY hh:mm aa': history table with time (spec 01 §9).
    TableDateTime,
    /// 'MM/DD/YYYY' (spec 01 §9 SDate).
    SDate,
    /// 'DD/MM/YYYY': the site usage report query.
    SiteUsageQuery,
    /// Local date and time with the zone abbreviation, for I Am Here (spec 01 §2.10, §9).
    IamHere,
}

impl DateFormat {
    pub const ALL: [DateFormat; 7] = [
        DateFormat::LongDate,
        DateFormat::LogDateTime,
        DateFormat::TableDate,
        DateFormat::TableDateTime,
        DateFormat::SDate,
        DateFormat::SiteUsageQuery,
        DateFormat::IamHere,
    ];

    /// The wire name (the serde and TypeScript spelling).
    pub fn name(self) -> &'static str {
        match self {
            DateFormat::LongDate => "LongDate",
            DateFormat::LogDateTime => "LogDateTime",
            DateFormat::TableDate => "TableDate",
            DateFormat::TableDateTime => "TableDateTime",
            DateFormat::SDate => "SDate",
            DateFormat::SiteUsageQuery => "SiteUsageQuery",
            DateFormat::IamHere => "IamHere",
        }
    }

    /// The pattern, in the tokens `format_with` understands.
    pub fn pattern(self) -> &'static str {
        match self {
            DateFormat::LongDate => "EEEE, MMMM d, y",
            DateFormat::LogDateTime => "MM/DD/YYYY, hh:mm:ss A",
            DateFormat::TableDate => "MM/dd/YYYY",
            DateFormat::TableDateTime => "MM/dd/YYYY hh:mm aa",
            DateFormat::SDate => "MM/DD/YYYY",
            DateFormat::SiteUsageQuery => "DD/MM/YYYY",
            DateFormat::IamHere => "EEEE, MMMM d, y hh:mm aa z",
        }
    }
}

/// A calendar date and wall-clock time (no zone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalDateTime {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

/// A parsed ISO value: seconds since 1970-01-01T00:00:00Z, or a date without a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parsed {
    Instant(i64),
    /// A plain `YYYY-MM-DD` (a birth date, say) names a day, not an instant: no offset applies.
    Date(LocalDateTime),
}

/// Offsets beyond ±18 h do not exist (ISO 8601, JS Date); larger ones are treated as invalid.
pub const MAX_OFFSET_MINUTES: i32 = 18 * 60;

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

pub fn is_leap_year(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

pub fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (eras of 400 years, March-based years so
/// the leap day falls at the end).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400; // 0..=399
    let m = i64::from(month);
    let mp = if m > 2 { m - 3 } else { m + 9 }; // March = 0
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1; // 0..=365
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; // 0..=146096
    era * 146_097 + doe - 719_468
}

/// The inverse of `days_from_civil`.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// 0 = Monday .. 6 = Sunday. 1970-01-01 was a Thursday.
pub fn weekday_from_days(days: i64) -> usize {
    (days + 3).rem_euclid(7) as usize
}

impl LocalDateTime {
    /// The wall-clock time `offset_minutes` east of UTC at instant `seconds`.
    pub fn from_instant(seconds: i64, offset_minutes: i32) -> LocalDateTime {
        let local = seconds + i64::from(offset_minutes) * 60;
        let days = local.div_euclid(86_400);
        let secs = local.rem_euclid(86_400) as u32;
        let (year, month, day) = civil_from_days(days);
        LocalDateTime {
            year,
            month,
            day,
            hour: secs / 3600,
            minute: secs / 60 % 60,
            second: secs % 60,
        }
    }

    fn days(&self) -> i64 {
        days_from_civil(self.year, self.month, self.day)
    }
}

/// A fixed-width run of ASCII digits.
fn digits(s: &[u8], at: usize, len: usize) -> Option<u32> {
    let part = s.get(at..at + len)?;
    part.iter().try_fold(0u32, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
    })
}

/// Parses `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM[:SS[.fff…]]` followed by `Z`, `±HH:MM`, `±HHMM` or
/// nothing (then UTC). A space may stand for the `T`. Fractions are dropped (no format shows them).
pub fn parse_iso(text: &str) -> Option<Parsed> {
    let s = text.trim().as_bytes();
    let year = digits(s, 0, 4)?;
    let month = digits(s, 5, 2)?;
    let day = digits(s, 8, 2)?;
    if s.get(4) != Some(&b'-') || s.get(7) != Some(&b'-') {
        return None;
    }
    let year = i64::from(year);
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let date = LocalDateTime {
        year,
        month,
        day,
        hour: 0,
        minute: 0,
        second: 0,
    };
    if s.len() == 10 {
        return Some(Parsed::Date(date));
    }
    if !matches!(s[10], b'T' | b't' | b' ') || s.get(13) != Some(&b':') {
        return None;
    }
    let hour = digits(s, 11, 2)?;
    let minute = digits(s, 14, 2)?;
    let mut at = 16;
    let mut second = 0;
    if s.get(at) == Some(&b':') {
        second = digits(s, at + 1, 2)?;
        at += 3;
        if s.get(at) == Some(&b'.') {
            at += 1;
            let start = at;
            while s.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
            if at == start {
                return None;
            }
        }
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let offset_seconds: i64 = match &s[at..] {
        [] | [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), rest @ ..] => {
            let (h, m) = match rest.len() {
                5 if rest[2] == b':' => (digits(rest, 0, 2)?, digits(rest, 3, 2)?),
                4 => (digits(rest, 0, 2)?, digits(rest, 2, 2)?),
                2 => (digits(rest, 0, 2)?, 0),
                _ => return None,
            };
            if h > 18 || m > 59 {
                return None;
            }
            let total = i64::from(h * 3600 + m * 60);
            if *sign == b'-' {
                -total
            } else {
                total
            }
        }
        _ => return None,
    };
    let local = date.days() * 86_400 + i64::from(hour * 3600 + minute * 60 + second);
    Some(Parsed::Instant(local - offset_seconds))
}

/// `n` in decimal, zero-padded to `width` characters (a minus sign counts, as in `{:04}`).
/// Written digit by digit: the letters list formats several dates per letter (issue 22).
fn push_padded(out: &mut String, n: i64, width: usize) {
    // Most fields are two digits (month, day, hour, minute, second).
    if (10..100).contains(&n) && width <= 2 {
        out.push(char::from(b'0' + (n / 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
        return;
    }
    let mut digits = [0u8; 20];
    let mut len = 0;
    let mut v = n.unsigned_abs();
    loop {
        if let Some(d) = digits.get_mut(len) {
            *d = b'0' + (v % 10) as u8;
        }
        len += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    if n < 0 {
        out.push('-');
    }
    for _ in (len + usize::from(n < 0))..width {
        out.push('0');
    }
    out.extend(digits.iter().take(len).rev().map(|&d| char::from(d)));
}

/// Formats `t` with a pattern of letter runs; quoted text ('at') and other characters are copied.
/// Tokens: y (year), YY/yy (2 digits), YYYY/yyyy; M, MM, MMM, MMMM; d/D, dd/DD; EEE, EEEE (or
/// ddd, dddd); h, hh (12-hour), H, HH; m, mm; s, ss; a, aa, A (AM/PM); z (zone abbreviation).
/// Both the moment (DD, YYYY) and Angular (dd, y) spellings of the spec's patterns are accepted.
/// Writes into one string without a buffer per token: the letters list calls it several times
/// for each of hundreds of letters (issue 22).
pub fn format_with(t: &LocalDateTime, pattern: &str, zone_abbr: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let hour12 = match t.hour % 12 {
        0 => 12,
        h => h,
    };
    let weekday = WEEKDAYS[weekday_from_days(t.days())];
    let month_name = (t.month as usize)
        .checked_sub(1)
        .and_then(|m| MONTHS.get(m))
        .copied()
        .unwrap_or("");
    let two = |out: &mut String, n: u32| push_padded(out, i64::from(n), 2);
    let one = |out: &mut String, n: u32| push_padded(out, i64::from(n), 0);
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        if c == '\'' {
            // Quoted literal; '' is a quote.
            let body = rest.get(1..).unwrap_or("");
            match body.find('\'') {
                Some(0) => {
                    out.push('\'');
                    rest = body.get(1..).unwrap_or("");
                }
                Some(end) => {
                    out.push_str(body.get(..end).unwrap_or(""));
                    rest = body.get(end + 1..).unwrap_or("");
                }
                None => {
                    out.push_str(body);
                    rest = "";
                }
            }
            continue;
        }
        let run = rest.chars().take_while(|&x| x == c).count();
        let (token, after) = rest
            .split_at_checked(run * c.len_utf8())
            .unwrap_or((rest, ""));
        match (c, run) {
            ('y' | 'Y', 2) => push_padded(&mut out, t.year.rem_euclid(100), 2),
            ('y' | 'Y', 1) => push_padded(&mut out, t.year, 0),
            ('y' | 'Y', _) => push_padded(&mut out, t.year, 4),
            ('M', 1) => one(&mut out, t.month),
            ('M', 2) => two(&mut out, t.month),
            ('M', 3) => out.extend(month_name.chars().take(3)),
            ('M', _) => out.push_str(month_name),
            ('d' | 'D', 1) => one(&mut out, t.day),
            ('d' | 'D', 2) => two(&mut out, t.day),
            ('E', 1..=3) | ('d', 3) => out.extend(weekday.chars().take(3)),
            ('E', _) | ('d', _) => out.push_str(weekday),
            ('h', 1) => one(&mut out, hour12),
            ('h', _) => two(&mut out, hour12),
            ('H', 1) => one(&mut out, t.hour),
            ('H', _) => two(&mut out, t.hour),
            ('m', 1) => one(&mut out, t.minute),
            ('m', _) => two(&mut out, t.minute),
            ('s', 1) => one(&mut out, t.second),
            ('s', _) => two(&mut out, t.second),
            ('a' | 'A', _) => out.push_str(if t.hour < 12 { "AM" } else { "PM" }),
            ('z', _) => out.push_str(zone_abbr),
            _ => out.push_str(token),
        }
        rest = after;
    }
    // An empty zone abbreviation must not leave a trailing space.
    out.truncate(out.trim_end().len());
    out
}

/// Whether a viewer's offset from UTC is one a zone can have (up to 18 hours either way).
fn offset_in_range(offset_minutes: i32) -> bool {
    offset_minutes.unsigned_abs() <= MAX_OFFSET_MINUTES as u32
}

/// The local date and time of `iso` for a viewer `offset_minutes` east of UTC; a plain date is
/// returned as is.
pub fn to_local(iso: &str, offset_minutes: i32) -> Option<LocalDateTime> {
    if !offset_in_range(offset_minutes) {
        return None;
    }
    match parse_iso(iso)? {
        Parsed::Instant(seconds) => Some(LocalDateTime::from_instant(seconds, offset_minutes)),
        Parsed::Date(date) => Some(date),
    }
}

/// `iso` in one of the spec's formats, in the viewer's zone. Invalid input gives "".
pub fn format_date(iso: &str, format: DateFormat, offset_minutes: i32, zone_abbr: &str) -> String {
    match to_local(iso, offset_minutes) {
        Some(t) => format_with(&t, format.pattern(), zone_abbr),
        None => String::new(),
    }
}

/// [`format_date`] of an instant in milliseconds since 1970, without writing its ISO text and
/// reading it back (the letters list formats one or more a letter). Any offset
/// [`format_date`] refuses gives "".
pub fn format_instant(ms: i64, format: DateFormat, offset_minutes: i32, zone_abbr: &str) -> String {
    if !offset_in_range(offset_minutes) {
        return String::new();
    }
    let t = LocalDateTime::from_instant(ms.div_euclid(1000), offset_minutes);
    format_with(&t, format.pattern(), zone_abbr)
}

/// `iso` with a date pattern of the settings (DocumentsOther DocViewDateFormat, spec 03 §3: e.g.
/// 'EEEE, MMMM d, y' or 'MM/dd/yyyy'); a blank pattern is the letter date format. Invalid
/// input gives "".
pub fn format_date_pattern(
    iso: &str,
    pattern: &str,
    offset_minutes: i32,
    zone_abbr: &str,
) -> String {
    let pattern = match pattern.trim() {
        "" => DateFormat::LongDate.pattern(),
        p => p,
    };
    match to_local(iso, offset_minutes) {
        Some(t) => format_with(&t, pattern, zone_abbr),
        None => String::new(),
    }
}

/// An instant (milliseconds since 1970) as 'YYYY-MM-DDTHH:MM:SSZ', written field by field (the
/// letters list writes several per letter).
pub fn iso_utc_ms(ms: i64) -> String {
    let t = LocalDateTime::from_instant(ms.div_euclid(1000), 0);
    let mut out = String::with_capacity(20);
    push_padded(&mut out, t.year, 4);
    for (sep, n) in [
        ('-', t.month),
        ('-', t.day),
        ('T', t.hour),
        (':', t.minute),
        (':', t.second),
    ] {
        out.push(sep);
        push_padded(&mut out, i64::from(n), 2);
    }
    out.push('Z');
    out
}

/// An ISO instant as milliseconds since 1970 (`None`: not an instant).
pub fn instant_ms(iso: &str) -> Option<i64> {
    match parse_iso(iso)? {
        Parsed::Instant(seconds) => seconds.checked_mul(1000),
        Parsed::Date(_) => None,
    }
}

/// The history-table appointment date (spec 01 §2.6, §9): date only when the time is hidden or
/// the local time is 11:59 PM, which stands for "the whole day"; else date and time.
pub fn format_appointment(iso: &str, hide_time: bool, offset_minutes: i32) -> String {
    let Some(t) = to_local(iso, offset_minutes) else {
        return String::new();
    };
    // A plain date has no time to show either.
    let date_only = matches!(parse_iso(iso), Some(Parsed::Date(_)));
    let whole_day = date_only || (t.hour == 23 && t.minute == 59);
    let format = if hide_time || whole_day {
        DateFormat::TableDate
    } else {
        DateFormat::TableDateTime
    };
    format_with(&t, format.pattern(), "")
}

/// The patient's Appointments page (spec 01 §2.1, §9): weekday, date, time and zone
/// ('Thursday, March 5, 2026 02:05 PM EST'); only weekday and date when the time is hidden or
/// the appointment is for the whole day (local 11:59 PM, or a plain date).
pub fn format_appointment_long(
    iso: &str,
    hide_time: bool,
    offset_minutes: i32,
    zone_abbr: &str,
) -> String {
    let Some(t) = to_local(iso, offset_minutes) else {
        return String::new();
    };
    let date_only = matches!(parse_iso(iso), Some(Parsed::Date(_)));
    let whole_day = date_only || (t.hour == 23 && t.minute == 59);
    let format = if hide_time || whole_day {
        DateFormat::LongDate
    } else {
        DateFormat::IamHere
    };
    format_with(&t, format.pattern(), zone_abbr)
}

/// Where a localized date stands: on its own (a table cell, a heading, a letter's date line) its
/// first letter is a capital when it starts with a name (Spanish "Miércoles, 4 de marzo"); inside
/// a sentence (a notice's `{AppointmentDate}`, "sent on …") the name keeps its label's case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DatePlacement {
    Standalone,
    InSentence,
}

/// The label key of an English month or weekday name `format_with` writes, full or short
/// (`MMM`, `EEE`): `Date_Month_1` (January) .. `Date_Month_12`, `Date_MonthShort_1` (Jan) ..,
/// `Date_Weekday_0` (Sunday) .. `Date_Weekday_6`, `Date_WeekdayShort_0` (Sun) ..
/// (wasm-core/labels/dates.json). "May" is both; it takes the full name's label.
fn date_name_key(word: &str) -> Option<String> {
    if let Some(i) = MONTHS.iter().position(|m| *m == word) {
        return Some(format!("Date_Month_{}", i + 1));
    }
    if let Some(i) = MONTHS.iter().position(|m| m.get(..3) == Some(word)) {
        return Some(format!("Date_MonthShort_{}", i + 1));
    }
    // WEEKDAYS starts on Monday; the labels count from Sunday (0).
    if let Some(i) = WEEKDAYS.iter().position(|d| *d == word) {
        return Some(format!("Date_Weekday_{}", (i + 1) % 7));
    }
    WEEKDAYS
        .iter()
        .position(|d| d.get(..3) == Some(word))
        .map(|i| format!("Date_WeekdayShort_{}", (i + 1) % 7))
}

/// A date `format_with` wrote, with its English month and weekday names, full or short, replaced
/// by `text` of their label keys (`date_name_key`). The format itself (order, digits, AM/PM)
/// stays the spec's; only the names change language. A name `text` has no text for stays English.
/// A `Standalone` date that starts with a translated name gets a capital first letter (`placement`).
/// The browser's `tDate`, the notices and the letter PDF use this.
pub fn localize_names(
    formatted: &str,
    placement: DatePlacement,
    text: impl Fn(&str) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(formatted.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match date_name_key(word).and_then(|k| text(&k)) {
            Some(name) if out.is_empty() && placement == DatePlacement::Standalone => {
                let mut chars = name.chars();
                if let Some(first) = chars.next() {
                    crate::upper_case::push_upper(out, first);
                    out.push_str(chars.as_str());
                }
            }
            Some(name) => out.push_str(&name),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in formatted.chars() {
        if c.is_alphabetic() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

pub const APPOINTMENT_DATE: &str = "Appointment Date";
pub const APPOINTMENT_DATE_TIME: &str = "Appointment Date / Time";

/// The header of the appointment column (spec 01 §2.6).
pub fn appointment_header(hide_time: bool) -> &'static str {
    if hide_time {
        APPOINTMENT_DATE
    } else {
        APPOINTMENT_DATE_TIME
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "2026-03-02T19:05:09Z";

    /// The Spanish texts of the shipped labels (wasm-core/labels/dates.json) a test needs.
    fn spanish(key: &str) -> Option<String> {
        Some(match key {
            "Date_Weekday_1" => "lunes".to_owned(),
            "Date_Weekday_0" => "domingo".to_owned(),
            "Date_Weekday_3" => "miércoles".to_owned(),
            "Date_Month_3" => "marzo".to_owned(),
            "Date_Month_5" => "mayo".to_owned(),
            "Date_Month_11" => "noviembre".to_owned(),
            "Date_MonthShort_3" => "mar".to_owned(),
            "Date_MonthShort_9" => "sept".to_owned(),
            "Date_WeekdayShort_3" => "mié".to_owned(),
            "Date_WeekdayShort_4" => "jue".to_owned(),
            other => format!("<{other}>"),
        })
    }

    #[test]
    fn names_are_replaced_by_their_labels_and_nothing_else() {
        let inline = |s: &str| localize_names(s, DatePlacement::InSentence, spanish);
        assert_eq!(
            inline("Monday, March 2, 2026 02:05 PM EST"),
            "lunes, marzo 2, 2026 02:05 PM EST"
        );
        assert_eq!(
            inline("Sunday, November 22, 2026"),
            "domingo, noviembre 22, 2026"
        );
        // Parts of words are not names; AM/PM and zones are not either.
        assert_eq!(
            inline("Mayday 03/02/2026 PM EST"),
            "Mayday 03/02/2026 PM EST"
        );
        assert_eq!(inline(""), "");
        // A name without a text stays English.
        assert_eq!(
            localize_names(
                "Monday, May 4, 2026",
                DatePlacement::InSentence,
                |k: &str| { (k == "Date_Weekday_1").then(|| "lunes".to_owned()) }
            ),
            "lunes, May 4, 2026"
        );
    }

    #[test]
    fn short_names_take_their_short_labels() {
        let inline = |s: &str| localize_names(s, DatePlacement::InSentence, spanish);
        // 'EEE, MMM d, y' (a clinic's DocViewDateFormat).
        let t = to_local("2026-03-04T12:00:00Z", 0).unwrap();
        let formatted = format_with(&t, "EEE, MMM d, y", "");
        assert_eq!(formatted, "Wed, Mar 4, 2026");
        assert_eq!(inline(&formatted), "mié, mar 4, 2026");
        assert_eq!(inline("Thu Sep 3"), "jue sept 3");
        // "May" is its own abbreviation: the full name's label.
        assert_eq!(inline("May 4"), "mayo 4");
        // Every short name format_with writes has a key of its own.
        for (i, m) in MONTHS.iter().enumerate() {
            let key = if *m == "May" {
                "Date_Month_5".to_owned()
            } else {
                format!("Date_MonthShort_{}", i + 1)
            };
            assert_eq!(date_name_key(&m[..3]).as_deref(), Some(key.as_str()));
        }
        for day in 0..7 {
            let t = LocalDateTime::from_instant((3 + day) * 86_400, 0); // 1970-01-04 was a Sunday
            let short = format_with(&t, "EEE", "");
            assert_eq!(
                date_name_key(&short),
                Some(format!("Date_WeekdayShort_{day}")),
                "{short}"
            );
        }
    }

    #[test]
    fn a_standalone_date_that_starts_with_a_name_starts_with_a_capital() {
        let standalone = |s: &str| localize_names(s, DatePlacement::Standalone, spanish);
        assert_eq!(
            standalone("Wednesday, March 4, 2026"),
            "Miércoles, marzo 4, 2026"
        );
        assert_eq!(standalone("Wed, Mar 4, 2026"), "Mié, mar 4, 2026");
        assert_eq!(standalone("March 4, 2026"), "Marzo 4, 2026");
        // Only the first name, and only when it is first.
        assert_eq!(standalone("4 March 2026"), "4 marzo 2026");
        assert_eq!(standalone("03/04/2026"), "03/04/2026");
        // In a sentence the label's case stays.
        assert_eq!(
            localize_names(
                "Wednesday, March 4, 2026",
                DatePlacement::InSentence,
                spanish
            ),
            "miércoles, marzo 4, 2026"
        );
        // An English word that is not translated is left as written.
        assert_eq!(
            localize_names("Wednesday", DatePlacement::Standalone, |_: &str| None),
            "Wednesday"
        );
        // Scripts without case (Chinese) are unchanged; Vietnamese takes a capital.
        assert_eq!(
            localize_names("March 4", DatePlacement::Standalone, |_: &str| Some(
                "三月".to_owned()
            )),
            "三月 4"
        );
        assert_eq!(
            localize_names("Mar 4", DatePlacement::Standalone, |_: &str| Some(
                "thg 3".to_owned()
            )),
            "Thg 3 4"
        );
    }

    #[test]
    fn long_appointment_has_weekday_date_time_and_zone_or_only_the_day() {
        assert_eq!(
            format_appointment_long(T, false, -300, "EST"),
            "Monday, March 2, 2026 02:05 PM EST"
        );
        assert_eq!(
            format_appointment_long(T, true, -300, "EST"),
            "Monday, March 2, 2026"
        );
        // 11:59 PM local stands for the whole day.
        assert_eq!(
            format_appointment_long("2026-03-03T04:59:00Z", false, -300, "EST"),
            "Monday, March 2, 2026"
        );
        assert_eq!(format_appointment_long("nonsense", false, 0, ""), "");
    }
    const EST: i32 = -300;

    fn f(iso: &str, format: DateFormat, offset: i32) -> String {
        format_date(iso, format, offset, "EST")
    }

    #[test]
    fn civil_days_round_trip_over_four_centuries() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        for days in (-800_000..800_000).step_by(7) {
            let (y, m, d) = civil_from_days(days);
            assert!(d >= 1 && d <= days_in_month(y, m));
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(
            WEEKDAYS[weekday_from_days(days_from_civil(2026, 3, 2))],
            "Monday"
        );
    }

    #[test]
    fn names_are_the_wire_names() {
        for format in DateFormat::ALL {
            assert_eq!(serde_json::to_value(format).unwrap(), format.name());
        }
    }

    #[test]
    fn every_named_format() {
        assert_eq!(f(T, DateFormat::LongDate, EST), "Monday, March 2, 2026");
        assert_eq!(
            f(T, DateFormat::LogDateTime, EST),
            "03/02/2026, 02:05:09 PM"
        );
        assert_eq!(f(T, DateFormat::TableDate, EST), "03/02/2026");
        assert_eq!(f(T, DateFormat::TableDateTime, EST), "03/02/2026 02:05 PM");
        assert_eq!(f(T, DateFormat::SDate, EST), "03/02/2026");
        assert_eq!(f(T, DateFormat::SiteUsageQuery, EST), "02/03/2026");
        assert_eq!(
            f(T, DateFormat::IamHere, EST),
            "Monday, March 2, 2026 02:05 PM EST"
        );
        assert_eq!(
            format_date(T, DateFormat::IamHere, 0, ""),
            "Monday, March 2, 2026 07:05 PM"
        );
    }

    #[test]
    fn parses_fractions_offsets_and_plain_dates() {
        let base = parse_iso(T);
        assert!(base.is_some());
        assert_eq!(parse_iso("2026-03-02T19:05:09.123456Z"), base);
        assert_eq!(parse_iso("2026-03-02T14:05:09-05:00"), base);
        assert_eq!(parse_iso("2026-03-03T00:35:09+0530"), base);
        assert_eq!(parse_iso("2026-03-02 19:05:09"), base);
        // A plain date ignores the viewer's offset.
        assert_eq!(f("1980-07-04", DateFormat::SDate, -600), "07/04/1980");
        for bad in [
            "",
            "2026-02-29",
            "2026-13-01",
            "2026-03-02T24:00:00Z",
            "2026-03-02T19:05:09+19:00",
            "2026-03-02T19:05:09.Z",
            "2026-3-2",
            "２026-03-02",
            "2026-03-02T19:05:09Zjunk",
        ] {
            assert_eq!(parse_iso(bad), None, "{bad}");
        }
        assert_eq!(f(T, DateFormat::SDate, 18 * 60 + 1), "");
    }

    #[test]
    fn offsets_cross_days_and_years() {
        assert_eq!(
            f("2026-01-01T03:00:00Z", DateFormat::LogDateTime, EST),
            "12/31/2025, 10:00:00 PM"
        );
        assert_eq!(
            f("2025-12-31T20:00:00Z", DateFormat::LogDateTime, 600),
            "01/01/2026, 06:00:00 AM"
        );
        assert_eq!(
            f("2024-02-29T12:00:00Z", DateFormat::LongDate, 0),
            "Thursday, February 29, 2024"
        );
        assert_eq!(
            f("2024-03-01T02:00:00Z", DateFormat::SDate, EST),
            "02/29/2024"
        );
        assert_eq!(
            f("2100-03-01T02:00:00Z", DateFormat::SDate, EST),
            "02/28/2100"
        );
    }

    #[test]
    fn midnight_and_noon_in_twelve_hours() {
        assert_eq!(
            f("2026-03-02T00:00:00Z", DateFormat::LogDateTime, 0),
            "03/02/2026, 12:00:00 AM"
        );
        assert_eq!(
            f("2026-03-02T12:00:00Z", DateFormat::LogDateTime, 0),
            "03/02/2026, 12:00:00 PM"
        );
        assert_eq!(
            f("2026-03-02T11:59:59Z", DateFormat::LogDateTime, 0),
            "03/02/2026, 11:59:59 AM"
        );
        assert_eq!(
            f("2026-03-02T13:00:00Z", DateFormat::TableDateTime, 0),
            "03/02/2026 01:00 PM"
        );
    }

    #[test]
    fn appointments_hide_the_whole_day_time() {
        assert_eq!(format_appointment(T, false, EST), "03/02/2026 02:05 PM");
        assert_eq!(format_appointment(T, true, EST), "03/02/2026");
        assert_eq!(
            format_appointment("2026-03-03T04:59:00Z", false, EST),
            "03/02/2026"
        );
        assert_eq!(
            format_appointment("2026-03-02T23:58:00Z", false, 0),
            "03/02/2026 11:58 PM"
        );
        assert_eq!(format_appointment("nonsense", false, 0), "");
        assert_eq!(appointment_header(true), "Appointment Date");
        assert_eq!(appointment_header(false), "Appointment Date / Time");
    }

    // The former format_with (a buffer per token), kept as the oracle for the faster one.
    fn reference_two(n: u32) -> String {
        format!("{n:02}")
    }

    /// Formats `t` with a pattern of letter runs; quoted text ('at') and other characters are copied.
    /// Tokens: y (year), YY/yy (2 digits), YYYY/yyyy; M, MM, MMM, MMMM; d/D, dd/DD; EEE, EEEE (or
    /// ddd, dddd); h, hh (12-hour), H, HH; m, mm; s, ss; a, aa, A (AM/PM); z (zone abbreviation).
    /// Both the moment (DD, YYYY) and Angular (dd, y) spellings of the spec's patterns are accepted.
    fn reference_format_with(t: &LocalDateTime, pattern: &str, zone_abbr: &str) -> String {
        let chars: Vec<char> = pattern.chars().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '\'' {
                // Quoted literal; '' is a quote.
                let mut j = i + 1;
                while j < chars.len() && chars[j] != '\'' {
                    out.push(chars[j]);
                    j += 1;
                }
                if j == i + 1 && j < chars.len() {
                    out.push('\'');
                }
                i = j + 1;
                continue;
            }
            let mut run = 1;
            while i + run < chars.len() && chars[i + run] == c {
                run += 1;
            }
            let hour12 = match t.hour % 12 {
                0 => 12,
                h => h,
            };
            let weekday = WEEKDAYS[weekday_from_days(t.days())];
            let month_name = MONTHS.get(t.month as usize - 1).copied().unwrap_or("");
            let text = match (c, run) {
                ('y' | 'Y', 2) => reference_two(t.year.rem_euclid(100) as u32),
                ('y' | 'Y', 1) => t.year.to_string(),
                ('y' | 'Y', _) => format!("{:04}", t.year),
                ('M', 1) => t.month.to_string(),
                ('M', 2) => reference_two(t.month),
                ('M', 3) => month_name.chars().take(3).collect(),
                ('M', _) => month_name.to_owned(),
                ('d' | 'D', 1) => t.day.to_string(),
                ('d' | 'D', 2) => reference_two(t.day),
                ('E', 1..=3) | ('d', 3) => weekday.chars().take(3).collect(),
                ('E', _) | ('d', _) => weekday.to_owned(),
                ('h', 1) => hour12.to_string(),
                ('h', _) => reference_two(hour12),
                ('H', 1) => t.hour.to_string(),
                ('H', _) => reference_two(t.hour),
                ('m', 1) => t.minute.to_string(),
                ('m', _) => reference_two(t.minute),
                ('s', 1) => t.second.to_string(),
                ('s', _) => reference_two(t.second),
                ('a' | 'A', _) => (if t.hour < 12 { "AM" } else { "PM" }).to_owned(),
                ('z', _) => zone_abbr.to_owned(),
                _ => chars[i..i + run].iter().collect(),
            };
            out.push_str(&text);
            i += run;
        }
        // An empty zone abbreviation must not leave a trailing space.
        out.truncate(out.trim_end().len());
        out
    }

    #[test]
    fn format_with_matches_the_former_writer_on_generated_patterns() {
        // A small deterministic generator: patterns of tokens, literals, quotes and non-ASCII.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let alphabet: Vec<char> = "yYMdDEhHmsaAz' ,:/-.Tx\u{e9}\u{65e5}".chars().collect();
        let instants = [
            0i64,
            951_782_400,
            1_772_478_309,
            -62_167_219_200,
            -62_198_755_200,
            253_402_300_799,
            253_402_300_800,
            -1,
        ];
        for round in 0..4000 {
            let len = next(14) as usize;
            let pattern: String = (0..len)
                .map(|_| alphabet[next(alphabet.len() as u64) as usize])
                .collect();
            let seconds = instants[round % instants.len()] + next(86_400 * 400) as i64;
            let t = LocalDateTime::from_instant(seconds, 0);
            for zone in ["", "EST"] {
                assert_eq!(
                    format_with(&t, &pattern, zone),
                    reference_format_with(&t, &pattern, zone),
                    "pattern {pattern:?} at {t:?}"
                );
            }
        }
        for format in DateFormat::ALL {
            let t = LocalDateTime::from_instant(1_772_478_309, -300);
            assert_eq!(
                format_with(&t, format.pattern(), "EST"),
                reference_format_with(&t, format.pattern(), "EST")
            );
        }
    }

    #[test]
    fn format_instant_is_format_date_of_the_iso_text() {
        // Instants spread over years 1 to 9999 (where the ISO text reads back), with the edges.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut instants = vec![0, -1, 999, 1000, -62_135_596_800_000, 253_402_300_799_999];
        for _ in 0..3000 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            instants.push(-62_135_596_800_000 + (x >> 11) as i64 % 315_537_897_600_000);
        }
        for (i, ms) in instants.into_iter().enumerate() {
            let offset = [0, -300, 330, 840, -720, 1441, -1441][i % 7];
            for format in DateFormat::ALL {
                assert_eq!(
                    format_instant(ms, format, offset, "EST"),
                    format_date(&iso_utc_ms(ms), format, offset, "EST"),
                    "{ms} {offset} {format:?}"
                );
            }
        }
    }

    #[test]
    fn iso_utc_ms_matches_its_pattern() {
        for ms in [
            0,
            -1,
            1_772_478_309_123,
            -62_198_755_200_000,
            253_402_300_800_000,
            86_399_999,
        ] {
            let t = LocalDateTime::from_instant(i64::div_euclid(ms, 1000), 0);
            assert_eq!(
                iso_utc_ms(ms),
                reference_format_with(&t, "yyyy-MM-dd'T'HH:mm:ss'Z'", "")
            );
        }
        assert_eq!(iso_utc_ms(1_772_478_309_123), "2026-03-02T19:05:09Z");
    }

    #[test]
    fn pattern_tokens_and_literals() {
        let t = LocalDateTime {
            year: 2026,
            month: 3,
            day: 2,
            hour: 9,
            minute: 5,
            second: 7,
        };
        assert_eq!(
            format_with(&t, "'On' EEE, MMM d yy H:m:s HH", ""),
            "On Mon, Mar 2 26 9:5:7 09"
        );
        assert_eq!(
            format_with(&t, "yyyy-MM-dd'T'HH:mm", ""),
            "2026-03-02T09:05"
        );
    }
}
