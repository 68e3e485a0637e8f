//! Where the project is published: its GitHub repository and the address
//! GitHub Pages gives the page `corpus site` writes.
//!
//! The repository is stated once, here; the README and the page derive
//! every address from it. It is the survey artifact's repository as the
//! survey names it; a fork that publishes elsewhere changes this one line.

/// The GitHub repository, `owner/name`.
pub const REPOSITORY: &str = "xxzcc/awesome-llm-mas-rl";

/// The repository's web address.
pub fn repository_url() -> String {
    format!("https://github.com/{REPOSITORY}")
}

/// The project page's address on GitHub Pages: `https://OWNER.github.io/NAME/`.
pub fn pages_url() -> String {
    let (owner, name) = REPOSITORY.split_once('/').unwrap_or((REPOSITORY, ""));
    format!("https://{}.github.io/{name}/", owner.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_address_is_derived_from_the_repository() {
        assert_eq!(
            pages_url(),
            "https://xxzcc.github.io/awesome-llm-mas-rl/".to_string()
        );
        assert_eq!(
            repository_url(),
            "https://github.com/xxzcc/awesome-llm-mas-rl"
        );
    }
}
