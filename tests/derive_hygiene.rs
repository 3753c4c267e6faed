//! The derive's output is hygienic: it compiles without the prelude, next to items named
//! like its locals and like the prelude's types, with a struct lifetime named `'de`, and with
//! the runtime crate under another name (`crate = "..."`).

extern crate rowkey as rk;

mod no_prelude {
    #![no_implicit_prelude]
    #![allow(non_upper_case_globals, dead_code, non_camel_case_types)]

    // Names the generated code must neither use nor bind: if it wrote `let value = ...` with
    // the call site's hygiene, `value` would be this constant, and the pattern would not compile.
    const value: u8 = 0;
    const w: u8 = 0;
    const r: u8 = 0;
    const out: u8 = 0;
    const bytes: u8 = 0;
    const salt: u8 = 0;
    const source: u8 = 0;
    const bucket: u8 = 0;
    const bucket_at: u8 = 0;
    const prefix_at: u8 = 0;
    const index: u8 = 0;
    const wrapped: u8 = 0;

    // Prelude names, shadowed: the generated code spells out `::core` paths.
    struct Ok;
    struct Err;
    struct Some;
    struct None;
    struct Option;
    struct Result;
    struct String;
    struct Vec;
    struct Default;
    struct Key;
    struct Error;

    /// Every ordered feature at once.
    #[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[rowkey(prefix = "o", salt(buckets = 4, from = [id]))]
    pub struct Ordered<'de> {
        pub id: &'de str,
        #[rowkey(desc)]
        pub at: ::core::option::Option<i64>,
        #[rowkey(reverse)]
        pub version: u32,
        #[rowkey(bit_reverse)]
        pub seq: u64,
        #[rowkey(big_endian)]
        pub size: u16,
        #[rowkey(reverse_domain)]
        pub host: ::std::string::String,
        #[rowkey(flatten)]
        pub inner: Inner,
        #[rowkey(skip)]
        pub cache: ::std::vec::Vec<u8>,
        #[rowkey(sensitive)]
        pub email: ::std::string::String,
    }

    /// The personal-data lint's output, allowed here (`deprecated` is its lint), compiles
    /// without the prelude too.
    #[allow(deprecated)]
    mod personal_data {
        #[derive(::rowkey::RowKey)]
        pub struct Contact {
            pub phone: ::std::string::String,
        }
    }

    /// Flattened into `Ordered`.
    #[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    pub struct Inner {
        pub tag: ::std::vec::Vec<u8>,
    }

    /// Every delimited feature at once.
    #[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[rowkey(delimited = "#", prefix = "d", salt(buckets = 16, from = [ts], hash = "modulo"), dynamodb(partition = [ts], sort_prefix = "T"))]
    pub struct Text {
        pub ts: i64,
        #[rowkey(hex)]
        pub id: ::core::option::Option<u32>,
        #[rowkey(width = 8)]
        pub day: u32,
        #[rowkey(hex)]
        pub digest: ::std::vec::Vec<u8>,
        #[rowkey(flatten)]
        pub inner: InnerText,
    }

    /// DynamoDB shards computed from a sort field.
    #[derive(::rowkey::RowKey)]
    #[rowkey(dynamodb(partition = [day], shards(buckets = 8, from = [order], hash = "modulo")))]
    pub struct Computed {
        pub day: u32,
        pub order: u64,
    }

    /// DynamoDB shards drawn at random.
    #[derive(::rowkey::RowKey)]
    #[rowkey(delimited = "#", dynamodb(partition = [day], shards(buckets = 8, random)))]
    pub struct Drawn {
        pub day: u32,
        pub order: u64,
    }

    /// Flattened into `Text`.
    #[derive(::rowkey::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[rowkey(delimited = "#")]
    pub struct InnerText {
        pub flag: bool,
    }

    /// The runtime crate under its other name, without the prelude.
    #[derive(::rk::RowKey, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[rowkey(crate = "::rk")]
    pub struct Renamed {
        pub name: ::std::string::String,
    }
}

mod renamed {
    use rk::RowKey;

    /// The runtime crate under its other name: generated paths start with `rk`.
    #[derive(RowKey, Debug, PartialEq)]
    #[rowkey(crate = "rk", delimited = "#")]
    pub struct Renamed {
        pub name: String,
        #[rowkey(reverse)]
        pub ts: i64,
    }
}

use rk::RowKey;

#[test]
fn without_the_prelude() {
    let ordered = no_prelude::Ordered {
        id: "a",
        at: Some(5),
        version: 3,
        seq: 9,
        size: 512,
        host: "maps.google.com".into(),
        inner: no_prelude::Inner { tag: vec![0, 1] },
        cache: vec![7],
        email: "a@example.com".into(),
    };
    let key = ordered.to_key().unwrap();
    let back = no_prelude::Ordered::from_key(&key).unwrap();
    assert_eq!(back, no_prelude::Ordered { cache: Vec::new(), ..ordered });

    let text = no_prelude::Text {
        ts: 1_588_291_200_003,
        id: Some(0x4c41_0523),
        day: 20200501,
        digest: vec![0xab],
        inner: no_prelude::InnerText { flag: false },
    };
    let key = text.to_key().unwrap();
    assert_eq!(key, "d#03#0000001588291200003#4c410523#20200501#ab#false");
    assert_eq!(no_prelude::Text::from_key(&key).unwrap(), text);

    let renamed = no_prelude::Renamed { name: "x".into() };
    assert_eq!(no_prelude::Renamed::from_key(&renamed.to_key().unwrap()).unwrap(), renamed);
}

#[test]
fn with_the_crate_renamed() {
    let row = renamed::Renamed { name: "sensor".into(), ts: 0 };
    let key = row.to_key().unwrap();
    assert_eq!(key, "sensor#9223372036854775807");
    assert_eq!(renamed::Renamed::from_key(&key).unwrap(), row);
    assert_eq!(renamed::Renamed::SCHEMA.type_name, "Renamed");
}
