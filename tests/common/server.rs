//! A tiny HTTP/1.1 server on 127.0.0.1 for the network features' tests.
//!
//! Each test starts its own server with a routing function; the server
//! records every request (method, path and query, user agent) and stops when
//! dropped. A route may also never answer, which is how timeouts are tested;
//! such a connection is held only until the server is dropped (and never
//! longer than [`HANG_LIMIT`]), so no test can hang.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest a hanging route holds its connection.
pub const HANG_LIMIT: Duration = Duration::from_secs(20);

/// One request the server received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// GET, HEAD, …
    pub method: String,
    /// Path and query, as sent.
    pub target: String,
    /// The User-Agent header.
    pub user_agent: String,
    /// When it arrived.
    pub at: Instant,
}

/// What a route answers.
pub enum Reply {
    /// A status with headers and a body (the body is left out for HEAD).
    Send {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// Read the request, then never answer.
    Hang,
}

impl Reply {
    /// A status with no headers and a short body.
    pub fn status(status: u16) -> Reply {
        Reply::Send {
            status,
            headers: Vec::new(),
            body: format!("status {status}\n"),
        }
    }

    /// A redirect to `location`.
    pub fn redirect(status: u16, location: &str) -> Reply {
        Reply::Send {
            status,
            headers: vec![("Location".into(), location.into())],
            body: String::new(),
        }
    }

    /// A status with one extra header.
    pub fn with_header(status: u16, name: &str, value: &str) -> Reply {
        Reply::Send {
            status,
            headers: vec![(name.into(), value.into())],
            body: String::new(),
        }
    }

    /// 200 with a body and content type.
    pub fn body(content_type: &str, body: &str) -> Reply {
        Reply::Send {
            status: 200,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into(),
        }
    }
}

/// A request as the route sees it.
pub struct Request<'a> {
    /// GET, HEAD, …
    pub method: &'a str,
    /// The path without the query.
    pub path: &'a str,
    /// The query string (after `?`), or "".
    pub query: &'a str,
    /// How many earlier requests had the same path (0 for the first).
    pub nth: usize,
}

type Route = dyn Fn(&Request) -> Reply + Send + Sync;

/// A running loopback server.
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    hits: Arc<Mutex<Vec<Hit>>>,
    /// (requests being answered now, most ever at once).
    load: Arc<Mutex<(usize, usize)>>,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts a server on 127.0.0.1 (a free port) answering with `route`.
    pub fn start(route: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> Server {
        Server::start_with(true, route)
    }

    /// A server that closes each connection after its answer, as every
    /// server here does, but without saying so (no `Connection: close`): a
    /// client keeps the connection for its next request and finds it dead.
    pub fn start_closing_silently(
        route: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> Server {
        Server::start_with(false, route)
    }

    fn start_with(
        announce_close: bool,
        route: impl Fn(&Request) -> Reply + Send + Sync + 'static,
    ) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("local address");
        let stop = Arc::new(AtomicBool::new(false));
        let hits: Arc<Mutex<Vec<Hit>>> = Arc::new(Mutex::new(Vec::new()));
        let load = Arc::new(Mutex::new((0usize, 0usize)));
        let counts: Arc<Mutex<HashMap<String, usize>>> = Arc::new(Mutex::new(HashMap::new()));
        let route: Arc<Route> = Arc::new(route);
        let (stop2, hits2, load2) = (stop.clone(), hits.clone(), load.clone());
        let accept = std::thread::spawn(move || {
            let mut workers = Vec::new();
            for conn in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = conn else { continue };
                let (route, stop, hits, counts, load) = (
                    route.clone(),
                    stop2.clone(),
                    hits2.clone(),
                    counts.clone(),
                    load2.clone(),
                );
                workers.push(std::thread::spawn(move || {
                    let state = Shared {
                        stop: &stop,
                        hits: &hits,
                        counts: &counts,
                        load: &load,
                        announce_close,
                    };
                    serve(stream, &*route, &state)
                }));
            }
            for w in workers {
                let _ = w.join();
            }
        });
        Server {
            addr,
            stop,
            hits,
            load,
            accept: Some(accept),
        }
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Every request so far, in arrival order.
    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().expect("hits").clone()
    }

    /// The most connections the server was answering at one time.
    pub fn max_in_flight(&self) -> usize {
        self.load.lock().expect("load").1
    }

    /// The requests for one path (query ignored).
    pub fn hits_on(&self, path: &str) -> Vec<Hit> {
        self.hits()
            .into_iter()
            .filter(|h| h.target.split('?').next() == Some(path))
            .collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

/// What every connection of one server shares.
#[derive(Clone, Copy)]
struct Shared<'a> {
    stop: &'a AtomicBool,
    hits: &'a Mutex<Vec<Hit>>,
    counts: &'a Mutex<HashMap<String, usize>>,
    load: &'a Mutex<(usize, usize)>,
    /// Whether answers say `Connection: close` (they are closed either way).
    announce_close: bool,
}

fn serve(mut stream: TcpStream, route: &Route, shared: &Shared) {
    let Shared {
        stop,
        hits,
        counts,
        load,
        announce_close,
    } = *shared;
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
        if head.len() > 64 * 1024 {
            return;
        }
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let mut lines = text.lines();
    let mut first = lines.next().unwrap_or("").split(' ');
    let method = first.next().unwrap_or("").to_string();
    let target = first.next().unwrap_or("").to_string();
    let user_agent = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.eq_ignore_ascii_case("user-agent"))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_default();
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let nth = {
        let mut c = counts.lock().expect("counts");
        let n = c.entry(path.to_string()).or_insert(0);
        *n += 1;
        *n - 1
    };
    hits.lock().expect("hits").push(Hit {
        method: method.clone(),
        target: target.clone(),
        user_agent,
        at: Instant::now(),
    });
    // A request is in flight from its arrival until just before its answer
    // is sent, so a client's next request can never overlap it here.
    {
        let mut l = load.lock().expect("load");
        l.0 += 1;
        l.1 = l.1.max(l.0);
    }
    let reply = route(&Request {
        method: &method,
        path,
        query,
        nth,
    });
    match reply {
        Reply::Hang => {
            let start = Instant::now();
            while !stop.load(Ordering::SeqCst) && start.elapsed() < HANG_LIMIT {
                std::thread::sleep(Duration::from_millis(20));
            }
            load.lock().expect("load").0 -= 1;
        }
        Reply::Send {
            status,
            headers,
            body,
        } => {
            let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status));
            for (k, v) in &headers {
                out.push_str(&format!("{k}: {v}\r\n"));
            }
            out.push_str(&format!("Content-Length: {}\r\n", body.len()));
            if announce_close {
                out.push_str("Connection: close\r\n");
            }
            out.push_str("\r\n");
            if method != "HEAD" {
                out.push_str(&body);
            }
            load.lock().expect("load").0 -= 1;
            let _ = stream.write_all(out.as_bytes());
            let _ = stream.flush();
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        410 => "Gone",
        429 => "Too Many Requests",
        503 => "Service Unavailable",
        _ => "Status",
    }
}
