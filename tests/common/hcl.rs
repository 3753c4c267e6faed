//! A reader of the HCL list of strings that `Splits::to_terraform` writes as `split_keys`,
//! shared by the split tests of the library (`tests/splits.rs`) and of the `rowkey` command,
//! so that both check the syntax where Terraform is not installed.
//!
//! It reads a quoted string as HCL's native syntax does (hashicorp/hcl `hclsyntax`: the
//! quoted template scanner and `ParseStringLiteralToken`), and refuses what HCL refuses there.
//! It also refuses a template sequence (`${`, `%{`), which HCL would evaluate rather than take
//! as the text written, and it takes only the layout the export writes (`", "` between the
//! strings), not all that HCL would.

/// The strings of the HCL list `["...", "..."]`, or what HCL would refuse, and where.
pub fn hcl_strings(list: &str) -> Result<Vec<String>, String> {
    let body = list.strip_prefix('[').and_then(|s| s.strip_suffix(']')).ok_or_else(|| format!("not a list: {list}"))?;
    let chars: Vec<char> = body.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let n = out.len();
        if n > 0 {
            if !chars[i..].starts_with(&[',', ' ']) {
                return Err(format!("no `, ` before string {n} of {list}"));
            }
            i += 2;
        }
        if chars.get(i) != Some(&'"') {
            return Err(format!("string {n} does not start with a quote in {list}"));
        }
        i += 1;
        let mut value = String::new();
        loop {
            let Some(&c) = chars.get(i) else {
                return Err(format!("string {n} is not closed in {list}"));
            };
            match c {
                '"' => {
                    i += 1;
                    break;
                }
                '\n' | '\r' => return Err(format!("string {n} spans lines, which a quoted HCL string cannot")),
                '\\' => {
                    let (decoded, len) = escape(&chars[i + 1..]).map_err(|e| format!("string {n}: {e}"))?;
                    value.push(decoded);
                    i += 1 + len;
                }
                '$' | '%' if chars.get(i + 1) == Some(&'{') => {
                    return Err(format!("string {n} holds the template sequence `{c}{{`, which HCL evaluates"));
                }
                // The escaped introduction: one sign and the brace. A doubled sign before
                // anything else is two signs, and HCL reads `$$${` as `$` then `$${`.
                '$' | '%' if chars.get(i + 1) == Some(&c) && chars.get(i + 2) == Some(&'{') => {
                    value.push(c);
                    value.push('{');
                    i += 3;
                }
                // Other control characters, a raw tab among them, are literal in HCL.
                c => {
                    value.push(c);
                    i += 1;
                }
            }
        }
        out.push(value);
    }
    Ok(out)
}

/// The character of the escape sequence after a backslash, and how many characters follow
/// the backslash.
fn escape(rest: &[char]) -> Result<(char, usize), String> {
    match rest.first() {
        Some('n') => Ok(('\n', 1)),
        Some('r') => Ok(('\r', 1)),
        Some('t') => Ok(('\t', 1)),
        Some('"') => Ok(('"', 1)),
        Some('\\') => Ok(('\\', 1)),
        Some(&u @ ('u' | 'U')) => {
            let digits = if u == 'u' { 4 } else { 8 };
            let hex: String = rest[1..].iter().take(digits).take_while(|c| c.is_ascii_hexdigit()).collect();
            if hex.len() != digits {
                return Err(format!("\\{u} takes {digits} hexadecimal digits, here {:?}", hex));
            }
            let code = u32::from_str_radix(&hex, 16).unwrap();
            // HCL refuses what UTF-8 cannot encode (Go's `utf8.RuneLen` is -1): surrogates
            // and code points past U+10FFFF, which `char` refuses as well.
            let c = char::from_u32(code).ok_or_else(|| format!("\\{u}{hex} is not a Unicode scalar value"))?;
            Ok((c, 1 + digits))
        }
        Some(c) => Err(format!("\\{c} is not an HCL escape sequence")),
        None => Err("a backslash ends the string".to_owned()),
    }
}
