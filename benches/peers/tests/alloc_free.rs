//! A performance target: a key that fits `Key`'s inline capacity costs no heap allocation to encode (as
//! a tuple, a derived key or through serde), to re-encode into a reused `Key`, or to turn into
//! the scan range of a 2-field prefix; a borrowing decode allocates nothing either. The same
//! holds for the FoundationDB tuple and HBase formats on the peer bench's fields, but for two
//! cases: a byte string the tuple layer escaped, which a borrowing decode copies, and HBase's
//! encode of a key whose last field is a byte string (the wide key), which is not tested here.
//!
//! This lives in the peers package rather than the root one because counting allocations
//! needs a `GlobalAlloc` impl, which is `unsafe`, and the root crate forbids `unsafe_code` for
//! every target (a `forbid` from Cargo.toml cannot be lifted by an `allow` in a test file).
//!
//! Run with `cargo test --manifest-path benches/peers/Cargo.toml`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use rowkey::format::{FdbTuple, HBase};
use rowkey::scan::OrderedScan;
use rowkey::{Key, RowKey};
use rowkey_peers::{Device, DeviceRef, Subject, Wide, devices, wides};

/// The system allocator, counting the allocations of threads that asked to be counted.
///
/// The count is per thread because the test harness runs tests on parallel threads: a
/// process-wide counter would charge one test with another's allocations.
struct Counting;

thread_local! {
    // Both are `const` and need no destructor, so reading them from inside the allocator
    // never allocates and never touches a torn-down slot.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn record() {
    // `try_with`: never panic inside the allocator, even while a thread is exiting.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
        }
    });
}

#[allow(unsafe_code)]
// SAFETY: every method forwards to `System` with the caller's own arguments, so `System`'s
// guarantees are this allocator's; the counting beside it touches no allocator state.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record();
        // SAFETY: the caller upholds `alloc`'s contract (a non-zero-sized layout), passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record();
        // SAFETY: `ptr` came from this allocator, which is `System`, with `layout`; the caller
        // upholds the rest of `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, which is `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many allocations (and reallocations) `f` made on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_allocations() {
    // Without these, the zero counts below could come from a counter that counts nothing.
    assert_eq!(allocations(|| drop(black_box(vec![1u8; 4]))), 1);
    // And in rowkey's own code: a key past the inline capacity moves to the heap once.
    let long = "x".repeat(rowkey::key::INLINE_CAPACITY);
    assert_eq!(allocations(|| drop(black_box((long.as_str(), 1u8).to_key().unwrap()))), 1);
}

#[test]
fn encoding_the_device_key_does_not_allocate() {
    let inputs = devices();
    assert!(inputs.iter().all(|d| d.to_key().unwrap().len() <= rowkey::key::INLINE_CAPACITY));
    let mut reused = Key::new();
    for d in &inputs {
        let tuple = (d.kind.as_str(), d.id.as_str(), d.millis);
        assert_eq!(allocations(|| drop(black_box(tuple.to_key().unwrap()))), 0, "tuple to_key {d:?}");
        assert_eq!(allocations(|| tuple.encode_into(&mut reused).unwrap()), 0, "tuple encode_into {d:?}");
        assert_eq!(allocations(|| drop(black_box(d.to_key().unwrap()))), 0, "derived to_key {d:?}");
        assert_eq!(allocations(|| d.encode_into(&mut reused).unwrap()), 0, "derived encode_into {d:?}");
        black_box(&reused);
    }
}

#[test]
fn encoding_the_device_key_through_serde_does_not_allocate() {
    let mut reused = Key::new();
    for d in &devices() {
        assert_eq!(allocations(|| drop(black_box(rowkey::to_key(d).unwrap()))), 0, "to_key {d:?}");
        assert_eq!(allocations(|| rowkey::to_key_into(d, &mut reused).unwrap()), 0, "to_key_into {d:?}");
        black_box(&reused);
    }
}

#[test]
fn a_two_field_prefix_range_does_not_allocate() {
    for d in &devices() {
        let by_hand = allocations(|| {
            let mut scan = OrderedScan::for_key::<Device>();
            scan.fix(d.kind.as_str()).unwrap().fix(d.id.as_str()).unwrap();
            drop(black_box(scan.ranges()));
        });
        assert_eq!(by_hand, 0, "OrderedScan {d:?}");
        let derived = allocations(|| drop(black_box(Device::scan().kind(&d.kind).id(&d.id).ranges().unwrap())));
        assert_eq!(derived, 0, "Device::scan() {d:?}");
    }
}

#[test]
fn decoding_allocates_only_the_owned_strings() {
    for d in &devices() {
        let key = d.to_key().unwrap();
        let borrowed = allocations(|| {
            black_box(DeviceRef::from_key(&key).unwrap());
        });
        assert_eq!(borrowed, 0, "borrowed {d:?}");
        let tuple = allocations(|| {
            black_box(<(&str, &str, i64)>::from_key(&key).unwrap());
        });
        assert_eq!(tuple, 0, "borrowed tuple {d:?}");
        // One allocation per `String` field, none for the framing.
        assert_eq!(allocations(|| drop(black_box(Device::from_key(&key).unwrap()))), 2, "owned {d:?}");
    }
}

#[test]
fn the_store_formats_write_and_borrow_the_device_key_without_allocating() {
    let (fdb, mut reused) = (FdbTuple::default(), Key::new());
    for d in &devices() {
        let fields = d.fdb_fields();
        assert_eq!(allocations(|| fdb.encode_into(&fields, &mut reused).unwrap()), 0, "FdbTuple encode_into {d:?}");
        let key = reused.clone();
        let borrowed = allocations(|| {
            black_box(fdb.from_key::<<Device as Subject>::FdbBorrowed<'_>>(&key).unwrap());
        });
        assert_eq!(borrowed, 0, "FdbTuple borrowed from_key {d:?}");
        let fields = d.fields();
        assert_eq!(allocations(|| HBase.encode_into(&fields, &mut reused).unwrap()), 0, "HBase encode_into {d:?}");
        let key = reused.clone();
        let borrowed = allocations(|| {
            black_box(HBase.from_key::<<Device as Subject>::HBaseBorrowed<'_>>(&key).unwrap());
        });
        assert_eq!(borrowed, 0, "HBase borrowed from_key {d:?}");
    }
}

#[test]
fn the_fdb_format_writes_the_wide_key_and_both_formats_borrow_it_without_allocating() {
    let (fdb, mut reused) = (FdbTuple::default(), Key::new());
    let inputs = wides();
    // Both cases occur: a tag with a 00, which the tuple layer escapes, and one without.
    let escaped = inputs.iter().filter(|w| w.tag.contains(&0)).count();
    assert!(escaped > 0 && escaped < inputs.len(), "{escaped} of {} tags hold a 00", inputs.len());
    for w in &inputs {
        let fields = w.fdb_fields();
        assert_eq!(allocations(|| fdb.encode_into(&fields, &mut reused).unwrap()), 0, "FdbTuple encode_into {w:?}");
        let key = reused.clone();
        // The tag is a `Cow<[u8]>`, borrowed unless the tuple layer escaped a 00 in it.
        let borrowed =
            allocations(|| drop(black_box(fdb.from_key::<<Wide as Subject>::FdbBorrowed<'_>>(&key).unwrap())));
        if !w.tag.contains(&0) {
            assert_eq!(borrowed, 0, "FdbTuple borrowed from_key {w:?}");
        }
        // Not HBase's encode: it writes a byte string as OrderedBlobVar, then rewrites the
        // last field as OrderedBlob through a temporary vector.
        let key = HBase.to_key(&w.fields()).unwrap();
        let borrowed = allocations(|| {
            black_box(HBase.from_key::<<Wide as Subject>::HBaseBorrowed<'_>>(&key).unwrap());
        });
        assert_eq!(borrowed, 0, "HBase borrowed from_key {w:?}");
    }
}
