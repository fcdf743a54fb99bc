//! DocumentsPdfPrinters (spec 03 §2 pdf-printers): the CUPS queues staff may print letters to,
//! and the print server they live on (default the local cupsd). The enabled list is saved by
//! PUT /api/printers; both fields by the settings form too.

use super::checks::*;
use super::SettingsGroup;
use crate::printers::{
    is_printer_name, print_server_base, BAD_PRINTER_NAME, DEFAULT_PRINT_SERVER, DUPLICATE_PRINTER,
    MAX_ENABLED_PRINTERS, TOO_MANY_PRINTERS,
};
use crate::ValidationErrors;

crate::settings_struct! {
    pub struct DocumentsPdfPrinters {
        /// The CUPS server: host[:port], http:// or ipp:// (port 631 unless given).
        "PrintServer" print_server: String,
        /// CUPS queue names, in the order the page lists them.
        "EnabledPrinters" enabled_printers: Vec<String>,
    }
}

impl Default for DocumentsPdfPrinters {
    fn default() -> Self {
        DocumentsPdfPrinters {
            print_server: DEFAULT_PRINT_SERVER.into(),
            enabled_printers: Vec::new(),
        }
    }
}

impl SettingsGroup for DocumentsPdfPrinters {
    const NAME: &'static str = "DocumentsPdfPrinters";

    fn validate(&self) -> ValidationErrors {
        let mut e = ValidationErrors::new();
        if text(&mut e, "PrintServer", &self.print_server, 200)
            && print_server_base(&self.print_server).is_none()
        {
            e.add(
                "PrintServer",
                "Enter the print server as host:port, http://host:port or ipp://host:port",
            );
        }
        if self.enabled_printers.len() > MAX_ENABLED_PRINTERS {
            e.add("EnabledPrinters", TOO_MANY_PRINTERS);
        }
        for (i, name) in self.enabled_printers.iter().enumerate() {
            let field = format!("EnabledPrinters.{i}");
            if !is_printer_name(name) {
                e.add(&field, BAD_PRINTER_NAME);
            } else if self.enabled_printers[..i].contains(name) {
                e.add(&field, DUPLICATE_PRINTER);
            }
        }
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_server_are_checked() {
        let g = DocumentsPdfPrinters {
            print_server: "ftp://x".into(),
            enabled_printers: vec!["A".into(), "A".into(), "b c".into()],
        };
        let e = g.validate();
        assert_eq!(e.field("EnabledPrinters.1"), [DUPLICATE_PRINTER]);
        assert_eq!(e.field("EnabledPrinters.2"), [BAD_PRINTER_NAME]);
        assert_eq!(e.field("PrintServer").len(), 1);
        assert!(DocumentsPdfPrinters::default().validate().is_valid());
    }
}
