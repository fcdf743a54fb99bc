//! A small XML reader for survey definitions: elements, attributes, text, comments, CDATA and the
//! `<?xml ...?>` declaration. Deliberately refused: DTDs (`<!DOCTYPE`, `<!ENTITY`), any entity
//! other than the five predefined ones and numeric character references (so no external or
//! expanding entities), other processing instructions. Capped: input size, nesting depth, element
//! and attribute counts. Errors carry the 1-based line where they were found. Never panics: every
//! index is checked and slices are cut only at ASCII delimiters (always char boundaries).

/// Largest definition accepted, in bytes.
pub const MAX_BYTES: usize = 512 * 1024;
/// Deepest element nesting accepted.
pub const MAX_DEPTH: usize = 16;
/// Most elements in one document.
pub const MAX_ELEMENTS: usize = 20_000;
/// Most attributes on one element.
pub const MAX_ATTRIBUTES: usize = 32;

#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Node>,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Element(Element),
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XmlError {
    pub line: u32,
    pub message: String,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// The element's own text (children's text left out), trimmed.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for n in &self.children {
            if let Node::Text(t) = n {
                out.push_str(t);
            }
        }
        out.trim().to_owned()
    }
}

struct Reader<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: u32,
}

fn err<T>(line: u32, message: impl Into<String>) -> Result<T, XmlError> {
    Err(XmlError {
        line,
        message: message.into(),
    })
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b':'
}

fn is_name_char(b: u8) -> bool {
    is_name_start(b) || b.is_ascii_digit() || b == b'-' || b == b'.'
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn starts_with(&self, s: &str) -> bool {
        self.bytes
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(s.as_bytes()))
    }

    /// Moves past `n` bytes, counting newlines.
    fn advance(&mut self, n: usize) {
        let end = (self.pos + n).min(self.bytes.len());
        for &b in &self.bytes[self.pos..end] {
            if b == b'\n' {
                self.line += 1;
            }
        }
        self.pos = end;
    }

    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            if b.is_ascii_whitespace() {
                self.advance(1);
            } else {
                break;
            }
        }
    }

    /// Position of `needle` at or after the cursor.
    /// A byte loop rather than `str::find`, whose searcher weighs ~1.5 KB of wasm.
    fn find(&self, needle: &str) -> Option<usize> {
        let n = needle.as_bytes();
        (self.pos..self.bytes.len()).find(|&i| self.bytes[i..].starts_with(n))
    }

    fn name(&mut self) -> Result<String, XmlError> {
        let start = self.pos;
        match self.peek() {
            Some(b) if is_name_start(b) => self.advance(1),
            _ => return err(self.line, "expected a name"),
        }
        while self.peek().is_some_and(is_name_char) {
            self.advance(1);
        }
        Ok(self.src[start..self.pos].to_owned())
    }

    /// Skips a comment, CDATA is returned as text; refuses DTDs and other `<!` markup.
    fn bang(&mut self) -> Result<Option<String>, XmlError> {
        if self.starts_with("<!--") {
            let Some(end) = self.find("-->") else {
                return err(self.line, "unterminated comment");
            };
            let n = end + 3 - self.pos;
            self.advance(n);
            Ok(None)
        } else if self.starts_with("<![CDATA[") {
            self.advance(9);
            let Some(end) = self.find("]]>") else {
                return err(self.line, "unterminated CDATA section");
            };
            let text = self.src[self.pos..end].to_owned();
            let n = end + 3 - self.pos;
            self.advance(n);
            Ok(Some(text))
        } else if self.starts_with("<!DOCTYPE") || self.starts_with("<!ENTITY") {
            err(self.line, "DTDs and entity declarations are not allowed")
        } else {
            err(self.line, "unsupported markup declaration")
        }
    }

    fn pi(&mut self, at_start: bool) -> Result<(), XmlError> {
        let line = self.line;
        if !(at_start
            && self.starts_with("<?xml")
            && self
                .bytes
                .get(self.pos + 5)
                .is_some_and(|b| b.is_ascii_whitespace() || *b == b'?'))
        {
            return err(line, "processing instructions are not allowed");
        }
        let Some(end) = self.find("?>") else {
            return err(line, "unterminated XML declaration");
        };
        let n = end + 2 - self.pos;
        self.advance(n);
        Ok(())
    }

    /// Text up to the next `<` (or `stop` for attribute values), with references decoded.
    fn chars(&mut self, stop: u8) -> Result<String, XmlError> {
        let mut out = String::new();
        loop {
            let start = self.pos;
            while let Some(b) = self.peek() {
                if b == stop || b == b'&' || (stop != b'<' && b == b'<') {
                    break;
                }
                self.advance(1);
            }
            out.push_str(&self.src[start..self.pos]);
            match self.peek() {
                Some(b'&') => out.push(self.reference()?),
                Some(b'<') if stop != b'<' => {
                    return err(self.line, "'<' is not allowed in an attribute value")
                }
                _ => return Ok(out),
            }
        }
    }

    fn reference(&mut self) -> Result<char, XmlError> {
        let line = self.line;
        let rest = self.src.get(self.pos..).unwrap_or("");
        let head = &rest.as_bytes()[..rest.len().min(12)];
        let Some(semi) = head.iter().position(|b| *b == b';') else {
            return err(line, "'&' must start a character reference such as &amp;");
        };
        let name = &rest[1..semi];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => {
                let num = if let Some(hex) =
                    name.strip_prefix("#x").or_else(|| name.strip_prefix("#X"))
                {
                    u32::from_str_radix(hex, 16).ok()
                } else if let Some(dec) = name.strip_prefix('#') {
                    dec.parse::<u32>().ok()
                } else {
                    return err(
                        line,
                        format!(
                            "unknown entity '&{name};' (only the predefined entities are allowed)"
                        ),
                    );
                };
                num.and_then(char::from_u32).filter(|c| *c != '\0')
            }
        };
        match c {
            Some(c) => {
                self.advance(semi + 1);
                Ok(c)
            }
            None => err(line, format!("invalid character reference '&{name};'")),
        }
    }

    fn attribute_value(&mut self) -> Result<String, XmlError> {
        let quote = match self.peek() {
            Some(q @ (b'"' | b'\'')) => q,
            _ => return err(self.line, "attribute value must be quoted"),
        };
        self.advance(1);
        let value = self.chars(quote)?;
        if self.peek() != Some(quote) {
            return err(self.line, "unterminated attribute value");
        }
        self.advance(1);
        Ok(value)
    }
}

/// Parses a whole document and returns its root element.
pub fn parse(src: &str) -> Result<Element, XmlError> {
    parse_with_limits(src, MAX_BYTES, MAX_ELEMENTS)
}

/// `parse` with other size caps (the label import's XLIFF files: 1 MB, 10000 rows).
pub fn parse_with_limits(
    src: &str,
    max_bytes: usize,
    max_elements: usize,
) -> Result<Element, XmlError> {
    if src.len() > max_bytes {
        return err(
            1,
            format!("the file is larger than {} KB", max_bytes / 1024),
        );
    }
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let mut r = Reader {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        line: 1,
    };
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    let mut elements = 0usize;
    let mut first = true;
    loop {
        if stack.is_empty() {
            r.skip_space();
        }
        let at_start = first;
        first = false;
        let Some(b) = r.peek() else { break };
        if b != b'<' {
            let line = r.line;
            let text = r.chars(b'<')?;
            match stack.last_mut() {
                Some(parent) => parent.children.push(Node::Text(text)),
                None => return err(line, "text outside the root element"),
            }
            continue;
        }
        if r.starts_with("<!") {
            let line = r.line;
            if let Some(text) = r.bang()? {
                match stack.last_mut() {
                    Some(parent) => parent.children.push(Node::Text(text)),
                    None => return err(line, "text outside the root element"),
                }
            }
            continue;
        }
        if r.starts_with("<?") {
            r.pi(at_start)?;
            continue;
        }
        if r.starts_with("</") {
            let line = r.line;
            r.advance(2);
            let name = r.name()?;
            r.skip_space();
            if r.peek() != Some(b'>') {
                return err(r.line, "expected '>'");
            }
            r.advance(1);
            let Some(done) = stack.pop() else {
                return err(line, format!("unexpected closing tag </{name}>"));
            };
            if done.name != name {
                return err(
                    line,
                    format!(
                        "closing tag </{name}> does not match <{}> opened on line {}",
                        done.name, done.line
                    ),
                );
            }
            match stack.last_mut() {
                Some(parent) => parent.children.push(Node::Element(done)),
                None => root = Some(done),
            }
            continue;
        }
        // Start tag.
        let line = r.line;
        if root.is_some() {
            return err(line, "more than one root element");
        }
        r.advance(1);
        let name = r.name()?;
        elements += 1;
        if elements > max_elements {
            return err(line, format!("more than {max_elements} elements"));
        }
        if stack.len() >= MAX_DEPTH {
            return err(
                line,
                format!("elements nested deeper than {MAX_DEPTH} levels"),
            );
        }
        let mut el = Element {
            name,
            attrs: Vec::new(),
            children: Vec::new(),
            line,
        };
        let self_closing = loop {
            let had_space = r.peek().is_some_and(|b| b.is_ascii_whitespace());
            r.skip_space();
            match r.peek() {
                Some(b'>') => {
                    r.advance(1);
                    break false;
                }
                Some(b'/') => {
                    r.advance(1);
                    if r.peek() != Some(b'>') {
                        return err(r.line, "expected '>' after '/'");
                    }
                    r.advance(1);
                    break true;
                }
                None => return err(r.line, format!("unterminated tag <{}>", el.name)),
                Some(_) => {
                    if !had_space {
                        return err(r.line, "expected whitespace between attributes");
                    }
                    let attr_line = r.line;
                    let key = r.name()?;
                    r.skip_space();
                    if r.peek() != Some(b'=') {
                        return err(r.line, format!("attribute '{key}' has no value"));
                    }
                    r.advance(1);
                    r.skip_space();
                    let value = r.attribute_value()?;
                    if el.attr(&key).is_some() {
                        return err(attr_line, format!("attribute '{key}' appears twice"));
                    }
                    if el.attrs.len() >= MAX_ATTRIBUTES {
                        return err(attr_line, format!("more than {MAX_ATTRIBUTES} attributes"));
                    }
                    el.attrs.push((key, value));
                }
            }
        };
        if self_closing {
            match stack.last_mut() {
                Some(parent) => parent.children.push(Node::Element(el)),
                None => root = Some(el),
            }
        } else {
            stack.push(el);
        }
    }
    if let Some(open) = stack.last() {
        return err(
            r.line,
            format!(
                "<{}> opened on line {} is never closed",
                open.name, open.line
            ),
        );
    }
    match root {
        Some(root) => Ok(root),
        None => err(r.line, "the document has no root element"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_elements_attributes_and_text() {
        let doc = parse("<?xml version=\"1.0\"?>\n<a x='1' y=\"&lt;2&#x41;\">\n <!-- c -->hi &amp; <b/><![CDATA[<raw>]]></a>").unwrap();
        assert_eq!(doc.name, "a");
        assert_eq!(doc.attr("y"), Some("<2A"));
        assert_eq!(doc.elements().count(), 1);
        assert_eq!(doc.text(), "hi & <raw>");
    }

    #[test]
    fn refuses_dtds_and_entities_with_lines() {
        let e = parse("<?xml version=\"1.0\"?>\n<!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<a>&x;</a>").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("DTD"));
        let e = parse("<a>\n\n&x;</a>").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("entity"));
    }

    #[test]
    fn caps_depth_and_reports_mismatches() {
        let deep = "<a>".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).unwrap_err().message.contains("deeper"));
        let e = parse("<a>\n<b>\n</a>").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(parse(&"x".repeat(MAX_BYTES + 1)).is_err());
        assert!(parse("<a/><b/>").is_err());
        assert!(parse("<?php x ?><a/>").is_err());
    }
}
