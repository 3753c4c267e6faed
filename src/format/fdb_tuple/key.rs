//! The tuple layer's [`KeyFormat`]: where a key starts (after the format's raw prefix), and
//! its writer and reader.

use super::{FdbTuple, TupleReader, TupleWriter};
use crate::error::Result;
use crate::format::key_format::{KeyFormat, store_key_io};
use crate::key::Key;

impl KeyFormat for FdbTuple {
    type Values = FdbTuple;
    const NAME: &'static str = "fdb_tuple";
    type Writer<'a> = TupleWriter<'a>;
    type Reader<'a, 'de> = TupleReader<'de>;

    #[inline]
    fn writer<'a>(&'a self, out: &'a mut Key, _: usize) -> TupleWriter<'a> {
        // Most formats have no prefix: skip the copy's call for them.
        if !self.prefix.is_empty() {
            out.extend_from_slice(&self.prefix);
        }
        TupleWriter::new(out)
    }

    #[inline(always)]
    fn check_start(&self, bytes: &[u8]) -> Result<()> {
        // Most formats have no prefix: skip the comparison (a call to `memcmp`) for them.
        if !self.prefix.is_empty() && !bytes.starts_with(&self.prefix) {
            return Err(self.not_this_prefix(bytes));
        }
        Ok(())
    }

    #[inline]
    fn reader<'de>(&self, bytes: &'de [u8], _: usize) -> TupleReader<'de> {
        TupleReader::at(bytes, self.prefix.len())
    }
}

store_key_io!(FdbTuple, TupleWriter, TupleReader);
