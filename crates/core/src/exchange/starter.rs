//! The starter of a new list (`corpus init`): a taxonomy with one example
//! category and the list's own title and description, the templates, and
//! empty data folders. It has no survey file and no claims ledger, both of
//! which are optional, and it passes `check` and `build` as written.

use crate::layout::Layout;

/// The starter taxonomy; `{today}` stands for the day the list is made.
const TAXONOMY: &str = include_str!("starter/taxonomy.yaml");

/// The starter README template: no survey, and sections with nothing to
/// show left out.
const README_TEMPLATE: &str = include_str!("starter/README.md.tera");

/// Files that keep the empty data folders in git; `load` skips them.
const KEEP: &str = ".gitkeep";

/// The files of a new list as (root-relative path, content). `today` is the
/// date (YYYY-MM-DD) written as the search cutoff; `templates` are the
/// statistics and site templates as (file name, text), shared with the
/// tool's own list because nothing in them names a list.
pub fn files(today: &str, templates: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut out = vec![
        (
            Layout::TAXONOMY.to_string(),
            TAXONOMY.replace("{today}", today),
        ),
        (
            format!("{}/{}", Layout::TEMPLATES_DIR, Layout::README_TEMPLATE),
            README_TEMPLATE.to_string(),
        ),
        (format!("{}/{KEEP}", Layout::PAPERS_DIR), String::new()),
        (format!("{}/{KEEP}", Layout::EXCLUSIONS_DIR), String::new()),
        (
            ".gitignore".to_string(),
            format!("{}/\n{}/\n", Layout::CACHE_DIR, Layout::SITE_DIR),
        ),
    ];
    out.extend(templates.iter().map(|(name, text)| {
        (
            format!("{}/{name}", Layout::TEMPLATES_DIR),
            text.to_string(),
        )
    }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::taxonomy::Taxonomy;

    #[test]
    fn the_starter_taxonomy_parses_with_the_date_filled_in() {
        let files = files("2026-12-01", &[]);
        let (_, text) = files
            .iter()
            .find(|(p, _)| p == Layout::TAXONOMY)
            .expect("a taxonomy");
        let tax = Taxonomy::from_yaml(text).expect("the starter taxonomy parses");
        assert_eq!(tax.screening.cutoff, "2026-12-01");
        assert_eq!(tax.category.len(), 1, "one example category");
        assert!(tax.list.is_some(), "the list's title comes from the data");
    }

    #[test]
    fn the_starter_readme_names_no_survey() {
        assert!(!README_TEMPLATE.to_lowercase().contains("survey"));
    }
}
