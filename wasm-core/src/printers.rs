//! PDF printers (spec 03 §2 pdf-printers): which CUPS queues staff may print letters to. The
//! names follow CUPS's own rule for a queue name, so a name the page accepts is one CUPS could
//! hold, and nothing a browser sends can reach the print server's address as a path.

/// The page's text when no printer is enabled (spec 03 §2, exactly).
pub const NO_PRINTERS_ENABLED: &str = "There no printers enabled.";
/// A name CUPS would refuse (its own rule: 1-127 printable characters, no space, tab, '/',
/// '\\', quote, apostrophe or '#').
pub const BAD_PRINTER_NAME: &str =
    "A printer name is 1 to 127 characters without spaces, '/', '\\', quotes or '#'";
pub const DUPLICATE_PRINTER: &str = "This printer is already enabled";
/// At most this many enabled printers (a clinic has a handful; the bound keeps a save small).
pub const MAX_ENABLED_PRINTERS: usize = 100;
pub const TOO_MANY_PRINTERS: &str = "At most 100 printers can be enabled";
/// The print server when none is set: the local cupsd.
pub const DEFAULT_PRINT_SERVER: &str = "http://localhost:631";

/// Whether `name` is a queue name CUPS accepts.
pub fn is_printer_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=127).contains(&n)
        && name
            .chars()
            .all(|c| !c.is_control() && !matches!(c, ' ' | '/' | '\\' | '"' | '\'' | '#'))
}

/// The print server's base address (no trailing slash) from the setting: `host[:port]`,
/// `http://`, or `ipp://` (IPP over HTTP on port 631 unless one is given); None when it is not
/// an address.
pub fn print_server_base(setting: &str) -> Option<String> {
    let s = setting.trim().trim_end_matches('/');
    let s = if s.is_empty() {
        DEFAULT_PRINT_SERVER
    } else {
        s
    };
    let (scheme, rest) = match s.split_once("://") {
        Some(("http", rest)) | Some(("ipp", rest)) => ("http", rest),
        Some(("https", rest)) | Some(("ipps", rest)) => ("https", rest),
        Some(_) => return None,
        None => ("http", s),
    };
    if rest.is_empty()
        || rest.contains(['/', '?', '#', '@', ' '])
        || rest.chars().any(|c| c.is_control())
    {
        return None;
    }
    let host_has_port = match rest.rsplit_once(':') {
        Some((host, port)) if !rest.ends_with(']') => {
            if host.is_empty() || port.is_empty() || port.parse::<u16>().is_err() {
                return None;
            }
            true
        }
        _ => false,
    };
    let port = if host_has_port { "" } else { ":631" };
    Some(format!("{scheme}://{rest}{port}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_printer_name("Front_Desk"));
        assert!(is_printer_name("Röntgen-2"));
        assert!(!is_printer_name(""));
        assert!(!is_printer_name("a b"));
        assert!(!is_printer_name("../x"));
        assert!(!is_printer_name("a#b"));
        assert!(!is_printer_name(&"p".repeat(128)));
        assert!(is_printer_name(&"p".repeat(127)));
    }

    #[test]
    fn servers() {
        assert_eq!(print_server_base("").unwrap(), "http://localhost:631");
        assert_eq!(
            print_server_base("127.0.0.1:6310").unwrap(),
            "http://127.0.0.1:6310"
        );
        assert_eq!(
            print_server_base("ipp://print.clinic").unwrap(),
            "http://print.clinic:631"
        );
        assert_eq!(
            print_server_base("https://p:443/").unwrap(),
            "https://p:443"
        );
        assert!(print_server_base("ftp://x").is_none());
        assert!(print_server_base("http://x/admin").is_none());
        assert!(print_server_base("http://u@x").is_none());
        assert!(print_server_base("http://x:99999").is_none());
    }
}
