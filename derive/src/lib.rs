//! `#[derive(RowKey)]` for the `rowkey` crate. Use it through `rowkey`, which re-exports it
//! as `rowkey::RowKey`.
//!
//! The work is done in `rowkey-derive-core`, a library that the Python package also uses to
//! hold keys declared at run time to the same rules; this crate is the macro's entry.

use proc_macro::TokenStream;

/// Derives `RowKey` for a struct with named fields: the fields, in declaration order, are the
/// key's fields. (The example is not run here, where `rowkey` is not a dependency; the
/// `rowkey` crate's `tests/derive_keys.rs` checks this key.)
///
/// ```ignore
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// #[rowkey(delimited = "#", salt(buckets = 16, from = [device_id]))]
/// struct Reading {
///     device_type: String,
///     device_id: String,
///     #[rowkey(reverse)] // newest first: i64::MAX - ts
///     ts_millis: i64,
/// }
///
/// let reading = Reading { device_type: "phone".into(), device_id: "4c410523".into(), ts_millis: 1_588_291_200_000 };
/// let key = reading.to_key()?;
/// assert_eq!(key, "01#phone#4c410523#9223370448563575807"); // bucket 1 of 16
/// let back = Reading::from_key(&key)?;
/// println!("{}", Reading::SCHEMA);
/// ```
///
/// Generated: `RowKey` (`encode_into`, `to_key`, `from_key`); the format's key trait
/// (`FormatKey<'de, F>` of its format `F`), so the key can be flattened into another of its
/// format or written with the format's own API; a typed scan
/// builder, `T::scan()`; and `SCHEMA`, a `rowkey::schema::Schema` (also through the
/// `KeySchema` trait).
///
/// # Struct attributes
///
/// | attribute | meaning |
/// |---|---|
/// | `ordered` | the ordered binary format, Bigtable's `OrderedCodeBytes` (the default) |
/// | `delimited = "#"` | text fields joined by the delimiter, Bigtable's `DelimitedBytes` |
/// | `fdb_tuple` | FoundationDB's tuple layer, what every FoundationDB binding packs; no `desc` |
/// | `memcomparable` | the bytes of the `memcomparable` crate (RisingWave's): fixed-width integers, text in 9-byte groups |
/// | `hbase` | HBase's `OrderedBytes`, what its `Ordered*` data types and `Struct` write |
/// | `format = path::Layout` | a format of your own: a type that implements `rowkey::format::KeyFormat` (and `Default`), and `rowkey::scan::StoreFormat` for the scan builder. Its prefix is what its writer's `prefix` writes (raw bytes, as a rule); a salt's bucket is the format's `u16` (an MD5 salt's, its text), as in the store formats |
/// | `prefix = "user"`, `prefix = b"\xbd\x89"` | a constant first field, text or bytes (a table id, a salt byte); decoding checks it. In `fdb_tuple`, `memcomparable` and `hbase` keys it is raw bytes before the fields, as a subspace's or a table's prefix is |
/// | `salt(buckets = 16, from = [a, b], hash = "farmhash")` | a bucket field after the prefix: FarmHash Fingerprint64 of the source fields' ordered encoding (of their plain values, before any field attribute), with `hash = "modulo"` one integer field's value mod `buckets`, or with `hash = "md5"` (feature `md5`; 16, 256, 4096 or 65536 buckets) the first hex digits of MD5 of that encoding, written as those digits. Decoding recomputes it and refuses a key whose bucket differs. In `fdb_tuple`, `memcomparable` and `hbase` keys the bucket is the format's `u16` (an MD5 salt's digits, its text) |
/// | `max_len = 4096` | the longest key, in bytes (default 4096, Bigtable's limit); longer is `Error::TooLong` |
/// | `allow_hotspot` | silence the hotspot check below |
/// | `crate = "path"` | where the runtime crate is, when it is not `::rowkey` |
///
/// # Field attributes
///
/// | attribute | runtime wrapper | fits |
/// |---|---|---|
/// | `desc` | `Desc` | any type; ordered, memcomparable and HBase formats |
/// | `reverse` | `Reversed` (`MAX - v`) | integers; chrono, time and jiff instants and dates |
/// | `bit_reverse` | `BitReversed` | `i64`, `u64` |
/// | `reverse_domain` | `ReversedDomain` | `String` |
/// | `hex` | `Hex` | integers, `Vec<u8>`, `[u8; N]`; delimited format |
/// | `width = N` | `Padded<T, N>` | integers, `1 <= N <=` the type's digits; delimited format |
/// | `big_endian` | `BigEndian` | integers; every format but delimited |
/// | `nanos` | `Nanos` (nanoseconds rather than microseconds) | chrono, time and jiff instants |
/// | `flatten` | the type's own fields | a struct that derives `RowKey` in the same format |
/// | `rename = "name"` | | the field's name in errors and in `SCHEMA` |
/// | `skip` | | not part of the key; `Default` on decode |
/// | `monotonic` | | the values grow with time (see the hotspot check) |
/// | `numeric` | `Numeric` (HBase's `OrderedNumeric`) | integers and floats; HBase format |
/// | `sensitive` | | personal data: `inspect`, errors and the `rowkey` command never show its value |
/// | `allow_personal_data` | | silences the personal-data warning on the field |
///
/// On an `Option<T>` field the wrapper applies to `T`. A field has at most one of `reverse`,
/// `bit_reverse`, `reverse_domain`, `hex`, `width`, `big_endian`, `nanos` and `numeric`.
///
/// # Compile-time checks
///
/// Every mistake is a compile error on the token to change, saying how; one compile reports
/// all of them. Besides unknown, duplicate and conflicting attributes:
///
/// - **Types are checked by name.** A proc macro sees types as written, so the last path
///   segment decides (`String`, `u32`, `Vec<u8>`, `SystemTime`, ...). A type alias or your
///   own type is not checked: the attributes that need a known type are refused on it, and
///   its schema encoding is `Custom`.
/// - **Delimiters.** In the delimited format, the delimiter's first byte must be below every
///   byte a field can hold where that is known: digits (`0`), the `-` of signed integers, hex
///   digits, the letters of `false`/`true`, the bucket's digits, the prefix's bytes.
/// - **Widths.** `width = 0` fits no value, and a width above the type's digits (10 for
///   `u32`) only adds zeros: both are errors. A narrower width is allowed (an 8-digit date in
///   a `u32`); a value that does not fit it is an encode error.
/// - **Salts.** `from` names key fields; a modulo salt takes one integer field.
/// - **Hotspots.** When the first key field (after the prefix and bucket) is `monotonic`, a
///   timestamp type (`SystemTime`, chrono's `DateTime`/`NaiveDateTime`/`NaiveDate`, time's
///   `OffsetDateTime`/`PrimitiveDateTime`/`UtcDateTime`, jiff's `Timestamp`/`Zoned`,
///   `Instant`), or an integer named like one (its last word one of `ts`, `timestamp`,
///   `time`, `millis`, `micros`, `nanos`, `ms`, `secs`, `epoch`, `at`, or its first word
///   `ts`, `timestamp` or `epoch`: `created_at`, `ts_millis`), every write goes to the
///   tablet at the end of the key space. Unless the key is salted, the field is
///   `bit_reverse`d, or the struct says `allow_hotspot`, that is an error. `reverse` and
///   `desc` do not help: the writes still move together, toward the start.
/// - **Flatten.** A flattened type that does not derive `RowKey` in the same format is one
///   error on the field's type.
///
/// One check is a warning, not an error, since some keys must hold such values:
///
/// - **Personal data.** A text field (`String`, `&str`, `Cow<str>`, or an `Option` of one)
///   named `email`, `email_address`, `phone`, `phone_number`, `mobile`, `ssn`,
///   `social_security_number`, `first_name`, `last_name`, `full_name`, `given_name`,
///   `family_name`, `surname`, `address`, `street_address`, `home_address`, `postal_address`,
///   `birth_date`, `date_of_birth`, `birthday`, `dob`, `passport` or `passport_number`, or whose
///   last word is `email`, `phone`, `ssn`, `dob`, `birthday` or `surname` (`owner_email`), or
///   a bare `name` in a key whose type's last word is `User`, `Person`, `People`, `Customer`,
///   `Member`, `Employee`, `Patient`, `Contact`, `Client`, `Subscriber`, `Student`, `Account`,
///   `Profile`, `Guest` or `Visitor` (`VipCustomer`; not `CustomerVisit`), is
///   written into the key in clear, where logs and monitoring show it. Unless it is marked
///   `sensitive` or `allow_personal_data`, rustc warns at the field (as a use of a deprecated
///   item, the one way a derive can warn on stable Rust; `#[deny(deprecated)]` makes it an
///   error). Key by the value's hash (`rowkey::field::Hashed`) instead, or mark the field.
#[proc_macro_derive(RowKey, attributes(rowkey))]
pub fn derive_row_key(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    rowkey_derive_core::derive(&input).into()
}
