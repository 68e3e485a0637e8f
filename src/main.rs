//! The `corpus` binary: parse arguments, run, print, exit.

use clap::Parser;
use std::io::{ErrorKind, IsTerminal, Write};
use std::process::ExitCode;

// A run allocates and frees many small strings and maps (a value per YAML
// scalar, a view per entry), on several threads at once; mimalloc serves
// those from per-thread pages, where the system allocator's arenas cost
// a sixth of a build of the shipped corpus.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    no_huge_pages();
    let cli = match corpus::cli::Cli::try_parse() {
        Ok(c) => c,
        // `--help` and `--version` go to stdout and a usage error to stderr;
        // either way the text is written here, so a failed write is noticed.
        Err(e) => {
            let text = e.render().to_string();
            return if e.use_stderr() {
                emit("", &text, 2)
            } else {
                emit(&text, "", 0)
            };
        }
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let tty = corpus::cli::Terminal {
        stdout: std::io::stdout().is_terminal(),
        stderr: std::io::stderr().is_terminal(),
    };
    let out = corpus::cli::run(&cli, &cwd, tty);
    emit(&out.stdout, &out.stderr, out.code)
}

/// Serves this process's memory in small pages, not transparent huge ones.
///
/// Where the kernel backs every anonymous mapping with 2 MiB pages
/// (`/sys/kernel/mm/transparent_hugepage/enabled` set to `always`), a build
/// of a large corpus spent more time in the kernel zeroing those pages than
/// in its own work (100k grown entries: 7.5 s, 5.5 s of it system time,
/// against 4.2 s with them off). The run's memory is many small objects
/// that gain nothing from huge pages; mimalloc makes the same call when its
/// `allow_thp` option is off. Elsewhere the call changes nothing.
#[cfg(target_os = "linux")]
fn no_huge_pages() {
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory
    // of ours; a kernel without it answers EINVAL, which changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn no_huge_pages() {}

/// Writes both streams and turns a failed write into exit code 2.
fn emit(out: &str, err: &str, code: i32) -> ExitCode {
    let mut code = code.clamp(0, 255) as u8;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => {}
        // The reader went away (`corpus list | head -1`): it chose not to read
        // the rest, which is no failure of the tool, so stop quietly and keep
        // the command's own verdict.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => {}
        // A full disk or a quota: the output is lost, so the run failed.
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "error: cannot write standard output: {e}"
            );
            code = 2;
        }
    }
    if std::io::stderr()
        .write_all(err.as_bytes())
        .is_err_and(|e| e.kind() != ErrorKind::BrokenPipe)
    {
        code = 2;
    }
    ExitCode::from(code)
}
