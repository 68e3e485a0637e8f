//! Where a host name leads, and whether that is a private network.
//!
//! Every name the HTTP client connects to is resolved through one
//! [`Resolve`]: the system's resolver in use, a stub in tests (which map
//! public-looking names to loopback servers, so no test touches another
//! address). The same resolver answers the redirect policy: a redirect may
//! not move from an address on the internet to a loopback, link-local or
//! private one (a cloud's metadata service sits at 169.254.169.254).

use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Resolves host names for the HTTP client.
pub trait Resolve: Debug + Send + Sync + 'static {
    /// The addresses of `host` (a name, not an address literal) on `port`.
    fn lookup(&self, host: &str, port: u16) -> std::io::Result<Vec<SocketAddr>>;

    /// Whether `ip`, an address `host` resolved to (or `host` itself when it
    /// is an address), lies in a private network. Production decides by the
    /// address alone; a test stub may declare its loopback server public.
    fn is_private(&self, host: &str, ip: IpAddr) -> bool {
        let _ = host;
        is_private(ip)
    }
}

/// The operating system's resolver.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemResolver;

impl Resolve for SystemResolver {
    fn lookup(&self, host: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
        (host, port).to_socket_addrs().map(Iterator::collect)
    }
}

/// The addresses a host (a name or an address literal, IPv6 in brackets or
/// not) leads to, asking the resolver for names within `timeout`.
pub fn addresses(
    resolver: &Arc<dyn Resolve>,
    host: &str,
    port: u16,
    timeout: Duration,
) -> std::io::Result<Vec<SocketAddr>> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok(vec![SocketAddr::new(ip, port)]);
    }
    // The system's lookup cannot be interrupted: it runs on a thread of its
    // own, and a lookup that outlasts the timeout is abandoned to it.
    let (tx, rx) = mpsc::sync_channel(1);
    let (r, name) = (resolver.clone(), bare.to_string());
    std::thread::spawn(move || {
        let _ = tx.send(r.lookup(&name, port));
    });
    match rx.recv_timeout(timeout) {
        Ok(result) => result,
        Err(_) => Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("no address for {bare} within {timeout:?}"),
        )),
    }
}

/// Whether an address is loopback, link-local, private or otherwise not on
/// the public internet (unspecified, CGNAT, benchmarking, multicast,
/// reserved); IPv6 forms that embed an IPv4 address are judged by it.
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => private_v4(v4),
        IpAddr::V6(v6) => private_v6(v6),
    }
}

fn private_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_unspecified()
        || a == 0 // "this network"
        || ip.is_loopback() // 127/8
        || ip.is_private() // 10/8, 172.16/12, 192.168/16
        || ip.is_link_local() // 169.254/16
        || (a == 100 && (64..128).contains(&b)) // 100.64/10, carrier-grade NAT
        || (a == 192 && b == 0 && c == 0) // 192.0.0/24, protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // 198.18/15, benchmarking
        || ip.is_multicast() // 224/4
        || a >= 240 // 240/4 reserved, and the broadcast address
}

fn private_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    if let Some(v4) = embedded_v4(ip) {
        return private_v4(v4);
    }
    ip.is_unspecified()
        || ip.is_loopback()
        || (s[0] & 0xffc0) == 0xfe80 // fe80::/10, link-local
        || (s[0] & 0xffc0) == 0xfec0 // fec0::/10, the old site-local
        || (s[0] & 0xfe00) == 0xfc00 // fc00::/7, unique local
        || ip.is_multicast() // ff00::/8
}

/// The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), NAT64
/// (64:ff9b::a.b.c.d) or 6to4 (2002:ab:cd::) address.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let tail =
        |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    if s[..5] == [0; 5] && s[5] == 0xffff {
        return Some(tail(s[6], s[7]));
    }
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return Some(tail(s[6], s[7]));
    }
    if s[0] == 0x2002 {
        return Some(tail(s[1], s[2]));
    }
    None
}

/// The refusal a guarded connection gives instead of connecting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrivateTarget {
    /// The host as the URL names it.
    pub host: String,
    /// The private address it led to.
    pub ip: IpAddr,
}

impl std::fmt::Display for PrivateTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bare = self.host.trim_start_matches('[').trim_end_matches(']');
        if bare == self.ip.to_string() {
            write!(f, "{} is a private address", self.ip)
        } else {
            write!(
                f,
                "{} resolves to the private address {}",
                self.host, self.ip
            )
        }
    }
}

impl std::error::Error for PrivateTarget {}

/// The first private address among `addrs`, as a refusal.
pub fn first_private(
    resolver: &dyn Resolve,
    host: &str,
    addrs: &[SocketAddr],
) -> Option<PrivateTarget> {
    addrs
        .iter()
        .map(SocketAddr::ip)
        .find(|&ip| resolver.is_private(host, ip))
        .map(|ip| PrivateTarget {
            host: host.to_string(),
            ip,
        })
}

/// The resolver the client's connections use: the injected [`Resolve`],
/// refusing private addresses when `guard` is set (so a guarded request can
/// never connect to one, whatever a second lookup of the name answers).
#[derive(Debug)]
pub(super) struct Adapter {
    pub(super) inner: Arc<dyn Resolve>,
    pub(super) guard: bool,
    pub(super) timeout: Duration,
}

impl ureq::unversioned::resolver::Resolver for Adapter {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        _config: &ureq::config::Config,
        _timeout: ureq::unversioned::transport::NextTimeout,
    ) -> Result<ureq::unversioned::resolver::ResolvedSocketAddrs, ureq::Error> {
        let host = uri.host().ok_or(ureq::Error::HostNotFound)?;
        let port = uri
            .port_u16()
            .unwrap_or(if uri.scheme_str() == Some("https") {
                443
            } else {
                80
            });
        let found = addresses(&self.inner, host, port, self.timeout)?;
        if self.guard {
            if let Some(refusal) = first_private(&*self.inner, host, &found) {
                return Err(ureq::Error::Other(Box::new(refusal)));
            }
        }
        let mut out = self.empty();
        for a in found {
            if out.try_push(a).is_err() {
                break;
            }
        }
        if out.is_empty() {
            return Err(ureq::Error::HostNotFound);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn private(s: &str) -> bool {
        is_private(s.parse().unwrap())
    }

    #[test]
    fn loopback_link_local_and_private_ranges_are_private() {
        for a in [
            "127.0.0.1",
            "127.8.9.10",
            "0.0.0.0",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.255",
            "192.0.0.8",
            "198.18.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "febf::1",
            "fc00::1",
            "fd12:3456::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2002:c0a8:0101::1",
        ] {
            assert!(private(a), "{a}");
        }
    }

    #[test]
    fn public_addresses_are_not_private() {
        for a in [
            "1.1.1.1",
            "8.8.8.8",
            "172.15.255.255",
            "172.32.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "169.253.0.1",
            "192.169.0.1",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
            "2002:0808:0808::1",
        ] {
            assert!(!private(a), "{a}");
        }
    }

    #[test]
    fn address_literals_are_not_looked_up() {
        #[derive(Debug)]
        struct Nothing;
        impl Resolve for Nothing {
            fn lookup(&self, host: &str, _: u16) -> std::io::Result<Vec<SocketAddr>> {
                panic!("looked up {host}")
            }
        }
        let r: Arc<dyn Resolve> = Arc::new(Nothing);
        let t = Duration::from_secs(1);
        assert_eq!(
            addresses(&r, "[::1]", 80, t).unwrap(),
            ["[::1]:80".parse().unwrap()]
        );
        assert_eq!(
            addresses(&r, "169.254.169.254", 80, t).unwrap()[0].ip(),
            "169.254.169.254".parse::<IpAddr>().unwrap()
        );
        let refusal = first_private(
            &Nothing,
            "169.254.169.254",
            &addresses(&r, "169.254.169.254", 80, t).unwrap(),
        );
        assert_eq!(
            refusal.unwrap().to_string(),
            "169.254.169.254 is a private address"
        );
    }
}
