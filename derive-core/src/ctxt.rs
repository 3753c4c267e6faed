//! [`Ctxt`]: collects every error of one derive, so a compile reports all of them at once.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// The errors found so far. Each phase records what it finds and carries on with what it
/// can, instead of stopping at the first mistake; [`check`](Ctxt::check) hands them over.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// An error spanned on the tokens of `at` (all of them, for a multi-token node).
    pub fn error(&self, at: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(at.into_token_stream(), message));
    }

    /// An error spanned on one span.
    pub fn error_at(&self, at: proc_macro2::Span, message: impl Display) {
        self.push(syn::Error::new(at, message));
    }

    /// A parse error from syn, as it is.
    pub fn push(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// The recorded errors, or `Ok` when there are none.
    pub fn check(self) -> Result<(), Vec<syn::Error>> {
        let errors = self.errors.into_inner();
        if errors.is_empty() { Ok(()) } else { Err(errors) }
    }
}
