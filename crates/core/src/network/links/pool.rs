//! The pool of threads that checks URLs, bounded overall and per host.

use super::{check_url, Checked, HostsConfig, Status};
use crate::network::http::{self, Client};
use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Checks URLs with at most `jobs` requests in flight, and at most
/// `per_host` to any one host; results come back in input order.
pub fn check_all(
    client: &Client,
    urls: &[String],
    hosts_config: &HostsConfig,
    jobs: usize,
    per_host: usize,
    sleep: &(dyn Fn(Duration) + Sync),
) -> Vec<Checked> {
    struct State {
        pending: VecDeque<usize>,
        active: HashMap<String, usize>,
    }
    let hosts: Vec<String> = urls.iter().map(|u| http::host_of(u)).collect();
    let state = Mutex::new(State {
        pending: (0..urls.len()).collect(),
        active: HashMap::new(),
    });
    let ready = Condvar::new();
    let results: Mutex<Vec<Option<Checked>>> = Mutex::new(vec![None; urls.len()]);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(urls.len().max(1)) {
            s.spawn(|| loop {
                let idx = {
                    let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        if st.pending.is_empty() {
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
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(checked);
                let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(n) = st.active.get_mut(&hosts[i]) {
                    *n -= 1;
                }
                ready.notify_all();
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|c| {
            c.unwrap_or(Checked {
                status: Status::Error,
                http_status: None,
                location: None,
                permanent: false,
                message: "not checked".into(),
            })
        })
        .collect()
}
