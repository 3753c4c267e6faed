//! A redb database in a fresh directory under the system's temp dir, shared by the examples.
//!
//! The directory goes away when the value is dropped, so an example that fails halfway
//! leaves nothing behind. (Not an example itself: Cargo only runs `examples/*.rs` and
//! `examples/*/main.rs`.)

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use redb::Database;

/// An open database whose directory is removed on drop.
pub struct TempDb {
    // Declared first so it is dropped, and the file closed, before the directory goes.
    pub db: Database,
    _dir: TempDir,
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        // Nothing useful can be done about a failure here; the OS cleans its temp dir.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl TempDb {
    /// Creates `<temp>/rowkey-<name>-<pid>-<nanos>/db.redb`. The pid and the clock keep
    /// two runs at once (CI jobs, a test and an example) out of each other's way.
    pub fn create(name: &str) -> Result<TempDb, Box<dyn std::error::Error>> {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH)?.as_nanos();
        let dir = std::env::temp_dir().join(format!("rowkey-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let dir = TempDir(dir);
        let db = Database::create(dir.0.join("db.redb"))?;
        Ok(TempDb { db, _dir: dir })
    }
}
