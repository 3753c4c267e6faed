//! The derive's compile-fail cases (`tests/ui` at the repository's root) run through
//! `declare`, as a key declared at run time would be: where the derive refuses a struct, its
//! errors are what the compiler printed for the case (`.stderr`), in order; its warnings are
//! printed there as deprecations; a case the compiler passes gives none.

use std::fs;
use std::path::Path;

use quote::ToTokens;
use rowkey_derive_core::declare::declare;

/// The structs, enums and unions of `source` that derive `RowKey`, as source text.
fn derived_items(source: &str) -> Vec<String> {
    let file = syn::parse_file(source).expect("a UI case parses");
    let derives = |attrs: &[syn::Attribute]| {
        attrs.iter().any(|a| a.path().is_ident("derive") && a.to_token_stream().to_string().contains("RowKey"))
    };
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) if derives(&s.attrs) => Some(s.to_token_stream().to_string()),
            syn::Item::Enum(e) if derives(&e.attrs) => Some(e.to_token_stream().to_string()),
            syn::Item::Union(u) if derives(&u.attrs) => Some(u.to_token_stream().to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn declare_says_what_the_compiler_said_for_every_ui_case() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/ui");
    let (mut refused, mut warned, mut cases) = (0, 0, 0);
    let mut paths: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.extend(fs::read_dir(dir.join("pass")).unwrap().map(|e| e.unwrap().path()));
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "rs")) {
        let source = fs::read_to_string(path).unwrap();
        let stderr = fs::read_to_string(path.with_extension("stderr")).unwrap_or_default();
        let printed: Vec<&str> = stderr.lines().filter_map(|l| l.strip_prefix("error: ")).collect();
        let (mut errors, mut notes) = (Vec::new(), Vec::new());
        for item in derived_items(&source) {
            match declare(&item) {
                Ok(design) => notes.extend(design.warnings.into_iter().map(|w| (w.kind, w.message))),
                Err(messages) => errors.extend(messages),
            }
        }
        cases += 1;
        if !errors.is_empty() {
            refused += 1;
            assert_eq!(errors, printed, "{}", path.display());
        }
        for (kind, note) in notes {
            warned += 1;
            let shown = format!("use of deprecated unit struct `_::{kind}`: {note}");
            assert!(stderr.contains(&shown), "{}: no `{shown}` in its .stderr", path.display());
        }
        if path.parent().is_some_and(|p| p.ends_with("pass")) {
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        }
    }
    // Most cases are the derive's own refusals; a few are errors of the generated code (a
    // flattened type that does not derive, a scan on a hashed field), which `declare` cannot see.
    assert!(cases > 50 && refused > 40 && warned >= 3, "{cases} cases, {refused} refused, {warned} warnings");
}
