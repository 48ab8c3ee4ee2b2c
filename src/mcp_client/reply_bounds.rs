//! What a stdio MCP server sends is bounded work for the host: rmcp reads one line (one message) of at
//! most 16 MiB, but parses it into a tree whose size is not the line's — a 60 MB line of 20 million
//! empty objects took 2.7 GB. [`BoundedReplies`] sits between the server's stdout and rmcp and counts
//! the JSON values of each line as it passes (one scan, no parse); a line with more than
//! [`MAX_VALUES_PER_MESSAGE`] reaches rmcp as a JSON-RPC error for the same request instead.

use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, ReadBuf};

/// The most JSON values one message from a server may hold (each costs the host up to ~150 bytes
/// while rmcp parses it). A tool with more data than this should page it.
pub(crate) const MAX_VALUES_PER_MESSAGE: usize = 1_000_000;

/// A server's stdout, each line held until it is whole and checked (see the module's docs).
pub(crate) struct BoundedReplies<R> {
    inner: R,
    /// The line being read.
    line: Vec<u8>,
    scan: ValueCount,
    /// Checked bytes, ready for rmcp, from `ready_from` on.
    ready: Vec<u8>,
    ready_from: usize,
    /// Forwarding the rest of an over-long line as it comes: rmcp drops lines longer than
    /// `max_line` itself.
    passing_through: bool,
    max_line: usize,
}

impl<R> BoundedReplies<R> {
    /// `inner`, with lines longer than `max_line` (the transport's own cap) passed on unscanned.
    pub(crate) fn new(inner: R, max_line: usize) -> Self {
        Self {
            max_line,
            inner,
            line: Vec::new(),
            scan: ValueCount::default(),
            ready: Vec::new(),
            ready_from: 0,
            passing_through: false,
        }
    }

    fn take_in(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.passing_through {
                let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |at| at + 1);
                self.ready.extend_from_slice(&rest[..end]);
                self.passing_through = rest[end - 1] != b'\n';
                rest = &rest[end..];
                continue;
            }
            let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |at| at + 1);
            let (piece, tail) = rest.split_at(end);
            self.scan.feed(piece);
            self.line.extend_from_slice(piece);
            rest = tail;
            if piece.ends_with(b"\n") {
                self.finish_line();
            } else if self.line.len() > self.max_line {
                self.ready.append(&mut self.line);
                self.scan = ValueCount::default();
                self.passing_through = true;
            }
        }
    }

    fn finish_line(&mut self) {
        if self.scan.values > MAX_VALUES_PER_MESSAGE {
            let refusal = too_complex(&self.line, self.scan.values);
            self.line.clear();
            self.ready.extend_from_slice(refusal.as_bytes());
        } else {
            self.ready.append(&mut self.line);
        }
        self.scan = ValueCount::default();
    }
}

/// The error rmcp gets instead of a message with too many values: for the same request when its id
/// can be read (serde skips the rest without building it), else for none (dropped by rmcp).
fn too_complex(line: &[u8], values: usize) -> String {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        id: Option<serde_json::Value>,
    }
    let id = serde_json::from_slice::<IdOnly>(line)
        .ok()
        .and_then(|m| m.id)
        .filter(|id| id.is_string() || id.is_number());
    let Some(id) = id else {
        return "\n".into();
    };
    let message = format!(
        "the server's reply holds more than {MAX_VALUES_PER_MESSAGE} JSON values ({values}); \
         toolplane does not parse it (ask the tool for less, or page it)"
    );
    let error = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32603, "message": message},
    });
    format!("{error}\n")
}

/// Counts the values of a JSON text as it streams by: an opening bracket or a comma outside strings
/// starts one (a close bias of at most one per container, which does not matter for a bound).
#[derive(Default)]
struct ValueCount {
    values: usize,
    in_string: bool,
    escaped: bool,
}

impl ValueCount {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            match b {
                b'"' => self.in_string = true,
                b'{' | b'[' | b',' => self.values += 1,
                _ => {}
            }
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for BoundedReplies<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.ready_from < this.ready.len() {
                let n = buf.remaining().min(this.ready.len() - this.ready_from);
                buf.put_slice(&this.ready[this.ready_from..this.ready_from + n]);
                this.ready_from += n;
                if this.ready_from == this.ready.len() {
                    this.ready.clear();
                    this.ready_from = 0;
                }
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 64 << 10];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                // End of output: a last line without a newline goes as it is.
                if this.line.is_empty() {
                    return Poll::Ready(Ok(()));
                }
                this.ready.append(&mut this.line);
                continue;
            }
            this.take_in(read.filled());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    async fn through(input: &[u8]) -> String {
        let mut out = String::new();
        BoundedReplies::new(input, 64 << 20)
            .read_to_string(&mut out)
            .await
            .unwrap();
        out
    }

    #[tokio::test]
    async fn ordinary_lines_pass_unchanged() {
        let input =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":[1,2,\"x,[{\"]}}\n{\"id\":2}\nlast";
        assert_eq!(through(input.as_bytes()).await, input);
    }

    #[tokio::test]
    async fn a_line_with_too_many_values_becomes_an_error_for_its_request() {
        let items = "{},".repeat(MAX_VALUES_PER_MESSAGE);
        let input =
            format!("{{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[{items}{{}}]}}\n{{\"id\":8}}\n");
        let out = through(input.as_bytes()).await;
        let mut lines = out.lines();
        let error: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(error["id"], 7);
        assert!(
            error["error"]["message"]
                .as_str()
                .unwrap()
                .contains("more than 1000000 JSON values"),
            "{error}"
        );
        assert_eq!(lines.next(), Some("{\"id\":8}"));
    }

    #[tokio::test]
    async fn strings_with_brackets_and_escapes_are_not_values() {
        let mut count = ValueCount::default();
        count.feed(br#"{"a":"[,{\"],","b":[1,2]}"#);
        assert_eq!(count.values, 4);
    }
}
