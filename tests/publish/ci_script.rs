//! `.ci/run` installs what it misses without assuming root: as root it calls
//! apt-get, otherwise `sudo -n` (never a prompt), and without either it
//! stops with a message naming the package. Tested on its `apt_install`
//! function with stand-ins for `id`, `sudo` and `apt-get` on the PATH, so
//! nothing is installed and no privilege is needed.

use crate::common::Tree;
use std::os::unix::fs::PermissionsExt;

/// The `apt_install` function of .ci/run, as written there.
fn apt_install_source() -> String {
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    let start = ci.find("apt_install() {").expect("apt_install in .ci/run");
    let end = start + ci[start..].find("\n}\n").expect("end of apt_install") + 3;
    ci[start..end].to_string()
}

/// Runs `apt_install hint pkg` with `uid` from `id -u` and, when `sudo` is
/// Some, a `sudo` that allows (true) or refuses (false) `-n`; returns the
/// exit code, stderr, and the calls the stand-ins logged.
fn apt_install(uid: u32, sudo: Option<bool>) -> (i32, String, String) {
    let dir = Tree::empty();
    let bin = dir.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = dir.path("calls.log");
    let tool = |name: &str, body: &str| {
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    tool("id", &format!("echo {uid}"));
    tool(
        "apt-get",
        &format!(
            "echo \"apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND\" >> '{}'",
            log.display()
        ),
    );
    tool("env", "exec /usr/bin/env \"$@\"");
    tool("true", "exit 0");
    match sudo {
        Some(true) => tool(
            "sudo",
            &format!(
                "echo \"sudo $*\" >> '{}'\nshift\nexec \"$@\"",
                log.display()
            ),
        ),
        Some(false) => tool("sudo", "exit 1"),
        None => {}
    }
    let script = format!(
        "{}\napt_install 'a hint' --no-install-recommends texlive-base\n",
        apt_install_source()
    );
    let out = std::process::Command::new("/bin/bash")
        .arg("-c")
        .arg(script)
        .env("PATH", &bin)
        .output()
        .expect("bash runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        std::fs::read_to_string(&log).unwrap_or_default(),
    )
}

#[test]
fn as_root_apt_get_runs_directly() {
    let (code, _, calls) = apt_install(0, None);
    assert_eq!(code, 0);
    assert!(!calls.contains("sudo"), "{calls}");
    assert!(
        calls.contains("apt-get install -y --no-install-recommends texlive-base DEBIAN_FRONTEND=noninteractive"),
        "{calls}"
    );
}

#[test]
fn without_root_it_goes_through_sudo_n() {
    let (code, _, calls) = apt_install(1000, Some(true));
    assert_eq!(code, 0);
    assert!(
        calls.contains("sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install"),
        "{calls}"
    );
    assert!(
        calls.contains("DEBIAN_FRONTEND=noninteractive\n"),
        "{calls}"
    );
}

#[test]
fn without_root_or_sudo_it_stops_and_says_what_to_install() {
    for sudo in [None, Some(false)] {
        let (code, stderr, calls) = apt_install(1000, sudo);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("texlive-base"), "{stderr}");
        assert!(stderr.contains("not root"), "{stderr}");
        assert!(!calls.contains("apt-get"), "{calls}");
    }
}
