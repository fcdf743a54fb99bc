//! From the XML tree to a checked `SurveyDefinition` (format in README.md beside this file).
//! Every problem is reported with its line; a definition with any error is refused whole.

use std::collections::BTreeMap;

use super::xml::{self, Element};
use super::{parse_fixed, valid_date, LANGUAGES};
use crate::model::{
    ChoiceOption, EnableBehavior, EnableWhen, Operator, QuestionKind, SurveyDefinition,
    SurveyError, SurveyPage, SurveyParse, SurveyQuestion, Texts,
};

/// Most answerable questions in one survey.
pub const MAX_QUESTIONS: usize = 1000;
/// Default and largest `max-length` of a text answer.
pub const DEFAULT_MAX_LENGTH: u32 = 2000;
/// Largest `max-rows` of a table.
pub const MAX_ROWS: u32 = 50;
/// Most decimals of a number question.
pub const MAX_DECIMALS: u32 = 4;

/// Uploaded libraries (survey admin): library id -> its answer lists (list id, options).
pub type LibrarySet = BTreeMap<String, LibraryLists>;
/// One library's answer lists: list id -> its options.
pub type LibraryLists = BTreeMap<String, Vec<ChoiceOption>>;

struct Ctx<'a> {
    errors: Vec<SurveyError>,
    /// Libraries a question may take its options from; `None`: none is known (every reference
    /// is missing).
    libs: Option<&'a LibrarySet>,
    /// Libraries referenced but not in `libs`, in order, once each (MissingLibs).
    missing_libs: Vec<String>,
    /// Questions seen so far, in document order: id, type, option values (for enableWhen).
    /// Vecs rather than maps keep the wasm small; a survey has at most MAX_QUESTIONS.
    seen: Vec<(String, QuestionKind, Vec<String>)>,
    storages: Vec<String>,
    count: usize,
}

impl Ctx<'_> {
    fn error(&mut self, line: u32, message: impl Into<String>) {
        // One bad file can hold thousands of mistakes; the first hundred are enough to fix it.
        if self.errors.len() < 100 {
            self.errors.push(SurveyError {
                line,
                message: message.into(),
            });
        }
    }
}

pub(crate) fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
}

fn is_storage(s: &str) -> bool {
    let mut parts = s.split('.');
    let ok = |p: Option<&str>| {
        p.is_some_and(|p| {
            !p.is_empty()
                && p.len() <= 63
                && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !p.as_bytes()[0].is_ascii_digit()
        })
    };
    ok(parts.next()) && ok(parts.next()) && parts.next().is_none()
}

fn parse_bool(ctx: &mut Ctx, el: &Element, name: &str) -> bool {
    match el.attr(name) {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            ctx.error(el.line, format!("{name}=\"{other}\" must be true or false"));
            false
        }
    }
}

fn parse_u32(ctx: &mut Ctx, el: &Element, name: &str, default: u32, max: u32) -> u32 {
    match el.attr(name) {
        None => default,
        Some(v) => match v.parse::<u32>() {
            Ok(n) if n <= max => n,
            _ => {
                ctx.error(
                    el.line,
                    format!("{name}=\"{v}\" must be a whole number from 0 to {max}"),
                );
                default
            }
        },
    }
}

/// Collects `<tag lang="..">` children into a Texts map; `lang` defaults to "en".
fn texts(ctx: &mut Ctx, el: &Element, tag: &str) -> Texts {
    let mut out = Texts::new();
    for child in el.elements().filter(|c| c.name == tag) {
        let lang = child.attr("lang").unwrap_or("en");
        if !LANGUAGES.contains(&lang) {
            ctx.error(
                child.line,
                format!("unknown language '{lang}' (use en, es, zh, km, vi or tl)"),
            );
            continue;
        }
        if out.insert(lang.to_owned(), child.text()).is_some() {
            ctx.error(
                child.line,
                format!("<{tag}> for language '{lang}' appears twice"),
            );
        }
    }
    out
}

fn require_english(ctx: &mut Ctx, el: &Element, texts: &Texts, tag: &str) {
    if !texts.contains_key("en") {
        ctx.error(
            el.line,
            format!(
                "<{}> needs an English <{tag}> (the fallback for every language)",
                el.name
            ),
        );
    }
}

fn yes_no_options() -> Vec<ChoiceOption> {
    let t = |words: [&str; 6]| {
        let mut texts = Texts::new();
        for (lang, word) in LANGUAGES.iter().zip(words) {
            texts.insert(lang.to_string(), word.to_string());
        }
        texts
    };
    vec![
        ChoiceOption {
            value: "yes".into(),
            text: t(["Yes", "Sí", "是", "បាទ/ចាស", "Có", "Oo"]),
        },
        ChoiceOption {
            value: "no".into(),
            text: t(["No", "No", "否", "ទេ", "Không", "Hindi"]),
        },
    ]
}

/// The question kind named in the XML `type` attribute (and in the JSON the server sends).
pub(crate) fn kind_of(name: &str) -> Option<QuestionKind> {
    Some(match name {
        "single" => QuestionKind::Single,
        "multiple" => QuestionKind::Multiple,
        "yesno" => QuestionKind::YesNo,
        "text" => QuestionKind::Text,
        "number" => QuestionKind::Number,
        "date" => QuestionKind::Date,
        "table" => QuestionKind::Table,
        "display" => QuestionKind::Display,
        _ => return None,
    })
}

fn operator_of(s: &str) -> Option<Operator> {
    Some(match s {
        "exists" => Operator::Exists,
        "=" => Operator::Eq,
        "!=" => Operator::Ne,
        ">" => Operator::Gt,
        "<" => Operator::Lt,
        ">=" => Operator::Ge,
        "<=" => Operator::Le,
        _ => return None,
    })
}

fn behavior(ctx: &mut Ctx, el: &Element) -> EnableBehavior {
    match el.attr("enable-behavior") {
        None | Some("all") => EnableBehavior::All,
        Some("any") => EnableBehavior::Any,
        Some(other) => {
            ctx.error(
                el.line,
                format!("enable-behavior=\"{other}\" must be all or any"),
            );
            EnableBehavior::All
        }
    }
}

/// `<enableWhen question=".." operator=".." answer=".."/>` children; each must point at an
/// earlier question, so the logic has no cycles and evaluates in one pass.
fn enable_when(ctx: &mut Ctx, el: &Element) -> Vec<EnableWhen> {
    let mut out = Vec::new();
    for c in el.elements().filter(|c| c.name == "enableWhen") {
        let question = c.attr("question").unwrap_or("");
        let Some((_, kind, values)) = ctx.seen.iter().find(|s| s.0 == question).cloned() else {
            ctx.error(
                c.line,
                format!("enableWhen refers to '{question}', which is not an earlier question"),
            );
            continue;
        };
        let Some(operator) = c.attr("operator").and_then(operator_of) else {
            ctx.error(
                c.line,
                "enableWhen operator must be one of exists, =, !=, >, <, >=, <=",
            );
            continue;
        };
        let answer = c.attr("answer").unwrap_or("").to_owned();
        let ok = match (operator, kind) {
            (_, QuestionKind::Table | QuestionKind::Display) if operator != Operator::Exists => {
                ctx.error(
                    c.line,
                    format!("'{question}' can only be tested with exists"),
                );
                true
            }
            (Operator::Exists, _) => answer == "true" || answer == "false",
            (
                Operator::Eq | Operator::Ne,
                QuestionKind::Single | QuestionKind::Multiple | QuestionKind::YesNo,
            ) => values.contains(&answer),
            (_, QuestionKind::Single | QuestionKind::Multiple | QuestionKind::YesNo) => {
                ctx.error(
                    c.line,
                    format!(
                        "a choice question ('{question}') can only be tested with exists, = or !="
                    ),
                );
                true
            }
            (_, QuestionKind::Number) => parse_fixed(&answer, MAX_DECIMALS).is_some(),
            (_, QuestionKind::Date) => valid_date(&answer),
            _ => true,
        };
        if !ok {
            ctx.error(
                c.line,
                format!("enableWhen answer '{answer}' does not fit question '{question}'"),
            );
            continue;
        }
        out.push(EnableWhen {
            question: question.to_owned(),
            operator,
            answer,
        });
    }
    out
}

fn options(ctx: &mut Ctx, el: &Element) -> Vec<ChoiceOption> {
    let mut out: Vec<ChoiceOption> = Vec::new();
    for o in el.elements().filter(|c| c.name == "option") {
        let value = o.attr("value").unwrap_or("");
        if !is_id(value) {
            ctx.error(
                o.line,
                format!("option value '{value}' must be 1-64 letters, digits, '_', '-' or '.'"),
            );
            continue;
        }
        if out.iter().any(|x| x.value == value) {
            ctx.error(o.line, format!("option value '{value}' appears twice"));
            continue;
        }
        let text = texts(ctx, o, "text");
        require_english(ctx, o, &text, "text");
        out.push(ChoiceOption {
            value: value.to_owned(),
            text,
        });
    }
    out
}

/// The options of a choice question that names a library list (`library="id" list="id"`).
/// A library not uploaded is no error: it is listed in MissingLibs and the survey cannot be run
/// until it is uploaded (its question has no options meanwhile).
fn library_options(ctx: &mut Ctx, el: &Element, id: &str) -> Vec<ChoiceOption> {
    let lib = el.attr("library").unwrap_or("");
    let list = el.attr("list").unwrap_or("");
    if el.elements().any(|c| c.name == "option") {
        ctx.error(
            el.line,
            format!("'{id}' takes its options from a library list or from <option>s, not both"),
        );
        return Vec::new();
    }
    if !is_id(lib) || !is_id(list) {
        ctx.error(
            el.line,
            format!("'{id}' needs library=\"..\" and list=\"..\" ids (1-64 letters, digits, '_', '-' or '.')"),
        );
        return Vec::new();
    }
    match ctx.libs.and_then(|l| l.get(lib)) {
        Some(lists) => match lists.get(list) {
            Some(options) => options.clone(),
            None => {
                ctx.error(el.line, format!("library '{lib}' has no list '{list}'"));
                Vec::new()
            }
        },
        None => {
            if !ctx.missing_libs.iter().any(|m| m == lib) {
                ctx.missing_libs.push(lib.to_owned());
            }
            Vec::new()
        }
    }
}

/// One `<question>` (or, with `column`, one `<column>` of a table).
fn question(ctx: &mut Ctx, el: &Element, column: bool) -> Option<SurveyQuestion> {
    let id = el.attr("id").unwrap_or("");
    if !is_id(id) {
        ctx.error(
            el.line,
            format!(
                "<{}> id '{id}' must be 1-64 letters, digits, '_', '-' or '.'",
                el.name
            ),
        );
        return None;
    }
    let type_name = el.attr("type").unwrap_or("");
    let Some(kind) = kind_of(type_name) else {
        ctx.error(el.line, format!("'{id}' has unknown type '{type_name}'"));
        return None;
    };
    if column
        && matches!(
            kind,
            QuestionKind::Table | QuestionKind::Display | QuestionKind::Multiple
        )
    {
        ctx.error(
            el.line,
            format!("a table column cannot be of type {type_name}"),
        );
        return None;
    }
    let text = texts(ctx, el, "text");
    require_english(ctx, el, &text, "text");
    let help = texts(ctx, el, "help");
    let required = parse_bool(ctx, el, "required");
    let storage = el.attr("storage").unwrap_or("").to_owned();
    let answerable = kind != QuestionKind::Display;
    if column || !answerable {
        if !storage.is_empty() {
            ctx.error(el.line, format!("'{id}' has no answer of its own to store"));
        }
    } else if !is_storage(&storage) {
        ctx.error(
            el.line,
            format!("'{id}' needs storage=\"table.column\" (got '{storage}')"),
        );
    } else if ctx.storages.contains(&storage) {
        ctx.error(
            el.line,
            format!("storage '{storage}' is used by two questions"),
        );
    } else {
        ctx.storages.push(storage.clone());
    }
    let decimals = parse_u32(ctx, el, "decimals", 0, MAX_DECIMALS);
    let max_length = parse_u32(
        ctx,
        el,
        "max-length",
        DEFAULT_MAX_LENGTH,
        DEFAULT_MAX_LENGTH,
    );
    let mut min = el.attr("min").map(str::to_owned);
    let mut max = el.attr("max").map(str::to_owned);
    match kind {
        QuestionKind::Number => {
            let lo = min.as_deref().map(|m| (m, parse_fixed(m, decimals)));
            let hi = max.as_deref().map(|m| (m, parse_fixed(m, decimals)));
            for (v, parsed) in [lo, hi].into_iter().flatten() {
                if parsed.is_none() {
                    ctx.error(
                        el.line,
                        format!(
                            "'{id}' bound '{v}' is not a number with at most {decimals} decimals"
                        ),
                    );
                }
            }
            if let (Some((_, Some(a))), Some((_, Some(b)))) = (lo, hi) {
                if a > b {
                    ctx.error(el.line, format!("'{id}' has min greater than max"));
                }
            }
        }
        QuestionKind::Date => {
            for v in [&min, &max].into_iter().flatten() {
                if !valid_date(v) {
                    ctx.error(
                        el.line,
                        format!("'{id}' bound '{v}' is not a date (YYYY-MM-DD)"),
                    );
                }
            }
            if let (Some(a), Some(b)) = (&min, &max) {
                if a > b {
                    ctx.error(el.line, format!("'{id}' has min later than max"));
                }
            }
        }
        _ => {
            if min.is_some() || max.is_some() {
                ctx.error(
                    el.line,
                    format!("'{id}' of type {type_name} cannot have min or max"),
                );
            }
            min = None;
            max = None;
        }
    }
    let options = match kind {
        QuestionKind::YesNo => yes_no_options(),
        QuestionKind::Single | QuestionKind::Multiple if el.attr("library").is_some() => {
            library_options(ctx, el, id)
        }
        QuestionKind::Single | QuestionKind::Multiple => {
            let o = options(ctx, el);
            if o.is_empty() {
                ctx.error(el.line, format!("'{id}' needs at least one <option>"));
            }
            o
        }
        _ => Vec::new(),
    };
    let (min_rows, max_rows, columns) = if kind == QuestionKind::Table {
        let min_rows = parse_u32(ctx, el, "min-rows", 0, MAX_ROWS);
        let max_rows = parse_u32(ctx, el, "max-rows", 10, MAX_ROWS);
        if min_rows > max_rows || max_rows == 0 {
            ctx.error(
                el.line,
                format!("'{id}' needs 1 <= min-rows <= max-rows <= {MAX_ROWS}"),
            );
        }
        let mut cols: Vec<SurveyQuestion> = Vec::new();
        for c in el.elements().filter(|c| c.name == "column") {
            if let Some(col) = question(ctx, c, true) {
                if cols.iter().any(|x| x.id == col.id) {
                    ctx.error(
                        c.line,
                        format!("column '{}' appears twice in '{id}'", col.id),
                    );
                } else {
                    cols.push(col);
                }
            }
        }
        if cols.is_empty() {
            ctx.error(el.line, format!("table '{id}' needs at least one <column>"));
        }
        (min_rows, max_rows, cols)
    } else {
        (0, 0, Vec::new())
    };
    for c in el.elements() {
        let known = matches!(c.name.as_str(), "text" | "help" | "enableWhen")
            || (c.name == "option"
                && matches!(kind, QuestionKind::Single | QuestionKind::Multiple))
            || (c.name == "column" && kind == QuestionKind::Table);
        if !known {
            ctx.error(c.line, format!("<{}> is not allowed in '{id}'", c.name));
        }
    }
    let (enable_when, enable_behavior) = if column {
        if el.elements().any(|c| c.name == "enableWhen") {
            ctx.error(el.line, "table columns cannot have enableWhen");
        }
        (Vec::new(), EnableBehavior::All)
    } else {
        (enable_when(ctx, el), behavior(ctx, el))
    };
    Some(SurveyQuestion {
        id: id.to_owned(),
        kind,
        text,
        help,
        required: required && answerable,
        storage: if column || !answerable {
            String::new()
        } else {
            storage
        },
        options,
        min,
        max,
        decimals,
        max_length,
        min_rows,
        max_rows,
        columns,
        enable_when,
        enable_behavior,
    })
}

/// A library file (survey admin, README.md "Libraries"): shared answer lists that choice
/// questions of any survey may use. `<library id>` holding `<list id>`s of `<option>`s.
pub fn parse_library(src: &str) -> Result<(String, LibraryLists), Vec<SurveyError>> {
    let root = xml::parse(src).map_err(|e| {
        vec![SurveyError {
            line: e.line,
            message: e.message,
        }]
    })?;
    let mut ctx = Ctx {
        errors: Vec::new(),
        libs: None,
        missing_libs: Vec::new(),
        seen: Vec::new(),
        storages: Vec::new(),
        count: 0,
    };
    if root.name != "library" {
        ctx.error(
            root.line,
            format!("the root element must be <library>, not <{}>", root.name),
        );
        return Err(ctx.errors);
    }
    let id = root.attr("id").unwrap_or("");
    if !is_id(id) {
        ctx.error(
            root.line,
            format!("library id '{id}' must be 1-64 letters, digits, '_', '-' or '.'"),
        );
    }
    let mut lists = BTreeMap::new();
    for el in root.elements() {
        if el.name != "list" {
            ctx.error(
                el.line,
                format!("<{}> is not allowed in <library>", el.name),
            );
            continue;
        }
        let list_id = el.attr("id").unwrap_or("");
        if !is_id(list_id) {
            ctx.error(
                el.line,
                format!("list id '{list_id}' must be 1-64 letters, digits, '_', '-' or '.'"),
            );
            continue;
        }
        if let Some(other) = el.elements().find(|c| c.name != "option") {
            ctx.error(
                other.line,
                format!("<{}> is not allowed in <list>", other.name),
            );
        }
        let opts = options(&mut ctx, el);
        if opts.is_empty() {
            ctx.error(
                el.line,
                format!("list '{list_id}' needs at least one <option>"),
            );
        }
        if lists.insert(list_id.to_owned(), opts).is_some() {
            ctx.error(el.line, format!("list id '{list_id}' appears twice"));
        }
    }
    if lists.is_empty() && ctx.errors.is_empty() {
        ctx.error(root.line, "a library needs at least one <list>");
    }
    if ctx.errors.is_empty() {
        Ok((id.to_owned(), lists))
    } else {
        Err(ctx.errors)
    }
}

/// Parses and checks a survey definition, with no library known (a question naming a library
/// list gets no options; see [`parse_survey_with`]).
pub fn parse_survey(src: &str) -> SurveyParse {
    parse_survey_with(src, None).0
}

/// Parses and checks a survey definition whose choice questions may take their options from the
/// uploaded libraries; also returns the libraries it names that are not in `libs` (MissingLibs).
/// A survey with missing libraries parses, but must not be run.
pub fn parse_survey_with(src: &str, libs: Option<&LibrarySet>) -> (SurveyParse, Vec<String>) {
    let mut missing = Vec::new();
    let parse = parse_inner(src, libs, &mut missing);
    (parse, missing)
}

fn parse_inner(src: &str, libs: Option<&LibrarySet>, missing: &mut Vec<String>) -> SurveyParse {
    let root = match xml::parse(src) {
        Ok(root) => root,
        Err(e) => {
            return SurveyParse {
                survey: None,
                errors: vec![SurveyError {
                    line: e.line,
                    message: e.message,
                }],
            };
        }
    };
    let mut ctx = Ctx {
        errors: Vec::new(),
        libs,
        missing_libs: Vec::new(),
        seen: Vec::new(),
        storages: Vec::new(),
        count: 0,
    };
    if root.name != "survey" {
        ctx.error(
            root.line,
            format!("the root element must be <survey>, not <{}>", root.name),
        );
        return SurveyParse {
            survey: None,
            errors: ctx.errors,
        };
    }
    let id = root.attr("id").unwrap_or("");
    if !is_id(id) {
        ctx.error(
            root.line,
            format!("survey id '{id}' must be 1-64 letters, digits, '_', '-' or '.'"),
        );
    }
    let name = texts(&mut ctx, &root, "name");
    require_english(&mut ctx, &root, &name, "name");
    let mut pages: Vec<SurveyPage> = Vec::new();
    let mut page_ids: Vec<String> = Vec::new();
    for el in root.elements() {
        match el.name.as_str() {
            "name" => {}
            "page" => {}
            other => {
                ctx.error(el.line, format!("<{other}> is not allowed in <survey>"));
                continue;
            }
        }
        if el.name != "page" {
            continue;
        }
        let page_id = el.attr("id").unwrap_or("");
        if !is_id(page_id) {
            ctx.error(
                el.line,
                format!("page id '{page_id}' must be 1-64 letters, digits, '_', '-' or '.'"),
            );
        } else if page_ids.iter().any(|p| p == page_id) {
            ctx.error(el.line, format!("page id '{page_id}' appears twice"));
        } else {
            page_ids.push(page_id.to_owned());
        }
        let title = texts(&mut ctx, el, "title");
        require_english(&mut ctx, el, &title, "title");
        let page_when = enable_when(&mut ctx, el);
        let page_behavior = behavior(&mut ctx, el);
        let mut questions = Vec::new();
        for q in el.elements() {
            match q.name.as_str() {
                "title" | "enableWhen" => continue,
                "question" => {}
                other => {
                    ctx.error(q.line, format!("<{other}> is not allowed in <page>"));
                    continue;
                }
            }
            let Some(question) = question(&mut ctx, q, false) else {
                continue;
            };
            if ctx.seen.iter().any(|s| s.0 == question.id) {
                ctx.error(
                    q.line,
                    format!("question id '{}' appears twice", question.id),
                );
                continue;
            }
            if question.kind != QuestionKind::Display {
                ctx.count += 1;
                if ctx.count > MAX_QUESTIONS {
                    ctx.error(q.line, format!("more than {MAX_QUESTIONS} questions"));
                    return SurveyParse {
                        survey: None,
                        errors: ctx.errors,
                    };
                }
            }
            let values = question.options.iter().map(|o| o.value.clone()).collect();
            ctx.seen.push((question.id.clone(), question.kind, values));
            questions.push(question);
        }
        pages.push(SurveyPage {
            id: page_id.to_owned(),
            title,
            enable_when: page_when,
            enable_behavior: page_behavior,
            questions,
        });
    }
    if pages.is_empty() {
        ctx.error(root.line, "a survey needs at least one <page>");
    }
    *missing = std::mem::take(&mut ctx.missing_libs);
    if !ctx.errors.is_empty() {
        return SurveyParse {
            survey: None,
            errors: ctx.errors,
        };
    }
    SurveyParse {
        survey: Some(SurveyDefinition {
            id: id.to_owned(),
            version: root.attr("version").unwrap_or("1").to_owned(),
            name,
            pages,
            question_count: ctx.count as u32,
        }),
        errors: Vec::new(),
    }
}
