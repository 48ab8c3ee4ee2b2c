//! `"id": null` on error responses to requests whose id could not be read.
//!
//! rmcp follows a later spec draft (2026-07-28) that omits the member; JSON-RPC 2.0 and the MCP spec
//! clients speak today (2025-11-25) require `"id": null`, and strict clients reject a response
//! without an id. rmcp writes each message as one line, so the fix is a writer that looks at the
//! start of each line: an error without an id starts `{"jsonrpc":"2.0","error":`.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::AsyncWrite;

/// How an id-less error line starts (serde writes `JsonRpcError`'s fields in order, no spaces).
const ID_LESS_ERROR: &[u8] = br#"{"jsonrpc":"2.0","error":"#;
/// What it becomes.
const NULL_ID_ERROR: &[u8] = br#"{"jsonrpc":"2.0","id":null,"error":"#;

/// Wraps the writer rmcp sends line-delimited JSON-RPC messages to.
pub(super) struct NullIdWriter<W> {
    inner: W,
    /// The start of the current line, while it is too short to tell.
    line_start: Vec<u8>,
    /// Inside a line whose start was decided: bytes pass through up to its newline.
    mid_line: bool,
    /// Bytes accepted but not yet written to `inner`.
    pending: Vec<u8>,
}

impl<W> NullIdWriter<W> {
    pub(super) fn new(inner: W) -> Self {
        Self {
            inner,
            line_start: Vec::with_capacity(ID_LESS_ERROR.len()),
            mid_line: false,
            pending: Vec::new(),
        }
    }

    /// Moves `buf` into `pending`, fixing each id-less error line's start.
    fn accept(&mut self, mut buf: &[u8]) {
        while !buf.is_empty() {
            if self.mid_line {
                match memchr_newline(buf) {
                    Some(at) => {
                        self.pending.extend_from_slice(&buf[..=at]);
                        buf = &buf[at + 1..];
                        self.mid_line = false;
                    }
                    None => {
                        self.pending.extend_from_slice(buf);
                        return;
                    }
                }
                continue;
            }
            let room = ID_LESS_ERROR.len() - self.line_start.len();
            let take = buf.len().min(room);
            let (head, rest) = buf.split_at(take);
            match memchr_newline(head) {
                Some(at) => {
                    // A short line: never an id-less error.
                    self.line_start.extend_from_slice(&head[..=at]);
                    self.pending.append(&mut self.line_start);
                    buf = &buf[at + 1..];
                }
                None => {
                    self.line_start.extend_from_slice(head);
                    buf = rest;
                    if self.line_start.len() == ID_LESS_ERROR.len() {
                        self.decide();
                    }
                }
            }
        }
    }

    /// The line's start is known (or must be written now): emit it, fixed if it is an id-less error.
    fn decide(&mut self) {
        if self.line_start == ID_LESS_ERROR {
            self.pending.extend_from_slice(NULL_ID_ERROR);
            self.line_start.clear();
        } else {
            self.pending.append(&mut self.line_start);
        }
        self.mid_line = true;
    }
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

impl<W: AsyncWrite + Unpin> NullIdWriter<W> {
    /// Writes `pending` to `inner`.
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let written = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pending.drain(..written);
        }
        Poll::Ready(Ok(()))
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for NullIdWriter<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        // Back-pressure: nothing new is accepted while earlier bytes wait.
        ready!(this.poll_drain(cx))?;
        this.accept(buf);
        // Written on the next write or flush if the writer is busy now.
        if let Poll::Ready(Err(e)) = this.poll_drain(cx) {
            return Poll::Ready(Err(e));
        }
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.line_start.is_empty() {
            // A flush mid-way through a line's start: what has been written must go out.
            this.decide();
        }
        ready!(this.poll_drain(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.as_mut().poll_flush(cx))?;
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    async fn through(chunks: &[&[u8]]) -> String {
        let mut writer = NullIdWriter::new(Vec::new());
        for chunk in chunks {
            writer.write_all(chunk).await.unwrap();
        }
        writer.flush().await.unwrap();
        String::from_utf8(writer.inner).unwrap()
    }

    #[tokio::test]
    async fn id_less_errors_get_a_null_id_however_the_bytes_arrive() {
        let error = r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}"#;
        let reply = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        let with_id = r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"m"}}"#;
        let input = format!("{error}\n{reply}\nx\n{with_id}\n{error}\n");
        let expected = format!(
            "{}\n{reply}\nx\n{with_id}\n{}\n",
            error.replace(r#""2.0","#, r#""2.0","id":null,"#),
            error.replace(r#""2.0","#, r#""2.0","id":null,"#),
        );
        assert_eq!(through(&[input.as_bytes()]).await, expected);
        // Byte by byte, and split inside the prefix.
        let bytes = input.as_bytes();
        let single: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(through(&single).await, expected);
        let (a, b) = bytes.split_at(10);
        assert_eq!(through(&[a, b]).await, expected);
        // Values that merely contain the prefix are untouched.
        let quoted =
            r#"{"jsonrpc":"2.0","id":3,"result":{"text":"{\"jsonrpc\":\"2.0\",\"error\":"}}"#;
        assert_eq!(
            through(&[format!("{quoted}\n").as_bytes()]).await,
            format!("{quoted}\n")
        );
    }
}
