//! The CLI's pretty printing of a run's value: JSON text re-indented for people, its numbers exactly
//! as written.

/// Re-indents JSON text for people (two spaces, one member per line, as `serde_json`'s pretty
/// printer), keeping every number exactly as written (`2**70` stays `1180591620717411303424`) and
/// turning `\uXXXX` escapes of printable characters back into the characters. The text must be
/// valid JSON (a run's value is).
pub(super) fn pretty(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + json.len() / 4);
    let mut depth = 0usize;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", depth));
    };
    let mut chars = json.char_indices().peekable();
    while let Some((at, ch)) = chars.next() {
        match ch {
            '"' => {
                let end = string_end(json, at);
                out.push_str(&unescape_printable(&json[at..end]));
                while chars.peek().is_some_and(|&(i, _)| i < end) {
                    chars.next();
                }
            }
            '{' | '[' => {
                let close = if ch == '{' { '}' } else { ']' };
                while chars.peek().is_some_and(|&(_, c)| c.is_ascii_whitespace()) {
                    chars.next();
                }
                if chars.peek().is_some_and(|&(_, c)| c == close) {
                    chars.next();
                    out.push(ch);
                    out.push(close);
                } else {
                    out.push(ch);
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(ch);
            }
            ',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c if c.is_ascii_whitespace() => {}
            c => out.push(c),
        }
    }
    out
}

/// The byte offset just past the string literal starting at `start` (its opening quote).
fn string_end(json: &str, start: usize) -> usize {
    let bytes = json.as_bytes();
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// A JSON string literal with `\uXXXX` escapes of printable characters (surrogate pairs included)
/// written as the characters; control characters and lone surrogates stay escaped.
fn unescape_printable(literal: &str) -> std::borrow::Cow<'_, str> {
    if !literal.contains("\\u") {
        return literal.into();
    }
    let hex = |s: &str| s.get(..4).and_then(|h| u32::from_str_radix(h, 16).ok());
    let mut out = String::with_capacity(literal.len());
    let mut rest = literal;
    while let Some(pos) = rest.find('\\') {
        out.push_str(&rest[..pos]);
        let escape = &rest[pos..];
        let decoded = if let Some(digits) = escape.strip_prefix("\\u") {
            match hex(digits) {
                Some(high @ 0xd800..=0xdbff) => escape
                    .get(6..8)
                    .filter(|&s| s == "\\u")
                    .and_then(|_| hex(&escape[8..]))
                    .filter(|low| (0xdc00..=0xdfff).contains(low))
                    .and_then(|low| {
                        char::from_u32(0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00))
                    })
                    .map(|c| (c, 12)),
                Some(cp) => char::from_u32(cp)
                    .filter(|c| !c.is_control())
                    .map(|c| (c, 6)),
                None => None,
            }
        } else {
            None
        };
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &escape[len..];
            }
            None => {
                // Not decoded: copy the backslash and the escaped character as they are.
                let len = 1 + escape[1..].chars().next().map_or(0, char::len_utf8);
                out.push_str(&escape[..len]);
                rest = &escape[len..];
            }
        }
    }
    out.push_str(rest);
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pretty_keeps_numbers_as_written() {
        let text = r#"{"n": 1180591620717411303424, "s": "caf\u00e9", "e": [], "l": [1, -0.0]}"#;
        assert_eq!(
            pretty(text),
            "{\n  \"n\": 1180591620717411303424,\n  \"s\": \"café\",\n  \"e\": [],\n  \"l\": [\n    1,\n    -0.0\n  ]\n}"
        );
    }

    #[test]
    fn pretty_keeps_numbers_and_escapes_exact() {
        assert_eq!(pretty("null"), "null");
        assert_eq!(pretty("-1e+308"), "-1e+308");
        assert_eq!(pretty("[]"), "[]");
        assert_eq!(pretty("{\"a\": {}}"), "{\n  \"a\": {}\n}");
        // A comma, colon or bracket inside a string is text; escaped quotes do not end it.
        assert_eq!(pretty(r#"["a, b: [c]\"d"]"#), "[\n  \"a, b: [c]\\\"d\"\n]");
        // Printable escapes become characters (a pair becomes one); control and lone surrogates stay.
        assert_eq!(
            pretty(r#""\u00e9\ud83d\ude00\u0001\ud800x\n""#),
            "\"é😀\\u0001\\ud800x\\n\""
        );
    }
}
