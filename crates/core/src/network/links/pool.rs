//! The pool of threads that checks URLs, bounded overall and per host, and
//! stopped early when the network itself is down.

use super::{check_url, Checked, HostsConfig, Status};
use crate::network::http::{self, Client};
use crate::network::progress::Progress;
use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Requests that got no answer at all (no host, no connection, no reply in
/// time), while no request got any, after which the network is taken to be
/// down and no further request starts: a few, so that a machine without a
/// network learns it in seconds, not after every link has timed out.
pub const DOWN_AFTER: usize = 4;

/// What the pool did: a verdict per URL (None: not checked, because the
/// pool stopped), and whether it stopped because the network looks down.
#[derive(Debug, Clone, PartialEq)]
pub struct Checks {
    /// One verdict per URL, in input order.
    pub checked: Vec<Option<Checked>>,
    /// Set when the first [`DOWN_AFTER`] finished requests all got no answer.
    pub network_down: bool,
}

/// Whether a verdict is a request that got no answer of any kind: what
/// every request gives when the network is down.
pub fn unanswered(c: &Checked) -> bool {
    c.http_status.is_none()
        && (c.status == Status::Timeout
            || (c.status == Status::Error && c.message.starts_with("connection failed")))
}

/// Checks URLs with at most `jobs` requests in flight, and at most
/// `per_host` to any one host; results come back in input order. After
/// [`DOWN_AFTER`] unanswered requests and no answer, no new request starts.
pub fn check_all(
    client: &Client,
    urls: &[String],
    hosts_config: &HostsConfig,
    (jobs, per_host): (usize, usize),
    sleep: &(dyn Fn(Duration) + Sync),
    progress: &dyn Progress,
) -> Checks {
    struct State {
        pending: VecDeque<usize>,
        active: HashMap<String, usize>,
        answered: bool,
        unanswered: usize,
        down: bool,
    }
    let hosts: Vec<String> = urls.iter().map(|u| http::host_of(u)).collect();
    let state = Mutex::new(State {
        pending: (0..urls.len()).collect(),
        active: HashMap::new(),
        answered: false,
        unanswered: 0,
        down: false,
    });
    let ready = Condvar::new();
    let results: Mutex<Vec<Option<Checked>>> = Mutex::new(vec![None; urls.len()]);
    progress.start(urls.len() as u64, "links");
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(urls.len().max(1)) {
            s.spawn(|| loop {
                let idx = {
                    let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        if st.pending.is_empty() || st.down {
                            break None;
                        }
                        let pos = st.pending.iter().position(|&i| {
                            st.active.get(&hosts[i]).copied().unwrap_or(0) < per_host.max(1)
                        });
                        if let Some(p) = pos {
                            let i = st.pending.remove(p).unwrap_or_default();
                            *st.active.entry(hosts[i].clone()).or_insert(0) += 1;
                            break Some(i);
                        }
                        st = ready.wait(st).unwrap_or_else(|e| e.into_inner());
                    }
                };
                let Some(i) = idx else { break };
                let checked = check_url(client, &urls[i], hosts_config, sleep);
                let silent = unanswered(&checked);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(checked);
                progress.step(1);
                let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(n) = st.active.get_mut(&hosts[i]) {
                    *n -= 1;
                }
                if silent {
                    st.unanswered += 1;
                } else {
                    st.answered = true;
                }
                if !st.answered && st.unanswered >= DOWN_AFTER {
                    st.down = true;
                }
                ready.notify_all();
            });
        }
    });
    progress.finish();
    let down = state.into_inner().unwrap_or_else(|e| e.into_inner()).down;
    Checks {
        checked: results.into_inner().unwrap_or_else(|e| e.into_inner()),
        network_down: down,
    }
}
