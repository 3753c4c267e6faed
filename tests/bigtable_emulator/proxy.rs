//! A TCP proxy on 127.0.0.1 between the client and the emulator that breaks connections on a
//! seeded schedule: it cuts a connection after a drawn number of bytes (in either direction),
//! stalls one for a while at a drawn byte, or refuses it outright. gRPC multiplexes every
//! call over a connection, so one cut fails every read and write in flight on it, which is
//! what a client must survive.

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use crate::scenarios::Rng;

/// What the proxy does to connections.
#[derive(Clone, Copy, Debug)]
pub enum Faults {
    /// A fault drawn per connection from this seed.
    Seeded(u64),
    /// Every connection refused: nothing gets through.
    RefuseAll,
    /// The first `connections` connections cut once `after` bytes went to the client; the
    /// ones after them left alone.
    CutFirst { connections: u64, after: u64 },
}

/// What happens to one connection. None lives forever: a connection that gets through its
/// stall or its first bytes is still cut later, so faults keep coming for the whole test.
#[derive(Clone, Copy, Debug)]
enum Plan {
    Refuse,
    /// Closed once `after` bytes went through in the given direction; before that, forwarding
    /// pauses for `pause` once `stall_at` bytes went from the server, if set.
    Cut {
        after: u64,
        to_server: bool,
        stall: Option<(u64, Duration)>,
    },
}

impl Plan {
    fn draw(faults: Faults, connection: u64) -> Plan {
        let seed = match faults {
            Faults::RefuseAll => return Plan::Refuse,
            Faults::CutFirst { connections, after } => {
                let after = if connection < connections { after } else { u64::MAX };
                return Plan::Cut { after, to_server: false, stall: None };
            }
            Faults::Seeded(seed) => seed,
        };
        let mut rng = Rng(seed ^ connection.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let percent = rng.next() % 100;
        let soon = 512 + rng.next() % (48 * 1024);
        let late = 48 * 1024 + rng.next() % (512 * 1024);
        let stall = (rng.next() % 65_536, Duration::from_millis(300 + rng.next() % 1200));
        match percent {
            0..10 => Plan::Refuse,
            10..25 => Plan::Cut { after: late, to_server: false, stall: Some(stall) },
            25..55 => Plan::Cut { after: late, to_server: percent >= 50, stall: None },
            _ => Plan::Cut { after: soon, to_server: percent >= 90, stall: None },
        }
    }
}

/// How many connections met each fault.
#[derive(Default, Debug)]
pub struct Stats {
    pub connections: AtomicUsize,
    pub refused: AtomicUsize,
    pub cut: AtomicUsize,
    pub stalled: AtomicUsize,
}

impl Stats {
    pub fn summary(&self) -> String {
        let get = |n: &AtomicUsize| n.load(Ordering::Relaxed);
        format!(
            "{} connections: {} cut, {} of them stalled first, {} refused",
            get(&self.connections),
            get(&self.cut),
            get(&self.stalled),
            get(&self.refused),
        )
    }
}

pub struct Proxy {
    addr: SocketAddr,
    pub stats: Arc<Stats>,
    accept: JoinHandle<()>,
}

impl Proxy {
    /// Listens on a free port of 127.0.0.1 and forwards to `upstream` with `faults`.
    pub async fn start(upstream: SocketAddr, faults: Faults) -> Proxy {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.expect("a port for the proxy");
        let addr = listener.local_addr().expect("the proxy's address");
        let stats = Arc::new(Stats::default());
        let counts = Arc::clone(&stats);
        let accept = tokio::spawn(async move {
            for connection in 0u64.. {
                let Ok((client, _)) = listener.accept().await else { continue };
                counts.connections.fetch_add(1, Ordering::Relaxed);
                let plan = Plan::draw(faults, connection);
                tokio::spawn(serve(client, upstream, plan, Arc::clone(&counts)));
            }
        });
        Proxy { addr, stats, accept }
    }

    /// `127.0.0.1:port`, for `BigTableConnection::new_with_emulator`.
    pub fn host(&self) -> String {
        self.addr.to_string()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

async fn serve(client: TcpStream, upstream: SocketAddr, plan: Plan, stats: Arc<Stats>) {
    let Plan::Cut { after, to_server, stall } = plan else {
        stats.refused.fetch_add(1, Ordering::Relaxed);
        return; // dropping the accepted socket closes it before a byte is read
    };
    let Ok(server) = TcpStream::connect(upstream).await else { return };
    // Without it, small gRPC frames wait on delayed acknowledgements at each hop.
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    if stall.is_some() {
        stats.stalled.fetch_add(1, Ordering::Relaxed);
    }
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    let (to_server_budget, to_client_budget) = if to_server { (Some(after), None) } else { (None, Some(after)) };
    // Whichever direction ends first (the cut, or either side closing) closes both: the
    // halves are dropped together when `select!` returns.
    let cut = tokio::select! {
        cut = pump(client_read, server_write, to_server_budget, None) => cut,
        cut = pump(server_read, client_write, to_client_budget, stall) => cut,
    };
    if cut {
        stats.cut.fetch_add(1, Ordering::Relaxed);
    }
}

/// Copies bytes until the reader ends, an error, or `budget` bytes (then returns `true`);
/// pauses once at `stall`.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    budget: Option<u64>,
    mut stall: Option<(u64, Duration)>,
) -> bool {
    let mut buffer = vec![0u8; 16 * 1024];
    let mut sent = 0u64;
    loop {
        let Ok(read) = from.read(&mut buffer).await else { return false };
        if read == 0 {
            return false;
        }
        let mut chunk = &buffer[..read];
        if let Some(budget) = budget {
            let left = usize::try_from(budget.saturating_sub(sent)).unwrap_or(usize::MAX);
            if chunk.len() >= left {
                let _ = to.write_all(&chunk[..left]).await;
                return true;
            }
        }
        if let Some((at, pause)) = stall
            && sent + chunk.len() as u64 > at
        {
            let before = usize::try_from(at.saturating_sub(sent)).unwrap_or(0);
            if to.write_all(&chunk[..before]).await.is_err() {
                return false;
            }
            sent += before as u64;
            chunk = &chunk[before..];
            tokio::time::sleep(pause).await;
            stall = None;
        }
        if to.write_all(chunk).await.is_err() {
            return false;
        }
        sent += chunk.len() as u64;
    }
}
