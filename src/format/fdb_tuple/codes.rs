//! The tuple layer's type codes: the byte that starts each value and says what it is.

pub(super) const NULL: u8 = 0x00;
pub(super) const BYTES: u8 = 0x01;
pub(super) const STRING: u8 = 0x02;
pub(super) const NESTED: u8 = 0x05;
pub(super) const NEG_BIG: u8 = 0x0b;
pub(super) const ZERO: u8 = 0x14;
pub(super) const POS_BIG: u8 = 0x1d;
pub(super) const FLOAT: u8 = 0x20;
pub(super) const DOUBLE: u8 = 0x21;
pub(super) const FALSE: u8 = 0x26;
pub(super) const TRUE: u8 = 0x27;
pub(super) const UUID: u8 = 0x30;
pub(super) const VERSIONSTAMP: u8 = 0x33;

/// What a type code stands for, for error messages.
pub(super) fn code_name(code: u8) -> &'static str {
    match code {
        NULL => "null",
        BYTES => "a byte string",
        STRING => "a string",
        NESTED => "a nested tuple",
        NEG_BIG..=POS_BIG => "an integer",
        FLOAT => "a float",
        DOUBLE => "a double",
        FALSE | TRUE => "a bool",
        UUID => "a UUID",
        VERSIONSTAMP => "a versionstamp",
        _ => "a type this crate does not read",
    }
}
