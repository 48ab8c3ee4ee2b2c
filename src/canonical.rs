//! Canonical JSON text: exactly what Python's `json.dumps(value, allow_nan=False)` writes.
//!
//! Separators `", "` and `": "`, keys in insertion order, `ensure_ascii` escapes, and floats in
//! Python's `repr` form. The result store keeps this text verbatim, measures it against its caps and
//! serves it as the MCP resource, so a payload saved from Rust and one saved from a snippet look alike.

use std::fmt::Write as _;

/// Serialises a JSON value the way Python's `json.dumps` does.
pub fn to_canonical_json(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut String, value: &serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_text(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_str(out, k.chars().map(u32::from));
                out.push_str(": ");
                write_value(out, v);
            }
            out.push('}');
        }
    }
}

/// A number as `json.dumps(json.loads(text))` writes it: integers exact at any size (with the
/// `exact-numbers` feature serde_json keeps their digits), floats in `repr` form.
fn write_number(out: &mut String, n: &serde_json::Number) {
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else {
        let text = n.to_string();
        if !text.contains(['.', 'e', 'E']) {
            out.push_str(&text);
        } else if let Some(f) = n.as_f64() {
            write_py_float(out, f);
        } else {
            // Beyond f64 (only a parsed text can be): kept as written rather than lost.
            out.push_str(&text);
        }
    }
}

/// Writes a JSON string literal with Python's `ensure_ascii=True` escapes, from code points (which may
/// include lone surrogates, as Python strings can).
pub fn write_str(out: &mut String, code_points: impl Iterator<Item = u32>) {
    out.push('"');
    for cp in code_points {
        write_code_point(out, cp);
    }
    out.push('"');
}

/// [`write_str`] for text that is valid UTF-8 (no lone surrogates): runs of printable ASCII, the bulk
/// of most data, are copied whole.
pub fn write_text(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let bytes = text.as_bytes();
    let (mut plain_from, mut at) = (0, 0);
    while at < bytes.len() {
        if matches!(bytes[at], 0x20..=0x7e) && !matches!(bytes[at], b'"' | b'\\') {
            at += 1;
            continue;
        }
        out.push_str(&text[plain_from..at]);
        // `at` starts a character: every byte before it in this loop was ASCII or a whole character.
        let ch = text[at..].chars().next().unwrap_or('\u{fffd}');
        write_code_point(out, u32::from(ch));
        at += ch.len_utf8();
        plain_from = at;
    }
    out.push_str(&text[plain_from..]);
    out.push('"');
}

/// Whether [`write_text`] writes `text` unchanged between quotes: printable ASCII only, with no `"` or
/// `\\`.
pub fn is_plain(text: &str) -> bool {
    text.bytes()
        .all(|b| matches!(b, 0x20..=0x7e) && b != b'"' && b != b'\\')
}

/// How many bytes [`write_text`] / [`write_str`] write for these code points, quotes included: what
/// a writer reserves (fallibly) before writing a large text.
pub fn escaped_len(code_points: impl Iterator<Item = u32>) -> usize {
    2 + code_points
        .map(|cp| match cp {
            0x22 | 0x5c | 0x0a | 0x0d | 0x09 | 0x08 | 0x0c => 2,
            0x20..=0x7e => 1,
            0x10000.. => 12,
            _ => 6,
        })
        .sum::<usize>()
}

fn write_code_point(out: &mut String, cp: u32) {
    match cp {
        0x22 => out.push_str("\\\""),
        0x5c => out.push_str("\\\\"),
        0x0a => out.push_str("\\n"),
        0x0d => out.push_str("\\r"),
        0x09 => out.push_str("\\t"),
        0x08 => out.push_str("\\b"),
        0x0c => out.push_str("\\f"),
        0x20..=0x7e => out.push(cp as u8 as char),
        0x10000.. => {
            let v = cp - 0x10000;
            let _ = write!(
                out,
                "\\u{:04x}\\u{:04x}",
                0xd800 + (v >> 10),
                0xdc00 + (v & 0x3ff)
            );
        }
        _ => {
            let _ = write!(out, "\\u{cp:04x}");
        }
    }
}

/// Python's `repr(float)` for a finite float: the shortest digits that round-trip, in fixed notation
/// when the decimal exponent is in `-5 < e < 16`, otherwise as `1.5e+16` / `1e-05`.
pub fn py_float_repr(f: f64) -> String {
    let mut out = String::new();
    write_py_float(&mut out, f);
    out
}

/// [`py_float_repr`] appended to `out`, with no allocation beyond `out`'s own growth (a large list of
/// floats is written one after another).
pub(crate) fn write_py_float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str("NaN");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    // `{:e}` gives the shortest round-trip digits as `d.ddde±x`: at most 24 bytes for an f64.
    let mut sci = StackText::<32>::default();
    let _ = write!(sci, "{f:e}");
    let sci = sci.as_str();
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if let Some(unsigned) = mantissa.strip_prefix('-') {
        out.push('-');
        return write_digits(out, unsigned, exp);
    }
    write_digits(out, mantissa, exp);
}

/// Places `d.ddd` × 10^`exp` (one digit before the point, as `{:e}` writes it) as Python's repr does.
fn write_digits(out: &mut String, mantissa: &str, exp: i32) {
    let (lead, rest) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if (-5 < exp) && (exp < 16) {
        if exp < 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
            out.push_str(lead);
            out.push_str(rest);
        } else {
            // `exp` digits of `rest` go before the point.
            let before = exp as usize;
            out.push_str(lead);
            if rest.len() <= before {
                out.push_str(rest);
                out.extend(std::iter::repeat_n('0', before - rest.len()));
                out.push_str(".0");
            } else {
                out.push_str(&rest[..before]);
                out.push('.');
                out.push_str(&rest[before..]);
            }
        }
    } else {
        out.push_str(lead);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
}

/// A fixed buffer to format into without allocating (text longer than `N` is refused).
struct StackText<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Default for StackText<N> {
    fn default() -> Self {
        Self {
            bytes: [0; N],
            len: 0,
        }
    }
}

impl<const N: usize> StackText<N> {
    fn as_str(&self) -> &str {
        // Only whole `&str`s are copied in (see `write_str`).
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl<const N: usize> std::fmt::Write for StackText<N> {
    fn write_str(&mut self, piece: &str) -> std::fmt::Result {
        let end = self.len + piece.len();
        if end > N {
            return Err(std::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(piece.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Python's `repr()` of a str, as the reference's error texts quote handles and filenames.
pub(crate) fn py_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_float_is_appended_as_python_writes_it() {
        let mut out = String::from("[");
        super::write_py_float(&mut out, -2.5e-7);
        assert_eq!(out, "[-2.5e-07");
    }

    use super::*;

    #[test]
    fn repr_matches_python() {
        assert_eq!(py_repr("res_x"), "'res_x'");
        assert_eq!(py_repr("it's"), "\"it's\"");
        assert_eq!(py_repr("a\nb"), "'a\\nb'");
        assert_eq!(py_repr(""), "''");
    }
    #[test]
    fn values_serialise_as_json_dumps_does() {
        let v = serde_json::json!({"b": [1, 2.5, "é"], "a": null});
        assert_eq!(
            crate::canonical::to_canonical_json(&v),
            r#"{"b": [1, 2.5, "\u00e9"], "a": null}"#
        );
    }

    #[test]
    fn text_is_escaped_as_json_dumps_escapes_it() {
        let mut out = String::new();
        crate::canonical::write_text(&mut out, "a\"é\n");
        assert_eq!(out, r#""a\"\u00e9\n""#);
    }

    #[test]
    fn plain_text_is_printable_ascii_without_quotes() {
        assert!(crate::canonical::is_plain("row-17"));
        assert!(!crate::canonical::is_plain("café"));
    }

    #[test]
    fn floats_read_as_python_repr() {
        use crate::canonical::py_float_repr;
        assert_eq!(py_float_repr(1.0), "1.0");
        assert_eq!(py_float_repr(1e16), "1e+16");
        assert_eq!(py_float_repr(0.00001), "1e-05");
        assert_eq!(py_float_repr(123.456), "123.456");
    }

    #[test]
    fn floats_match_python_repr() {
        for (f, want) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (0.1, "0.1"),
            (1.5, "1.5"),
            (100.0, "100.0"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (1e-5, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (9999999999999998.0, "9999999999999998.0"),
            (1e16, "1e+16"),
            (1.2345e22, "1.2345e+22"),
            (1e100, "1e+100"),
            (-2.5e-300, "-2.5e-300"),
            (123456789.125, "123456789.125"),
            (1.0, "1.0"),
            (12.0, "12.0"),
            (0.5, "0.5"),
            (1e15, "1000000000000000.0"),
            (1.2345678901234567e19, "1.2345678901234567e+19"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (5e-324, "5e-324"),
        ] {
            assert_eq!(py_float_repr(f), want, "repr of {f}");
        }
    }

    #[test]
    fn strings_are_ascii_escaped() {
        let mut out = String::new();
        write_str(&mut out, "a\"\\\n\u{1}\u{7f}é😀".chars().map(u32::from));
        assert_eq!(out, r#""a\"\\\n\u0001\u007f\u00e9\ud83d\ude00""#);
    }

    #[test]
    fn values_use_python_separators() {
        let v = serde_json::json!({"a": [1, -2, 3.0, true, null], "b": {}});
        assert_eq!(
            to_canonical_json(&v),
            r#"{"a": [1, -2, 3.0, true, null], "b": {}}"#
        );
    }
}
