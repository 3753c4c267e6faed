//! Test servers started as child processes (the Bigtable emulator, dynalite): a free port to
//! start one on, and waiting until it listens.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::Child;
use std::time::{Duration, Instant};

/// A port of 127.0.0.1 that was free a moment ago.
pub fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?.local_addr()?.port())
}

/// Waits until `child` (`what`, for errors) accepts connections on `addr`, or says why not:
/// it exited, or `patience` ran out.
pub fn wait_until_listening(child: &mut Child, addr: SocketAddr, patience: Duration, what: &str) -> Result<(), String> {
    let deadline = Instant::now() + patience;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("{what} exited with {status} before listening on {addr}"));
        }
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("{what} did not listen on {addr} within {patience:?}"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
