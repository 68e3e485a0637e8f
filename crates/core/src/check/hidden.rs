//! Invisible characters in any text value of an entry or record.

use super::sink::Finding;
use corpus_diagnostics::rules::Rule;

/// `control-character`: every text value of an item, lists and waivers included.
pub(super) fn check_hidden(hidden: &[(String, char)], out: &mut Vec<Finding>) {
    for (field, c) in hidden {
        out.push(
            Finding::new(
                Rule::ControlCharacter,
                field.as_str(),
                format!(
                    "`{field}` holds the invisible character U+{:04X}, which can rewrite a terminal or reorder the text around it",
                    *c as u32
                ),
            )
            .help("remove it; write the text with printable characters only"),
        );
    }
}
