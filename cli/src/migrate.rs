//! `rowkey migrate`: move a Bigtable table to a new key design. `plan` shows the field mapping
//! and the new table's splits, `run` copies every row under its new key (resumable from a
//! checkpoint file), `verify` compares the two tables.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::migrate::{MigrateError, Migration};
use rowkey::bigtable::{ReadOptions, Table};
use rowkey::rekey::{Rekey, Source};
use rowkey::schema::Schema;
use rowkey::splits::Splits;
use rowkey::{Key, KeyRange};

use crate::{Failure, input, reveal};

mod estimate;

/// Move a table to a new key design: plan the mapping, copy the rows, verify the copy.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    step: Step,
}

#[derive(clap::Subcommand)]
enum Step {
    Plan(Plan),
    Run(Run),
    Verify(Verify),
}

/// The two designs and how the old fields become the new ones.
#[derive(clap::Args)]
struct Mapping {
    /// The old design's schema file (`T::SCHEMA.to_json()`).
    #[arg(long)]
    from: PathBuf,
    /// The new design's schema file.
    #[arg(long)]
    to: PathBuf,
    /// An old field that is a new field of another name: `old=new` (repeatable).
    #[arg(long, value_name = "OLD=NEW")]
    rename: Vec<String>,
    /// A value for a new field the old design lacks: `field=value`, written as `rowkey
    /// encode` takes it (repeatable).
    #[arg(long, value_name = "FIELD=VALUE")]
    default: Vec<String>,
    /// Let old fields that no new field takes go: rows that differ only in them merge into
    /// one, holding the cells of all (where two hold a cell of the same column and
    /// timestamp, the one written last stays).
    #[arg(long)]
    merge_rows: bool,
    /// An old field the new key drops because the fields it keeps decide it (a device's type,
    /// given its id): no rows merge; `verify` reports any that did (repeatable).
    #[arg(long, value_name = "FIELD")]
    drop_derived: Vec<String>,
}

/// Where the tables are: an instance (application default credentials), or the emulator at
/// `BIGTABLE_EMULATOR_HOST`.
#[derive(clap::Args)]
struct Instance {
    /// The Google Cloud project.
    #[arg(long)]
    project: String,
    /// The Bigtable instance.
    #[arg(long)]
    instance: String,
}

/// The two tables of a copy, and where they are.
#[derive(clap::Args)]
struct Tables {
    #[command(flatten)]
    instance: Instance,
    /// The old table.
    #[arg(long)]
    source: String,
    /// The new table.
    #[arg(long)]
    target: String,
}

/// Show the field mapping, what cannot be mapped, the new table's initial splits and, given
/// the old table, its rows and splits from its sample of keys.
#[derive(clap::Args)]
#[command(after_help = "A default for a field marked sensitive, and split points from the old table's sample
when the new key has such a field (or takes one of the old key's), are printed only with
--reveal.

Exit status: 0 when the mapping works; 2 when it cannot (one line naming every fault).

Example:
  rowkey migrate plan --from by_time.json --to reading.json --rename device=device_id")]
struct Plan {
    #[command(flatten)]
    mapping: Mapping,
    /// The old table, for a row estimate from a sample of it (with `--project` and
    /// `--instance`).
    #[arg(long, requires_all = ["project", "instance"])]
    source: Option<String>,
    /// The Google Cloud project of the old table.
    #[arg(long)]
    project: Option<String>,
    /// The Bigtable instance of the old table.
    #[arg(long)]
    instance: Option<String>,
    /// Count the old table's rows when it holds at most this many; estimate them from its
    /// sample of keys otherwise.
    #[arg(long, default_value_t = 100_000)]
    count_limit: u64,
    /// Print the values of fields marked sensitive: a default given for one, and the split
    /// points from the old table's sample (new keys of its rows).
    #[arg(long)]
    reveal: bool,
}

/// Copy every row of the old table into the new one under its new key, every cell unchanged.
#[derive(clap::Args)]
#[command(after_help = "Progress is kept in the checkpoint file: run the same command again after a stop and it
continues where the last acknowledged write left off. Writing a row again writes the same
cells, so no row is ever doubled. Both tables must exist; create the new one with the
splits `rowkey migrate plan` prints.

Exit status: 0 when every row is copied; 1 when a read or write fails for good (the
checkpoint keeps what was copied); 2 for bad input (a mapping that cannot work, a missing
table, a checkpoint of another migration), before anything is written.

Example:
  BIGTABLE_EMULATOR_HOST=localhost:8086 rowkey migrate run --project p --instance i \\
      --from by_time.json --to reading.json --source readings --target readings_v2 \\
      --checkpoint readings.checkpoint.json")]
struct Run {
    #[command(flatten)]
    mapping: Mapping,
    #[command(flatten)]
    tables: Tables,
    /// The checkpoint file: created on the first run, continued from on the next.
    #[arg(long)]
    checkpoint: PathBuf,
    /// Shards of the old table (its salt buckets when salted, else cut at its own sample of
    /// keys).
    #[arg(long, default_value_t = 16)]
    shards: usize,
    /// Shards copied at once.
    #[arg(long, default_value_t = 4)]
    at_once: usize,
    /// Rows read before each write.
    #[arg(long, default_value_t = 500)]
    batch_rows: usize,
    /// Skip counting the old table's rows first (no ETA then).
    #[arg(long)]
    no_count: bool,
}

/// Compare the old table with the new: row counts, then every row's cells (or a sample).
#[derive(clap::Args)]
#[command(after_help = "Prints the counts, then each missing, differing or extra row with its key in both designs.

Exit status: 0 when the tables agree; 1 when any row is missing, differs or is extra, when
the row counts differ though no rows may merge (or more new rows than old where they may), or
when a read fails; 2 for bad input.

With a field dropped (--drop-derived, --merge-rows) a new key has no way back to its old key:
extra rows are found by holding the new key of every old row in memory.")]
struct Verify {
    #[command(flatten)]
    mapping: Mapping,
    #[command(flatten)]
    tables: Tables,
    /// Compare the cells of about this many rows of each shard, not of every row.
    #[arg(long)]
    sample: Option<u64>,
    /// Shards of the old table, compared at once.
    #[arg(long, default_value_t = 16)]
    shards: usize,
}

pub fn run(args: Args) -> Result<u8, Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure::input(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(async {
        match args.step {
            Step::Plan(plan) => run_plan(plan).await,
            Step::Run(copy) => run_copy(copy).await,
            Step::Verify(verify) => run_verify(verify).await,
        }
    })
}

/// The re-keying the mapping arguments describe.
fn rekey(mapping: &Mapping) -> Result<Rekey, Failure> {
    let from: &'static Schema = input::schema(&mapping.from)?;
    let to: &'static Schema = input::schema(&mapping.to)?;
    let mut builder = Rekey::builder(from, to);
    for pair in &mapping.rename {
        let (old, new) =
            pair.split_once('=').ok_or_else(|| Failure::input(format!("--rename {pair}: write it as OLD=NEW")))?;
        builder = builder.rename(old, new);
    }
    for pair in &mapping.default {
        let (field, value) =
            // A default is often a sensitive field's value: the message says what is wrong
            // without echoing it.
            pair.split_once('=').ok_or_else(|| {
                Failure::input("--default takes FIELD=VALUE, and this one has no `=`; write it as FIELD=VALUE")
            })?;
        builder = builder.default(field, value);
    }
    if mapping.merge_rows {
        builder = builder.merge_rows();
    }
    for field in &mapping.drop_derived {
        builder = builder.drop_derived(field);
    }
    builder.build().map_err(|e| Failure::input(e.to_string()))
}

async fn connect(instance: &Instance) -> Result<BigTableConnection, Failure> {
    BigTableConnection::new(&instance.project, &instance.instance, false, 4, Some(Duration::from_secs(60)))
        .await
        .map_err(|e| {
            Failure::input(format!("cannot connect to instance {} of {}: {e}", instance.instance, instance.project))
        })
}

/// The table, once a read of one row shows that it exists.
async fn existing(connection: &BigTableConnection, name: &str, role: &str) -> Result<Table, Failure> {
    let table = Table::new(connection.client(), name);
    match table.read_rows(&KeyRange::all().into(), &ReadOptions::new().limit(1)).await {
        Ok(_) => Ok(table),
        Err(rowkey::bigtable::Error::Read { code: 5, .. }) => Err(Failure::input(format!(
            "the {role} table `{name}` does not exist in this instance; nothing was written"
        ))),
        Err(e) => Err(Failure { message: format!("reading the {role} table `{name}`: {e}"), status: 1 }),
    }
}

async fn run_plan(plan: Plan) -> Result<u8, Failure> {
    let rekey = rekey(&plan.mapping)?;
    let (from, to) = (rekey.from_schema(), rekey.to_schema());
    println!("from: {from}");
    println!("to:   {to}");
    println!("mapping:");
    // The mapping as `Rekey`'s Display writes it (a sensitive field's default redacted),
    // unless the values are asked for; renames marked.
    let shown = rekey.to_string();
    for ((field, source), line) in rekey.mapping().zip(shown.lines()) {
        match source {
            Source::Field(old) if *old != field.name => println!("  {line} (renamed)"),
            Source::Fixed(_) if plan.reveal => println!("  {} <- {source}", field.name),
            _ => println!("  {line}"),
        }
    }
    match rekey.dropped() {
        [] => println!("every old field is kept: each new row comes from one old row"),
        dropped if rekey.merges_rows() => {
            println!("dropped, rows that differ only there merge: {}", dropped.join(", "))
        }
        dropped => println!("dropped as decided by the kept fields (no rows merge): {}", dropped.join(", ")),
    }
    match to.split_planner().plan() {
        Ok(splits) if !splits.is_empty() => {
            println!("new table's initial splits ({} points, at the salt's buckets):", splits.len());
            print_splits(&splits);
        }
        _ => println!("new table's initial splits: none from the design alone (it has no salt); split on a sample"),
    }
    if let (Some(source), Some(project), Some(instance)) = (&plan.source, plan.project, plan.instance) {
        let connection = connect(&Instance { project, instance }).await?;
        let table = existing(&connection, source, "old").await?;
        let read_failed = |e: rowkey::bigtable::Error| Failure { message: e.to_string(), status: 1 };
        let sampled = table.sample().await.map_err(read_failed)?;
        let rows = estimate::rows(&table, &sampled, plan.count_limit).await.map_err(read_failed)?;
        println!("rows in `{source}`: {rows}");
        let sample: Vec<Key> = sampled.into_iter().map(|s| s.key).filter(|key| !key.is_empty()).collect();
        let first = table
            .read_rows(&KeyRange::all().into(), &ReadOptions::new().limit(1_000))
            .await
            .map_err(|e| Failure { message: e.to_string(), status: 1 })?;
        let rows = first;
        let unkeyable = rows.iter().filter(|row| rekey.rekey(&row.key).is_err()).count();
        if unkeyable > 0 {
            println!(
                "warning: {unkeyable} of the first {} rows cannot be re-keyed (not keys of the old design)",
                rows.len()
            );
        }
        let new_points: Vec<Key> = sample.iter().filter_map(|key| rekey.rekey(key).ok()).collect();
        if to.salt.is_none() && !new_points.is_empty() {
            let splits = Splits::from_sample(new_points, sample.len() + 1);
            let what = format!("new table's initial splits from the old table's sample ({} points)", splits.len());
            let sensitive = sensitive_in_new_keys(&rekey);
            if plan.reveal || sensitive.is_empty() {
                println!("{what}:");
                print_splits(&splits);
            } else {
                println!("{what}: {}", reveal::withheld("a split point", &sensitive).message);
            }
        }
    }
    Ok(0)
}

/// The fields of the new key that hold a sensitive value: those marked so in the new design,
/// and those that take an old field marked so.
fn sensitive_in_new_keys(rekey: &Rekey) -> Vec<&'static str> {
    let mut fields = reveal::sensitive_fields(rekey.to_schema());
    let old = reveal::sensitive_fields(rekey.from_schema());
    for (field, source) in rekey.mapping() {
        if matches!(source, Source::Field(name) if old.contains(name)) && !fields.contains(&field.name) {
            fields.push(field.name);
        }
    }
    fields
}

fn print_splits(splits: &Splits) {
    match splits.to_cbt_arg() {
        Ok(arg) => println!("  cbt createtable NEW families=... {arg}"),
        Err(_) => println!("  {}", splits.to_bigtable_json()),
    }
}

/// The migration of `run` and `verify`: shards from the old salt or the old table's sample.
async fn migration(rekey: Rekey, tables: &Tables, shards: usize) -> Result<Migration, Failure> {
    if tables.source == tables.target {
        // Copied into itself, every row is written again under its new key beside the old one,
        // and a shard may read its own writes.
        return Err(Failure::input(format!(
            "--source and --target are both `{}`: a move reads one table and writes another (into its own \
             source it would double every row); give the new table as --target",
            tables.source
        )));
    }
    let connection = connect(&tables.instance).await?;
    let old = existing(&connection, &tables.source, "old").await?;
    let new = existing(&connection, &tables.target, "new").await?;
    let salted = rekey.from_schema().salt.is_some();
    let migration = Migration::new(old, new, rekey);
    if salted {
        return Ok(migration);
    }
    migration.sample_shards(shards).await.map_err(failure)
}

fn failure(e: MigrateError) -> Failure {
    match e {
        MigrateError::Checkpoint { .. } | MigrateError::Query(_) => Failure::input(e.to_string()),
        _ => Failure { message: e.to_string(), status: 1 },
    }
}

async fn run_copy(args: Run) -> Result<u8, Failure> {
    let rekey = rekey(&args.mapping)?;
    let migration = migration(rekey, &args.tables, args.shards)
        .await?
        .checkpoint(&args.checkpoint)
        .shards_at_once(args.at_once)
        .batch_rows(args.batch_rows);
    // A checkpoint of another migration is refused before anything is read or written.
    let done = migration.progress().map_err(failure)?;
    let bars = Bars::new(done.len());
    if !args.no_count {
        bars.total.set_message("counting the old table's rows");
        let counts = migration.count_rows().await.map_err(failure)?;
        bars.set_lengths(&counts);
    }
    for progress in &done {
        bars.update(progress.shard, progress.rows, progress.done);
    }
    let reporter = bars.clone();
    let migration = migration.on_progress(move |p| reporter.update(p.shard, p.rows, p.done));
    let summary = migration.run().await.map_err(failure);
    bars.finish();
    let summary = summary?;
    println!("{summary}");
    Ok(0)
}

async fn run_verify(args: Verify) -> Result<u8, Failure> {
    let rekey = rekey(&args.mapping)?;
    let migration = migration(rekey, &args.tables, args.shards).await?;
    let report = migration.verify(args.sample).await.map_err(failure)?;
    println!("{report}");
    Ok(if report.is_clean() { 0 } else { 1 })
}

/// One progress bar per shard and one for the whole copy, on standard error when it is a
/// terminal.
#[derive(Clone)]
struct Bars {
    total: ProgressBar,
    shards: Arc<Vec<ProgressBar>>,
    rows: Arc<Mutex<HashMap<usize, u64>>>,
    _multi: MultiProgress,
}

impl Bars {
    fn new(shards: usize) -> Bars {
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{prefix:>9} {bar:30} {pos}/{len} rows, {per_sec}, eta {eta} {msg}")
            .expect("a valid template");
        let total = multi.add(ProgressBar::no_length().with_style(style.clone()).with_prefix("all"));
        let bars = (0..shards)
            .map(|i| multi.add(ProgressBar::no_length().with_style(style.clone()).with_prefix(format!("shard {i}"))))
            .collect();
        Bars { total, shards: Arc::new(bars), rows: Arc::new(Mutex::new(HashMap::new())), _multi: multi }
    }

    fn set_lengths(&self, counts: &[u64]) {
        for (bar, &count) in self.shards.iter().zip(counts) {
            bar.set_length(count);
        }
        self.total.set_length(counts.iter().sum());
        self.total.set_message("");
    }

    fn update(&self, shard: usize, rows: u64, done: bool) {
        let bar = &self.shards[shard];
        bar.set_position(rows);
        if done {
            bar.finish_with_message("done");
        }
        let mut all = self.rows.lock().expect("no update panicked");
        all.insert(shard, rows);
        self.total.set_position(all.values().sum());
    }

    fn finish(&self) {
        self.total.finish();
    }
}
