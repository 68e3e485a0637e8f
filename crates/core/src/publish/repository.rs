//! Where a list is published: the GitHub repository the taxonomy names
//! (`repository: owner/name`) and the addresses derived from it, the
//! repository's web page and the GitHub Pages address of the page
//! `corpus site` writes.

/// The repository's web address.
pub fn repository_url(repository: &str) -> String {
    format!("https://github.com/{repository}")
}

/// The project page's address on GitHub Pages: `https://OWNER.github.io/NAME/`.
pub fn pages_url(repository: &str) -> String {
    let (owner, name) = repository.split_once('/').unwrap_or((repository, ""));
    format!("https://{}.github.io/{name}/", owner.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_address_is_derived_from_the_repository() {
        assert_eq!(
            pages_url("Owner/some-list"),
            "https://owner.github.io/some-list/".to_string()
        );
        assert_eq!(
            repository_url("Owner/some-list"),
            "https://github.com/Owner/some-list"
        );
    }
}
