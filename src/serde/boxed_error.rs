//! The error the serializer and deserializer pass around: the crate's [`Error`] behind a
//! pointer.
//!
//! serde threads a `Result` through every visitor call and every field; with the 96-byte
//! [`Error`] in it, each of those moves copied a 100-byte value even when nothing failed.
//! A pointer-sized error keeps `Result<String, _>` at 24 bytes. The box is made only when
//! something fails, and unwrapped again where the public functions return.

use std::fmt::{self, Debug, Display};

use crate::error::{Error, Location};

/// [`Error`], boxed so that the `Result`s serde passes along stay small.
pub(super) struct BoxedError(Box<Error>);

pub(super) type Result<T> = std::result::Result<T, BoxedError>;

impl BoxedError {
    /// The crate's error, for the public functions to return.
    pub(super) fn into_inner(self) -> Error {
        *self.0
    }

    /// Replaces where the error happened, as [`relocate`] does for a bare [`Error`].
    #[cold]
    pub(super) fn relocated(self, to: Location) -> Self {
        let mut inner = self.0;
        *inner = relocate(*inner, to);
        BoxedError(inner)
    }
}

impl From<Error> for BoxedError {
    #[cold]
    #[inline(never)]
    fn from(err: Error) -> Self {
        BoxedError(Box::new(err))
    }
}

impl Display for BoxedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Display::fmt(&self.0, f)
    }
}

impl Debug for BoxedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Debug::fmt(&self.0, f)
    }
}

impl std::error::Error for BoxedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl serde::ser::Error for BoxedError {
    fn custom<T: Display>(msg: T) -> Self {
        <Error as serde::ser::Error>::custom(msg).into()
    }
}

impl serde::de::Error for BoxedError {
    fn custom<T: Display>(msg: T) -> Self {
        <Error as serde::de::Error>::custom(msg).into()
    }

    fn invalid_type(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Self {
        <Error as serde::de::Error>::invalid_type(unexp, exp).into()
    }

    fn invalid_value(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Self {
        <Error as serde::de::Error>::invalid_value(unexp, exp).into()
    }
}

/// Replaces where an error happened. A value inside one field is an ordered key or a
/// sequence of its own, whose offsets mean nothing in the outer key: its errors are moved to
/// the outer field (or to [`Location::UNKNOWN`], for the outer writer to fill in).
pub(super) fn relocate(mut err: Error, to: Location) -> Error {
    if let Error::TrailingBytes { .. } = err {
        return Error::Malformed { at: to, detail: "a value inside this field has bytes after its last part" };
    }
    if let Some(at) = err.location_mut() {
        *at = to;
    }
    err
}
