//! Finds, starts and stops the Bigtable emulator of the Google Cloud SDK, and creates tables
//! in it with `cbt`. Everything listens on and connects to 127.0.0.1 only.

use std::io::Write;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::common::server::{free_port, wait_until_listening};

// The emulator serves any project and instance name.
/// The project the tests' tables belong to.
pub const PROJECT: &str = "rowkey-test";
/// The instance the tests' tables belong to.
pub const INSTANCE: &str = "emulator";

/// The emulator and `cbt` binaries.
pub struct Tools {
    pub emulator: PathBuf,
    pub cbt: PathBuf,
}

impl Tools {
    /// Looks for the binaries: `CBTEMULATOR` and `CBT` when set, else the SDK that `gcloud` on
    /// the `PATH` belongs to, else the usual install places. `Err` says what is missing.
    pub fn find() -> Result<Tools, String> {
        let roots = sdk_roots();
        if let Some(path) = std::env::var_os("CBTEMULATOR").filter(|p| !Path::new(p).is_file()) {
            return Err(format!("CBTEMULATOR={} is not a file", path.display()));
        }
        let emulator = std::env::var_os("CBTEMULATOR").map(PathBuf::from).or_else(|| {
            roots.iter().map(|root| root.join("platform/bigtable-emulator/cbtemulator")).find(|p| p.is_file())
        });
        let Some(emulator) = emulator else {
            return Err(format!(
                "no cbtemulator (looked in {}; set CBTEMULATOR, or run `gcloud components install bigtable`)",
                roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>().join(", ")
            ));
        };
        let cbt = std::env::var_os("CBT")
            .map(PathBuf::from)
            .or_else(|| on_path("cbt"))
            .or_else(|| roots.iter().map(|root| root.join("bin/cbt")).find(|p| p.is_file()));
        let Some(cbt) = cbt.filter(|p| p.is_file()) else {
            return Err("found cbtemulator but no cbt (set CBT, or run `gcloud components install cbt`)".into());
        };
        Ok(Tools { emulator, cbt })
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// Candidate Cloud SDK roots, most specific first.
fn sdk_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(root) = std::env::var_os("CLOUDSDK_ROOT_DIR") {
        roots.push(PathBuf::from(root));
    }
    // gcloud is usually a symlink into `<root>/bin/`.
    if let Some(root) =
        on_path("gcloud").and_then(|p| p.canonicalize().ok()).and_then(|p| Some(p.parent()?.parent()?.to_owned()))
    {
        roots.push(root);
    }
    roots.extend(
        ["/usr/lib/google-cloud-sdk", "/usr/share/google-cloud-sdk", "/opt/google-cloud-sdk"].map(PathBuf::from),
    );
    if let Some(home) = std::env::var_os("HOME") {
        roots.push(Path::new(&home).join("google-cloud-sdk"));
    }
    roots.dedup();
    roots
}

/// A running emulator, killed by its process id when dropped, which also happens when a test
/// panics and unwinds past it.
pub struct Emulator {
    child: Child,
    addr: SocketAddr,
    cbt: PathBuf,
}

impl Emulator {
    /// Starts the emulator on a free port of 127.0.0.1 and waits until it accepts connections.
    pub fn start(tools: &Tools) -> Result<Emulator, String> {
        // Another process can take the port between our probe and the emulator's bind: retry.
        let mut last_error = String::new();
        for _ in 0..3 {
            let port = free_port().map_err(|e| format!("finding a free port: {e}"))?;
            let child = Command::new(&tools.emulator)
                .args(["-host", "127.0.0.1", "-port", &port.to_string()])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|e| format!("starting {}: {e}", tools.emulator.display()))?;
            let mut emulator =
                Emulator { child, addr: SocketAddr::from((Ipv4Addr::LOCALHOST, port)), cbt: tools.cbt.clone() };
            match wait_until_listening(&mut emulator.child, emulator.addr, Duration::from_secs(20), "the emulator") {
                Ok(()) => return Ok(emulator),
                Err(e) => last_error = e, // dropping `emulator` kills it
            }
        }
        Err(last_error)
    }

    /// Where the emulator listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `127.0.0.1:port`, as `BIGTABLE_EMULATOR_HOST` would say it.
    pub fn host(&self) -> String {
        self.addr.to_string()
    }

    /// What `cbt` prints for `args` (times in UTC), for output other tools read.
    pub fn cbt(&self, args: &[&str]) -> String {
        let output = Command::new(&self.cbt)
            .env("BIGTABLE_EMULATOR_HOST", self.host())
            .env("TZ", "UTC")
            .args(["-project", PROJECT, "-instance", INSTANCE, "-creds", "/dev/null"])
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", self.cbt.display()));
        assert!(output.status.success(), "cbt {args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).expect("cbt prints UTF-8")
    }

    /// Creates `table` with the column family `family`.
    pub fn create_table(&self, table: &str, family: &str) {
        self.create_table_with(table, family, &[]);
    }

    /// Creates `table` with the column family `family` and more `cbt createtable` arguments,
    /// such as its initial splits.
    pub fn create_table_with(&self, table: &str, family: &str, more: &[&str]) {
        let output = Command::new(&self.cbt)
            .env("BIGTABLE_EMULATOR_HOST", self.host())
            // With both -project and -creds given, cbt does not ask gcloud for defaults, which
            // could refresh credentials over the network. The emulator ignores credentials.
            .args(["-project", PROJECT, "-instance", INSTANCE, "-creds", "/dev/null"])
            .args(["createtable", table, &format!("families={family}")])
            .args(more)
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", self.cbt.display()));
        assert!(
            output.status.success(),
            "cbt createtable {table}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        // Child::kill sends SIGKILL to the emulator's pid; wait reaps it, so nothing is left.
        if let Err(e) = self.child.kill().and_then(|()| self.child.wait().map(drop)) {
            let _ = writeln!(std::io::stderr(), "stopping the emulator (pid {}): {e}", self.child.id());
        }
    }
}
