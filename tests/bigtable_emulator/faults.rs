//! The scenarios again, through a proxy that cuts, stalls and refuses connections on a seeded
//! schedule: every query must still return exactly the brute-force rows, in order, once each,
//! and every write must land exactly once (checked by reading past the proxy).

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures_util::TryStreamExt;
use rowkey::bigtable::bigtable_rs::bigtable::BigTableConnection;
use rowkey::bigtable::{Config, Error, FailReason, ReadOptions, Retry, Table, set_cell};
use rowkey::{Key, KeyRange};

use crate::FAMILY;
use crate::emulator::{Emulator, INSTANCE, PROJECT};
use crate::proxy::{Faults, Proxy};
use crate::scenarios::{self, Summary};

/// Retries generous enough to outlast the proxy, waits short enough for a test, a row timeout
/// shorter than most stalls, and small batches so that cuts land between and inside them.
pub fn flaky() -> Config {
    let backoff = |retry: Retry| retry.backoff(Duration::from_millis(5), 2.0, Duration::from_millis(250));
    Config::default()
        .reads(backoff(Retry::reads().attempts(40).within(Duration::from_secs(120))))
        .writes(backoff(Retry::writes().attempts(40).within(Duration::from_secs(120))))
        .row_timeout(Duration::from_millis(800))
        .batch_rows(64)
        .batches_in_flight(4)
}

pub fn connect(host: &str) -> BigTableConnection {
    BigTableConnection::new_with_emulator(host, PROJECT, INSTANCE, false, 1, Some(Duration::from_secs(60)))
        .expect("a client")
}

/// Reads `table` past the proxy: each of the `rows` rows written is there once, with one cell.
async fn landed_once(table: &Table, summary: &Summary, what: &str) {
    let rows = table.read_rows(&KeyRange::all().into(), &ReadOptions::new()).await.expect("a direct read");
    assert_eq!(rows.len(), summary.rows, "{what}: rows in the table");
    for row in &rows {
        assert_eq!(row.cells.len(), 1, "{what}: row {} has {} cells", row.key, row.cells.len());
    }
}

/// Every scenario through the proxy with each seed.
pub async fn scenarios_through_faults(emulator: &Emulator, direct: &BigTableConnection, seeds: &[u64]) {
    let count = |n: &std::sync::atomic::AtomicUsize| n.load(Ordering::Relaxed);
    let (mut refused, mut stalled) = (0, 0);
    for &seed in seeds {
        let started = Instant::now();
        let proxy = Proxy::start(emulator.addr(), Faults::Seeded(seed)).await;
        let flaky_connection = connect(&proxy.host());
        let mut summary = Summary::default();
        for name in ["ordered", "delimited", "salted_ordered", "salted_delimited"] {
            let table = format!("{name}_faults_{seed}");
            emulator.create_table(&table, FAMILY);
            let flaky_table = Table::new(flaky_connection.client(), &table).with_config(flaky());
            let done = match name {
                "ordered" => scenarios::ordered(&flaky_table).await,
                "delimited" => scenarios::delimited(&flaky_table).await,
                "salted_ordered" => scenarios::salted_ordered(&flaky_table).await,
                _ => scenarios::salted_delimited(&flaky_table).await,
            };
            landed_once(&Table::new(direct.client(), &table), &done, name).await;
            summary.add(&done);
        }
        // A seed that broke nothing would prove nothing; each kind of fault must have met the
        // scenarios under some seed (a seed makes a dozen connections or more, one in ten
        // refused, so a single seed may refuse none).
        let stats = &proxy.stats;
        assert!(count(&stats.cut) > 0, "seed {seed} cut no connection: {}", stats.summary());
        refused += count(&stats.refused);
        stalled += count(&stats.stalled);
        eprintln!(
            "faults, seed {seed}: {} rows written, {} queries checked, {} rows compared through {} in {:?}",
            summary.rows,
            summary.queries,
            summary.compared,
            proxy.stats.summary(),
            started.elapsed()
        );
    }
    if seeds.len() >= 5 {
        assert!(refused > 0 && stalled > 0, "the seeds refused {refused} connections and stalled {stalled}");
    }
}

/// What no retry fixes surfaces at once; what retries cannot get through surfaces when they
/// run out; writes that are not idempotent are never retried.
pub async fn failures(emulator: &Emulator, direct: &BigTableConnection) {
    let missing = Table::new(direct.client(), "no_such_table");
    let error = missing.read_rows(&KeyRange::all().into(), &ReadOptions::new()).await.expect_err("a missing table");
    assert!(
        matches!(error, Error::Read { reached: None, attempts: 1, retryable: false, .. }),
        "a missing table is not retried: {error}"
    );
    paged_limits_and_a_table_gone_mid_read(emulator, direct).await;

    emulator.create_table("refused", FAMILY);
    let proxy = Proxy::start(emulator.addr(), Faults::RefuseAll).await;
    let connection = connect(&proxy.host());
    let fast = |retry: Retry| retry.attempts(3).backoff(Duration::from_millis(1), 2.0, Duration::from_millis(5));
    let config = Config::default().reads(fast(Retry::reads())).writes(fast(Retry::writes()));
    let table = Table::new(connection.client(), "refused").with_config(config);

    let error = table.read_rows(&KeyRange::all().into(), &ReadOptions::new()).await.expect_err("no connection");
    assert!(
        matches!(error, Error::Read { reached: None, attempts: 3, retryable: true, .. }),
        "three attempts, then the error: {error}"
    );
    assert!(error.to_string().contains("retries ran out"), "{error}");

    let refused_before = proxy.stats.refused.load(Ordering::Relaxed);
    let server_time = [("a".into(), vec![set_cell(FAMILY, "q", "v", -1)])];
    let error = table.write_rows(server_time).await.expect_err("no connection");
    let Error::Write { written: 0, failed, .. } = &error else { panic!("{error}") };
    assert_eq!(failed[0].reason, FailReason::NotIdempotent, "{error}");
    assert!(error.to_string().contains("explicit timestamp"), "{error}");
    // One attempt, where the idempotent write below makes three.
    let refused = proxy.stats.refused.load(Ordering::Relaxed) - refused_before;
    assert_eq!(refused, 1, "a server-timestamped write is sent once, never retried");
    let refused_before = proxy.stats.refused.load(Ordering::Relaxed);

    let explicit = [("a".into(), vec![set_cell(FAMILY, "q", "v", 1000)])];
    let error = table.write_rows(explicit).await.expect_err("no connection");
    let Error::Write { written: 0, failed, .. } = &error else { panic!("{error}") };
    assert_eq!(failed[0].reason, FailReason::OutOfRetries, "{error}");
    let refused = proxy.stats.refused.load(Ordering::Relaxed) - refused_before;
    assert!(refused >= 3, "three attempts, each a connection refused: {refused}");
    eprintln!("failures: {error}");
}

/// A read in pages keeps its row limit across requests (a resumed read takes the same path:
/// the rest of the ranges, the limit less what was delivered), and a status that no retry
/// fixes, met between pages, ends the read at once with the last row it delivered.
async fn paged_limits_and_a_table_gone_mid_read(emulator: &Emulator, direct: &BigTableConnection) {
    emulator.create_table("pages", FAMILY);
    let table = Table::new(direct.client(), "pages").with_config(Config::default().page_rows(Some(10)));
    let keys: Vec<Key> = (0..30u8).map(|i| Key::from(vec![b'r', i])).collect();
    let rows = keys.iter().map(|key| (key.clone(), vec![set_cell(FAMILY, "q", "v", 1_000)]));
    assert_eq!(table.write_rows(rows).await.expect("MutateRows"), 30);

    for limit in [1, 9, 10, 11, 25, 30, 31] {
        let read = table.read_rows(&KeyRange::all().into(), &ReadOptions::new().limit(limit)).await.expect("ReadRows");
        let got: Vec<&Key> = read.iter().map(|row| &row.key).collect();
        let want: Vec<&Key> = keys.iter().take(limit.try_into().expect("small")).collect();
        assert_eq!(got, want, "limit {limit} over pages of 10 rows");
    }

    let mut stream = table.stream_rows(&KeyRange::all().into(), &ReadOptions::new());
    for key in &keys[..10] {
        let row = stream.try_next().await.expect("a row").expect("not the end");
        assert_eq!(&row.key, key);
    }
    emulator.cbt(&["deletetable", "pages"]);
    let error = stream.try_next().await.expect_err("the table is gone");
    let Error::Read { reached: Some(reached), attempts: 1, retryable: false, .. } = &error else {
        panic!("NOT_FOUND is not retried and names the row reached: {error}");
    };
    assert_eq!(reached, &keys[9], "{error}");
    assert!(error.to_string().contains(&keys[9].to_string()), "the message names the row reached: {error}");
}
