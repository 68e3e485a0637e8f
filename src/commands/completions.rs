//! `corpus completions SHELL`: the shell's completion script, generated
//! from the same clap definitions that parse the command line, so it never
//! lags behind a new subcommand or flag.

use super::{Audience, Outcome, Result};

/// Options of `corpus completions`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Load it for this session with `source <(corpus completions bash)`, or save it where \
the shell looks (bash: ~/.local/share/bash-completion/completions/corpus; zsh: a folder on $fpath as _corpus; \
fish: ~/.config/fish/completions/corpus.fish)."
)]
pub struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

impl Audience for Args {
    fn stdout_is_for_humans(&self) -> bool {
        // A script for the shell: byte for byte.
        false
    }
}

/// Writes the completion script of `corpus` for the shell on stdout; `cmd`
/// is the whole command line's definition, which `cli` (the layer above)
/// hands down.
pub fn run(mut cmd: clap::Command, args: &Args) -> Result {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "corpus", &mut script);
    String::from_utf8(script)
        .map(Outcome::ok)
        .map_err(|e| Outcome::fail(2, format!("completion script is not UTF-8: {e}")))
}
