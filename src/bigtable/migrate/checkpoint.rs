//! The checkpoint file of a copy: each shard's range and how far it is copied, so that a run
//! killed at any point starts again where it stopped.
//!
//! The file is JSON, rewritten whole through a temporary file and a rename, so a reader sees
//! the old state or the new one and never half of each. A shard's `after` moves only past rows
//! whose writes were acknowledged: a run started from the file copies again at most the rows
//! written after it was saved, and writing the same cells again changes nothing.
//!
//! The file holds old keys (in hex), so their sensitive fields' values too: on Unix it is
//! readable and writable by its owner alone (mode 0600), from the temporary file on.

use std::ops::Bound;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

use crate::key::Key;
use crate::range::KeyRange;

use super::error::MigrateError;

/// The saved state of one shard.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ShardState {
    pub(super) range: KeyRange,
    /// The last old key copied, when any.
    pub(super) after: Option<Key>,
    pub(super) rows: u64,
    pub(super) done: bool,
}

impl ShardState {
    pub(super) fn new(range: KeyRange) -> Self {
        ShardState { range, after: None, rows: 0, done: false }
    }

    /// What is left to copy.
    pub(super) fn remaining(&self) -> KeyRange {
        match &self.after {
            Some(key) => self.range.after(key),
            None => self.range.clone(),
        }
    }
}

/// A checkpoint: the migration it belongs to and its shards.
pub(super) struct Checkpoint {
    path: Option<PathBuf>,
    migration: String,
    pub(super) shards: Vec<ShardState>,
    saved: Instant,
}

/// How often a checkpoint is written while shards are copied; always at the end of a shard.
const SAVE_EVERY: Duration = Duration::from_millis(250);

impl Checkpoint {
    /// The file's state, shards and all, when it exists and belongs to this migration; else a
    /// fresh one of `shards`.
    pub(super) fn open(path: Option<&Path>, migration: &str, shards: &[KeyRange]) -> Result<Self, MigrateError> {
        let fresh = || Checkpoint {
            path: path.map(Path::to_owned),
            migration: migration.to_owned(),
            shards: shards.iter().cloned().map(ShardState::new).collect(),
            saved: Instant::now(),
        };
        let Some(path) = path else { return Ok(fresh()) };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(fresh()),
            Err(e) => return Err(MigrateError::checkpoint(path, format!("cannot be read: {e}"))),
        };
        let bad = |why: &str| MigrateError::checkpoint(path, format!("is not a checkpoint of rowkey's: {why}"));
        let json: Json = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
        let found = json["migration"].as_str().ok_or_else(|| bad("it has no `migration`"))?;
        if found != migration {
            return Err(MigrateError::checkpoint(
                path,
                format!(
                    "belongs to another migration (its designs, mapping, tables or shards differ: {found}, not \
                     {migration}); give this migration a new checkpoint file, or delete this one to start over"
                ),
            ));
        }
        let saved = json["shards"].as_array().ok_or_else(|| bad("it has no `shards`"))?;
        // The shards are the file's: a sample of the table taken again would cut it elsewhere.
        let mut states = Vec::with_capacity(saved.len());
        for state in saved {
            let bound = |json: &Json| match (json[0].as_str(), json[1].as_str().and_then(from_hex)) {
                (Some("included"), Some(key)) => Some(Bound::Included(key)),
                (Some("excluded"), Some(key)) => Some(Bound::Excluded(key)),
                _ if json.is_null() => Some(Bound::Unbounded),
                _ => None,
            };
            let (Some(start), Some(end)) = (bound(&state["start"]), bound(&state["end"])) else {
                return Err(bad("a shard's bounds are not [\"included\" or \"excluded\", hex]"));
            };
            let range = KeyRange::new(start, end);
            let after = match &state["after"] {
                Json::Null => None,
                Json::String(hex) => Some(from_hex(hex).ok_or_else(|| bad("a shard's `after` is not hex"))?),
                _ => return Err(bad("a shard's `after` is not hex")),
            };
            if after.as_ref().is_some_and(|key| !range.contains(key)) {
                return Err(bad("a shard's `after` lies outside the shard"));
            }
            states.push(ShardState {
                range,
                after,
                rows: state["rows"].as_u64().ok_or_else(|| bad("a shard has no `rows`"))?,
                done: state["done"].as_bool().ok_or_else(|| bad("a shard has no `done`"))?,
            });
        }
        if states.is_empty() {
            return Err(bad("it has no shards"));
        }
        Ok(Checkpoint {
            path: Some(path.to_owned()),
            migration: migration.to_owned(),
            shards: states,
            saved: Instant::now(),
        })
    }

    /// Records that shard `index` is copied through `after` (`rows` in all), and saves the
    /// file when it was last saved long enough ago.
    pub(super) fn advance(&mut self, index: usize, after: Key, rows: u64) -> Result<(), MigrateError> {
        let shard = &mut self.shards[index];
        shard.after = Some(after);
        shard.rows = rows;
        if self.saved.elapsed() >= SAVE_EVERY {
            self.save()?;
        }
        Ok(())
    }

    /// Marks shard `index` copied (an empty shard has no last key) and saves.
    pub(super) fn finish(&mut self, index: usize) -> Result<(), MigrateError> {
        self.shards[index].done = true;
        self.save()
    }

    /// Writes the file, when there is one.
    pub(super) fn save(&mut self) -> Result<(), MigrateError> {
        let Some(path) = &self.path else { return Ok(()) };
        let shards: Vec<Json> = self
            .shards
            .iter()
            .map(|shard| {
                let bound = |bound: Bound<&Key>| match bound {
                    Bound::Included(key) => json!(["included", to_hex(key)]),
                    Bound::Excluded(key) => json!(["excluded", to_hex(key)]),
                    Bound::Unbounded => Json::Null,
                };
                json!({
                    "start": bound(shard.range.start()),
                    "end": bound(shard.range.end()),
                    "after": shard.after.as_ref().map(|key| to_hex(key)),
                    "rows": shard.rows,
                    "done": shard.done,
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&json!({ "migration": self.migration, "shards": shards }))
            .expect("JSON of strings and numbers");
        let temporary = path.with_extension("tmp");
        write_private(&temporary, (text + "\n").as_bytes())
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|e| MigrateError::checkpoint(path, format!("cannot be written: {e}")))?;
        self.saved = Instant::now();
        Ok(())
    }
}

/// Writes `bytes` to `path`, created or truncated, readable by its owner alone: the mode is
/// set at creation, so no other user can open the file before it is narrowed, and set again
/// for a file left by an earlier run with a wider one.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        let mut file = options.open(path)?;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        file.write_all(bytes)
    }
    #[cfg(not(unix))]
    {
        options.open(path)?.write_all(bytes)
    }
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(text: &str) -> Option<Key> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| text.get(i..i + 2).and_then(|pair| u8::from_str_radix(pair, 16).ok()))
        .collect::<Option<Vec<u8>>>()
        .map(Key::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_checkpoint_reads_back_and_refuses_another_migration() {
        let dir = std::env::temp_dir().join(format!("rowkey-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("copy.json");
        let _ = std::fs::remove_file(&path);
        use std::ops::Bound::{Excluded, Included, Unbounded};
        let m = || Key::from("m");
        let shards = [KeyRange::new(Unbounded, Excluded(m())), KeyRange::new(Included(m()), Unbounded)];
        let mut checkpoint = Checkpoint::open(Some(&path), "one", &shards).unwrap();
        checkpoint.advance(1, Key::from(&b"q\x00\xff"[..]), 7).unwrap();
        checkpoint.finish(0).unwrap();
        let again = Checkpoint::open(Some(&path), "one", &shards).unwrap();
        assert_eq!(again.shards[0], ShardState { range: shards[0].clone(), after: None, rows: 0, done: true });
        assert_eq!(again.shards[1].after.as_deref(), Some(&b"q\x00\xff"[..]));
        assert_eq!(again.shards[1].remaining(), KeyRange::new(Excluded(Key::from(&b"q\x00\xff"[..])), Unbounded));
        let Err(err) = Checkpoint::open(Some(&path), "two", &shards) else { panic!("another migration's file") };
        assert!(err.to_string().contains("belongs to another migration"), "{err}");
        std::fs::write(&path, "{").unwrap();
        let Err(err) = Checkpoint::open(Some(&path), "one", &shards) else { panic!("not JSON") };
        assert!(err.to_string().contains("is not a checkpoint"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn only_the_owner_can_read_the_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("rowkey-checkpoint-mode-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("copy.json");
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        // A temporary file an earlier run left, readable by all: the save narrows it.
        std::fs::write(path.with_extension("tmp"), "left over").unwrap();
        std::fs::set_permissions(path.with_extension("tmp"), std::fs::Permissions::from_mode(0o644)).unwrap();
        let mut checkpoint = Checkpoint::open(Some(&path), "one", &[KeyRange::all()]).unwrap();
        checkpoint.save().unwrap();
        assert_eq!(mode(&path), 0o600, "a new file");
        assert!(!path.with_extension("tmp").exists(), "the temporary file is renamed");
        // A file made wider by hand is narrowed again by the next save.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        checkpoint.advance(0, Key::from("k"), 1).unwrap();
        checkpoint.save().unwrap();
        assert_eq!(mode(&path), 0o600, "a file saved again");
        // What the temporary file is created with, before it is renamed over the file.
        let probe = dir.join("probe.tmp");
        write_private(&probe, b"x").unwrap();
        assert_eq!(mode(&probe), 0o600, "a fresh temporary file");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
