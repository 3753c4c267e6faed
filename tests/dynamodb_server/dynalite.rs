//! Finds, starts and stops dynalite (npm; the DynamoDB API over an in-memory LevelDB), on a
//! free port of 127.0.0.1, and makes the SDK client that talks to it.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};

use crate::common::server::{free_port, wait_until_listening};

/// The dynalite package's directory: `DYNALITE` when set, else `target/dynalite`'s install
/// (where `.ci/run` puts it); and `node`. `Err` says what is missing.
pub fn find() -> Result<PathBuf, String> {
    let package = match std::env::var_os("DYNALITE") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/dynalite/node_modules/dynalite"),
    };
    if !package.join("package.json").is_file() {
        return Err(format!(
            "no dynalite at {} (set DYNALITE to its package directory, or `npm install --prefix target/dynalite dynalite`)",
            package.display()
        ));
    }
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(package),
        _ => Err("no `node` on the PATH to run dynalite with".to_owned()),
    }
}

/// Serves the package's DynamoDB on 127.0.0.1 only (its command listens on every interface),
/// tables active as soon as they are made.
const SERVE: &str = "require(process.argv[1])({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })\
    .listen(Number(process.argv[2]), '127.0.0.1')";

/// A running dynalite, killed by its process id when dropped (also when a test panics).
pub struct Dynalite {
    child: Child,
    addr: SocketAddr,
}

impl Dynalite {
    /// Starts dynalite (the package at `package`) on a free port of 127.0.0.1 and waits until
    /// it accepts connections.
    pub fn start(package: &Path) -> Result<Dynalite, String> {
        let mut last_error = String::new();
        // Another process can take the port between the probe and dynalite's bind: retry.
        for _ in 0..3 {
            let port = free_port().map_err(|e| format!("finding a free port: {e}"))?;
            let child = Command::new("node")
                .args(["-e", SERVE])
                .arg(package)
                .arg(port.to_string())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| format!("starting node for {}: {e}", package.display()))?;
            let mut server = Dynalite { child, addr: SocketAddr::from((Ipv4Addr::LOCALHOST, port)) };
            match wait_until_listening(&mut server.child, server.addr, Duration::from_secs(20), "dynalite") {
                Ok(()) => return Ok(server),
                Err(e) => last_error = e,
            }
        }
        Err(last_error)
    }

    /// An SDK client of this server: any region and keys do, dynalite checks only their form.
    pub fn client(&self) -> Client {
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new("us-east-1"))
            .credentials_provider(Credentials::new("rowkey", "test", None, None, "dynalite"))
            .endpoint_url(format!("http://{}", self.addr))
            .build();
        Client::from_conf(config)
    }
}

impl Drop for Dynalite {
    fn drop(&mut self) {
        if let Err(e) = self.child.kill().and_then(|()| self.child.wait().map(drop)) {
            let _ = writeln!(std::io::stderr(), "stopping dynalite (pid {}): {e}", self.child.id());
        }
    }
}
