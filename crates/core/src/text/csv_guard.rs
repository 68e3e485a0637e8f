//! Spreadsheet-safe CSV cells.
//!
//! A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is
//! run as a formula by spreadsheet programs (CSV injection). `export` writes
//! such a cell with a leading apostrophe, which spreadsheets show as text;
//! `import` removes it again. Cells that already start with apostrophes
//! before such a character get one more, so the round trip is exact.

use std::borrow::Cow;

/// The characters that make a spreadsheet read a cell as a formula.
pub const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Whether a cell, after any leading apostrophes, starts like a formula.
fn formula_like(cell: &str) -> bool {
    cell.trim_start_matches('\'').starts_with(FORMULA_STARTS)
}

/// The cell as export writes it: prefixed with `'` when it could run as a formula.
pub fn guard(cell: &str) -> Cow<'_, str> {
    if formula_like(cell) {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// The cell as import reads it: the apostrophe `guard` added, removed.
pub fn unguard(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if formula_like(rest) => rest,
        _ => cell,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_guarded_and_the_round_trip_is_exact() {
        for cell in [
            "=SUM(A1:A9)",
            "+1",
            "-x",
            "@cmd",
            "\tx",
            "'=already",
            "''@two",
            "'plain",
            "plain",
            "",
            "a=b",
        ] {
            assert_eq!(unguard(&guard(cell)), cell, "{cell:?}");
        }
        assert_eq!(guard("=1+1"), "'=1+1");
        assert_eq!(guard("'tis"), "'tis");
        assert_eq!(guard("a-b"), "a-b");
    }
}
