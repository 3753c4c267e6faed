//! [`Splits`]: a sorted list of split points, and the forms stores take it in: the Bigtable
//! Admin API's JSON, the `cbt createtable` argument, the HBase shell's `SPLITS`, Terraform's
//! `split_keys`.

use std::fmt::Write;

use crate::error::{Error, Result};
use crate::key::Key;
use crate::key_text::to_base64;

/// A sorted list of split points, and its forms for each store.
///
/// ```
/// use rowkey::splits::Splits;
///
/// let splits = Splits::new(["m", "c", "m", ""]);
/// assert_eq!(splits.points(), ["c", "m"]); // sorted, without repeats or the empty key
/// assert_eq!(splits.to_hbase(), r#"SPLITS => ["c", "m"]"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Splits {
    points: Vec<Key>,
}

impl Splits {
    /// The given points, sorted, without repeats and without the empty key (where the first
    /// tablet starts anyway).
    #[must_use]
    pub fn new<I>(points: I) -> Splits
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        let mut points: Vec<Key> = points.into_iter().map(|p| Key::from(p.as_ref())).collect();
        points.sort_unstable();
        points.dedup();
        points.retain(|p| !p.is_empty());
        Splits { points }
    }

    /// Points that cut `sample` into `tablets` tablets of equal numbers of its keys (its
    /// quantiles), for any key design: a sample from `SampleRowKeys`, a log, or a table of
    /// the same data elsewhere. Fewer points come back when the sample has fewer distinct keys.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// let sample: Vec<String> = (0..1_000).map(|i| format!("user{i:04}")).collect();
    /// let splits = Splits::from_sample(&sample, 4);
    /// assert_eq!(splits.points(), ["user0250", "user0500", "user0750"]);
    /// ```
    #[must_use]
    pub fn from_sample<I>(sample: I, tablets: usize) -> Splits
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        Splits { points: sample_split_points(sample, tablets) }
    }

    /// The points, sorted.
    #[must_use]
    pub fn points(&self) -> &[Key] {
        &self.points
    }

    /// The points, sorted, as a vector.
    pub(crate) fn into_points(self) -> Vec<Key> {
        self.points
    }

    /// The number of points: one fewer than the tablets they make.
    ///
    /// ```
    /// assert_eq!(rowkey::splits::Splits::new(["a", "b"]).len(), 2);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there are no points.
    ///
    /// ```
    /// assert!(rowkey::splits::Splits::new([""]).is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The `initialSplits` of a Bigtable Admin API `CreateTableRequest` as JSON, each key in
    /// base64 as the proto3 JSON mapping writes bytes; merge it into the request's body with
    /// `tableId` and `table`.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// let json = Splits::new(["01#", "02#"]).to_bigtable_json();
    /// assert_eq!(json, "{\n  \"initialSplits\": [\n    {\"key\": \"MDEj\"},\n    {\"key\": \"MDIj\"}\n  ]\n}");
    /// ```
    #[must_use]
    pub fn to_bigtable_json(&self) -> String {
        let mut out = String::from("{\n  \"initialSplits\": [");
        for (i, point) in self.points.iter().enumerate() {
            let comma = if i + 1 < self.points.len() { "," } else { "" };
            // Base64 needs no JSON escapes.
            let _ = write!(out, "\n    {{\"key\": \"{}\"}}{comma}", to_base64(point));
        }
        out.push_str(if self.points.is_empty() { "]\n}" } else { "\n  ]\n}" });
        out
    }

    /// The `splits=a,b,c` argument of `cbt createtable TABLE`. Quote it for the shell when
    /// a point holds a character the shell reads (`$`, `*`, `;`, ...).
    ///
    /// cbt reads the list as one line of CSV: a point holding a comma or a double quote is
    /// written in double quotes, each of its own quotes doubled (`"a,b"`, `"say ""hi"""`),
    /// which cbt reads back as the point's bytes; any other point is written as it is.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when there are no points (cbt refuses an empty `splits=`:
    /// create the table without the argument), or naming the first point that `cbt` cannot
    /// take and why: a byte outside printable ASCII (cbt has no escapes, and an argument holds
    /// no `00`) or a space.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// assert_eq!(Splits::new(["01#", "02#"]).to_cbt_arg()?, "splits=01#,02#");
    /// assert_eq!(Splits::new(["a,b", "\"c\""]).to_cbt_arg()?, r#"splits="""c""","a,b""#);
    /// let err = Splits::new([b"\x81".as_slice()]).to_cbt_arg().unwrap_err();
    /// assert!(err.to_string().contains(r"split 0 (\x81) holds the byte 81"), "{err}");
    /// assert!(Splits::default().to_cbt_arg().is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn to_cbt_arg(&self) -> Result<String> {
        if self.points.is_empty() {
            return Err(Error::argument(
                "splits",
                "there are no split points, and cbt refuses an empty `splits=`: create the table without it",
            ));
        }
        let mut out = String::from("splits=");
        for (i, point) in self.points.iter().enumerate() {
            if let Some(&b) = point.iter().find(|&&b| !(0x21..0x7f).contains(&b)) {
                let why = match b {
                    b' ' => "a space, which cbt's argument cannot hold".to_owned(),
                    b => format!(
                        "the byte {b:02x}, and cbt takes splits as printable text without escapes; \
                         use the Admin API's JSON or the HBase shell form"
                    ),
                };
                return Err(Error::argument("splits", format!("split {i} ({point}) holds {why}")));
            }
            if i > 0 {
                out.push(',');
            }
            // Printable ASCII, checked above. cbt's CSV reader takes a comma as the end of a
            // point and a quote as quoting, unless the point is quoted.
            let text = String::from_utf8_lossy(point);
            if point.iter().any(|&b| b == b',' || b == b'"') {
                out.push('"');
                out.push_str(&text.replace('"', "\"\""));
                out.push('"');
            } else {
                out.push_str(&text);
            }
        }
        Ok(out)
    }

    /// The HBase shell's `SPLITS => [...]` for `create`, each point a Ruby double-quoted
    /// string with `\xNN` escapes for bytes outside printable ASCII.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// let splits = Splits::new([b"\x81".as_slice(), b"a\"#{b}"]);
    /// assert_eq!(splits.to_hbase(), r#"SPLITS => ["a\"\#{b}", "\x81"]"#);
    /// ```
    #[must_use]
    pub fn to_hbase(&self) -> String {
        let mut out = String::from("SPLITS => [");
        for (i, point) in self.points.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push('"');
            for (j, &b) in point.iter().enumerate() {
                match b {
                    b'"' | b'\\' => {
                        out.push('\\');
                        out.push(char::from(b));
                    }
                    // `#{`, `#$` and `#@` interpolate in a Ruby double-quoted string.
                    b'#' if matches!(point.get(j + 1), Some(b'{' | b'$' | b'@')) => out.push_str("\\#"),
                    0x20..0x7f => out.push(char::from(b)),
                    b => {
                        let _ = write!(out, "\\x{b:02x}");
                    }
                }
            }
            out.push('"');
        }
        out.push(']');
        out
    }

    /// Terraform's `split_keys = [...]` for a `google_bigtable_table`, each point an HCL
    /// string.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming the first point that is not UTF-8 (Terraform strings
    /// are Unicode text, and the provider writes their UTF-8 bytes), or that holds a character
    /// Unicode normalization could touch: Terraform turns every string into NFC, so a combining
    /// accent, a Hangul jamo or a compatibility character could reach Bigtable as other bytes.
    /// Characters below U+0300 and the emoji and symbol blocks pass; the Admin API's JSON
    /// carries any other point as it is.
    ///
    /// ```
    /// use rowkey::splits::Splits;
    ///
    /// assert_eq!(Splits::new(["01#", "${x}"]).to_terraform()?, r#"split_keys = ["$${x}", "01#"]"#);
    /// assert!(Splits::new([b"\x81".as_slice()]).to_terraform().is_err());
    /// // `e` and a combining acute accent: NFC would make it the one character `é`.
    /// assert!(Splits::new(["e\u{301}"]).to_terraform().is_err());
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    pub fn to_terraform(&self) -> Result<String> {
        let mut out = String::from("split_keys = [");
        for (i, point) in self.points.iter().enumerate() {
            let Ok(text) = std::str::from_utf8(point) else {
                return Err(Error::argument(
                    "splits",
                    format!(
                        "split {i} ({point}) is not UTF-8, and Terraform's split_keys are text; \
                         create the table with the Admin API's JSON or the HBase shell form"
                    ),
                ));
            };
            if let Some(c) = text.chars().find(|&c| !keeps_nfc(c)) {
                return Err(Error::argument(
                    "splits",
                    format!(
                        "split {i} ({point}) holds {c:?} (U+{:04X}); Terraform normalizes strings to Unicode \
                         NFC, which can change such a key's bytes; create the table with the Admin API's \
                         JSON or the HBase shell form",
                        u32::from(c)
                    ),
                ));
            }
            if i > 0 {
                out.push_str(", ");
            }
            out.push('"');
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    // `${` and `%{` start a template sequence; doubling the sign escapes it.
                    '$' | '%' if chars.peek() == Some(&'{') => {
                        out.push(c);
                        out.push(c);
                    }
                    c if c.is_control() => {
                        let _ = write!(out, "\\u{:04x}", u32::from(c));
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
        }
        out.push(']');
        Ok(out)
    }
}

/// Whether NFC leaves `c` as it is wherever it stands: nothing below U+0300 decomposes or
/// combines with what precedes it, nor does anything in the emoji and pictograph blocks.
/// Everything else is refused rather than looked up in Unicode's tables.
fn keeps_nfc(c: char) -> bool {
    u32::from(c) < 0x300 || ('\u{1F000}'..='\u{1FAFF}').contains(&c)
}

/// Split points that cut `sample` into `tablets` tablets with equal numbers of its keys, as
/// Bigtable's `SampleRowKeys` and HBase's pre-split tools pick them: the sample's quantiles.
///
/// Fewer points come back when the sample has fewer distinct keys than `tablets`.
///
/// ```
/// use rowkey::hotspot::sample_split_points;
///
/// let sample = ["d", "a", "c", "b", "f", "e"];
/// assert_eq!(sample_split_points(sample, 3), ["c", "e"]);
/// assert!(sample_split_points(["a", "a"], 3).is_empty());
/// ```
pub fn sample_split_points<I>(sample: I, tablets: usize) -> Vec<Key>
where
    I: IntoIterator,
    I::Item: AsRef<[u8]>,
{
    let mut sorted: Vec<I::Item> = sample.into_iter().collect();
    sorted.sort_unstable_by(|a, b| a.as_ref().cmp(b.as_ref()));
    let n = sorted.len();
    if n == 0 || tablets < 2 {
        return Vec::new();
    }
    let mut points: Vec<Key> = (1..tablets).map(|i| Key::from(sorted[i * n / tablets].as_ref())).collect();
    points.dedup();
    // A point equal to the smallest key would leave the first tablet empty.
    points.retain(|p| p.as_bytes() > sorted[0].as_ref());
    points
}
