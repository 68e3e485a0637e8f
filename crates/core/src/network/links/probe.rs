//! One URL on the network: HEAD, GET when refused, redirects followed, host exceptions applied.

use super::{HostsConfig, Status, MAX_HOPS};
use crate::network::http::{self, Client, Failure, Method, Reach};
use crate::text::ids::percent_encode_outside_rfc3986;
use std::time::Duration;

/// How one URL fared on the network.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// The verdict.
    pub status: Status,
    /// The first HTTP status seen.
    pub http_status: Option<u16>,
    /// The final target of redirects.
    pub location: Option<String>,
    /// Every hop permanent.
    pub permanent: bool,
    /// In words.
    pub message: String,
}

/// Checks one URL: HEAD first, GET when HEAD is refused, redirects followed
/// and reported, 429/503 retried as the client's policy allows.
pub fn check_url(
    client: &Client,
    url: &str,
    hosts: &HostsConfig,
    sleep: &dyn Fn(Duration),
) -> Checked {
    let mut current = url.to_string();
    let mut seen = vec![url.to_string()];
    let mut first_status = None;
    let mut permanent = true;
    // Once a redirect leaves a public address, every later hop must stay on
    // public ones: judged when the first redirect comes, from where it came.
    let mut reach: Option<Reach> = None;
    for _ in 0..=MAX_HOPS {
        let hop_reach = reach.unwrap_or(Reach::Any);
        let refused = (hop_reach == Reach::PublicOnly)
            .then(|| client.refusal(&current))
            .flatten();
        let (mut result, mut attempts) = match refused {
            Some(why) => (Err(Failure::Refused(why.to_string())), 0),
            None => client.request_with_retries_to(Method::Head, &current, hop_reach, sleep),
        };
        if matches!(&result, Ok(r) if matches!(r.status, 405 | 501)) {
            (result, attempts) =
                client.request_with_retries_to(Method::GetStatus, &current, hop_reach, sleep);
        }
        let r = match result {
            Ok(r) => r,
            Err(f) => {
                let status = match f {
                    Failure::Timeout(_) => Status::Timeout,
                    Failure::Refused(_) => Status::Refused,
                    _ => Status::Error,
                };
                let hop = if current == url {
                    String::new()
                } else {
                    format!(" (at {current})")
                };
                return Checked {
                    status,
                    http_status: first_status,
                    location: (current != url).then_some(current.clone()),
                    permanent: false,
                    message: format!("{}{hop}", f.describe()),
                };
            }
        };
        first_status.get_or_insert(r.status);
        if (300..400).contains(&r.status) {
            let Some(loc) = r.location.as_deref().filter(|l| !l.is_empty()) else {
                return Checked {
                    status: Status::Broken,
                    http_status: first_status,
                    location: None,
                    permanent: false,
                    message: format!("answered {} without a Location", r.status),
                };
            };
            permanent &= matches!(r.status, 301 | 308);
            // What the server sent is encoded as a browser would before it is
            // followed or shown: no report can carry its raw text.
            let next = percent_encode_outside_rfc3986(&http::resolve(&current, loc));
            if seen.contains(&next) {
                seen.push(next.clone());
                return Checked {
                    status: Status::Error,
                    http_status: first_status,
                    location: Some(next),
                    permanent: false,
                    message: format!("redirect loop: {}", seen.join(" -> ")),
                };
            }
            seen.push(next.clone());
            if reach.is_none() {
                reach = Some(if client.is_private_only(url) {
                    Reach::Any
                } else {
                    Reach::PublicOnly
                });
            }
            current = next;
            continue;
        }
        let hops = seen.len() - 1;
        let accepted_here = hosts
            .rule(&http::host_of(&current))
            .is_some_and(|h| h.accept.contains(&r.status));
        if (200..300).contains(&r.status) || accepted_here {
            let accepted = if (200..300).contains(&r.status) {
                String::new()
            } else {
                format!("; {} is accepted for this host", r.status)
            };
            if hops == 0 {
                return Checked {
                    status: Status::Ok,
                    http_status: first_status,
                    location: None,
                    permanent: false,
                    message: format!("answered {}{accepted}", r.status),
                };
            }
            let message = if permanent {
                format!("moved permanently to {current}{accepted}")
            } else {
                format!("redirects ({hops} hop(s)) to {current}{accepted}")
            };
            return Checked {
                status: Status::Redirected,
                http_status: first_status,
                location: Some(current),
                permanent,
                message,
            };
        }
        let tries = if attempts > 1 {
            format!(" after {attempts} attempts")
        } else {
            String::new()
        };
        let at = if hops > 0 {
            format!(" at {current}")
        } else {
            String::new()
        };
        return Checked {
            status: Status::Broken,
            http_status: Some(r.status),
            location: (hops > 0).then_some(current.clone()),
            permanent: false,
            message: format!("answered {}{at}{tries}", r.status),
        };
    }
    Checked {
        status: Status::Error,
        http_status: first_status,
        location: Some(current),
        permanent: false,
        message: format!("more than {MAX_HOPS} redirects"),
    }
}
