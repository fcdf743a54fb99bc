//! The storage lookups of the techpad settings (spec 04 §7): which of the portal's tables a
//! comments row may be kept in (`StorageColumnsLookup`, StorageDictionary: tableName and columns
//! with columnName and fieldName) and which users-table column an alternate user identifier
//! names (`CheckForAvailableAlternateIdentifierColumns`). The API reads the real columns from the
//! database; these are the rules applied to them.

/// The portal tables a comment may be stored in (patient, study and appointment records; never
/// accounts, sessions or secrets).
pub const STORAGE_TABLES: &[&str] = &["patients", "studies", "appointments"];

/// The table whose columns can identify a user (UseAlternateUserIdentifier).
pub const USER_TABLE: &str = "users";

/// The alternate user identifiers looked for besides the configured AlternateUserIdentifierField.
pub const ALTERNATE_IDENTIFIER_CANDIDATES: &[&str] = &["EmployeeId", "Npi", "Ssn", "Email"];

/// Columns never offered (keys and bookkeeping, not data a comment can be kept in).
fn is_internal(column: &str) -> bool {
    column == "id" || column.ends_with("_hash") || column == "created_at" || column == "updated_at"
}

/// The field name of a stored column: 'first_name' -> 'FirstName', 'mrn' -> 'Mrn'.
pub fn field_name_of(column: &str) -> String {
    column
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// The columns of `table` offered to a comments row, in table order, with their field names.
pub fn storage_columns<S: AsRef<str>>(columns: &[S]) -> Vec<(String, String)> {
    columns
        .iter()
        .map(|c| c.as_ref())
        .filter(|c| !is_internal(c))
        .map(|c| (c.to_owned(), field_name_of(c)))
        .collect()
}

/// The column of `columns` that `candidate` names (compared without case and underscores:
/// 'EmployeeId' finds 'employee_id'); None when the table has none.
pub fn find_column<'a, S: AsRef<str>>(candidate: &str, columns: &'a [S]) -> Option<&'a str> {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = key(candidate);
    if wanted.is_empty() {
        return None;
    }
    columns
        .iter()
        .map(AsRef::as_ref)
        .find(|c| !is_internal(c) && key(c) == wanted)
}

/// The candidates a check looks for: the configured field (when set) and the usual ones, each
/// once.
pub fn alternate_identifier_candidates(configured: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in
        std::iter::once(configured.trim()).chain(ALTERNATE_IDENTIFIER_CANDIDATES.iter().copied())
    {
        if !c.is_empty() && !out.iter().any(|o| o.eq_ignore_ascii_case(c)) {
            out.push(c.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_are_pascal_case() {
        assert_eq!(field_name_of("first_name"), "FirstName");
        assert_eq!(field_name_of("mrn"), "Mrn");
        assert_eq!(field_name_of("loc__num_"), "LocNum");
        assert_eq!(field_name_of(""), "");
    }

    #[test]
    fn keys_and_bookkeeping_are_not_offered() {
        let cols = ["id", "mrn", "first_name", "password_hash", "created_at"];
        assert_eq!(
            storage_columns(&cols),
            [
                ("mrn".to_owned(), "Mrn".to_owned()),
                ("first_name".into(), "FirstName".into())
            ]
        );
    }

    #[test]
    fn candidates_find_columns_without_case_or_underscores() {
        let cols = [
            "id",
            "username",
            "email",
            "ssn",
            "employee_id",
            "password_hash",
        ];
        assert_eq!(find_column("EmployeeId", &cols), Some("employee_id"));
        assert_eq!(find_column("SSN", &cols), Some("ssn"));
        assert_eq!(find_column("Npi", &cols), None);
        assert_eq!(find_column("PasswordHash", &cols), None);
        assert_eq!(find_column(" ", &cols), None);
        assert_eq!(
            alternate_identifier_candidates("email"),
            ["email", "EmployeeId", "Npi", "Ssn"]
        );
        assert_eq!(alternate_identifier_candidates("").len(), 4);
    }
}
