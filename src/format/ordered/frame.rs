//! The bytes that frame an ordered key's fields, which the writer puts in and the reader
//! checks: see the [module](super) table.

/// Ends every field but the last ascending one.
pub const SEPARATOR: [u8; 2] = [0x00, 0x01];
/// Stands for an empty field that is followed by other fields.
pub const EMPTY_FIELD: [u8; 2] = [0x00, 0x00];
/// Follows a `00` byte of a field's value.
pub const ESCAPED_NUL: u8 = 0xff;
