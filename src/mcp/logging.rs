//! MCP logging: a run's stderr, the server's warnings, and (over stdio) the library's `tracing` events
//! as `notifications/message`, at the level each client set with `logging/setLevel`.
//!
//! The library's events reach a client only over stdio, where the process has one client: on HTTP they
//! would tell every client about the others' runs (a downstream server's stderr during one client's
//! call, say). The CLI's subscriber hands them to [`forward_event`].
//!
//! rmcp marks logging deprecated (SEP-2577 drops it from a later spec); the 2025-11-25 spec that
//! clients speak today has it, and clients such as the Inspector show it.
#![allow(deprecated)]

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, Ordering};

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::{Peer, RoleServer};
use serde_json::Value;

/// The logger name of a snippet's stderr.
const SNIPPET_LOGGER: &str = "snippet";
/// The logger name of the server's own messages.
const SERVER_LOGGER: &str = "toolplane";

fn severity(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// One client's logging level. Until the client sets one, only warnings and worse are sent: a
/// snippet's stderr is in its result anyway.
#[derive(Debug)]
pub(super) struct ClientLog {
    threshold: AtomicU8,
}

impl Default for ClientLog {
    fn default() -> Self {
        Self {
            threshold: AtomicU8::new(severity(LoggingLevel::Warning)),
        }
    }
}

impl ClientLog {
    /// `logging/setLevel`.
    pub(super) fn set(&self, level: LoggingLevel) {
        self.threshold.store(severity(level), Ordering::Relaxed);
    }

    fn wants(&self, level: LoggingLevel) -> bool {
        severity(level) >= self.threshold.load(Ordering::Relaxed)
    }

    async fn send(&self, peer: &Peer<RoleServer>, level: LoggingLevel, logger: &str, data: Value) {
        if !self.wants(level) {
            return;
        }
        let message = LoggingMessageNotificationParam::new(level, data).with_logger(logger);
        // A client that went away misses its log; the run's reply says the same.
        let _ = peer.notify_logging_message(message).await;
    }

    /// What a finished run tells the client's log: its stderr (`info`, logger `snippet`), and a
    /// sandbox that crashed or could not start (`warning`, logger `toolplane`: the server's trouble,
    /// not the snippet's).
    pub(super) async fn run_finished(
        &self,
        peer: &Peer<RoleServer>,
        result: &crate::execution::ExecutionResult,
    ) {
        if !result.stderr.is_empty() {
            let data = Value::String(result.stderr.clone());
            self.send(peer, LoggingLevel::Info, SNIPPET_LOGGER, data)
                .await;
        }
        if let Some(error) = &result.error
            && matches!(
                error.error_type.as_str(),
                "SandboxCrashedError" | "SandboxError"
            )
        {
            let data = Value::String(format!("{}: {}", error.error_type, error.message));
            self.send(peer, LoggingLevel::Warning, SERVER_LOGGER, data)
                .await;
        }
    }
}

/// Library events waiting to be sent, at most this many: a chatty downstream server must not grow the
/// host while the client reads slowly (later lines are dropped; they are on stderr too).
const FORWARD_QUEUE: usize = 1024;

/// Where the library's events go while a stdio client is served.
// Read by `forward_event`, which only the CLI's subscriber calls.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
struct Forward {
    log: Arc<ClientLog>,
    queue: tokio::sync::mpsc::Sender<(LoggingLevel, String, Value)>,
}

static FORWARD: Mutex<Option<Forward>> = Mutex::new(None);

fn forward_slot() -> std::sync::MutexGuard<'static, Option<Forward>> {
    FORWARD.lock().unwrap_or_else(|e| e.into_inner())
}

/// Forwarding to one stdio client, for as long as this lives; then the events stop.
pub(super) struct Forwarding {
    sender: tokio::task::JoinHandle<()>,
}

impl Drop for Forwarding {
    fn drop(&mut self) {
        forward_slot().take();
        self.sender.abort();
    }
}

/// Starts sending the library's events to `peer` (at `log`'s level), in order, from a task of the
/// current tokio runtime.
pub(super) fn forward_to(peer: Peer<RoleServer>, log: Arc<ClientLog>) -> Forwarding {
    let (queue, mut events) =
        tokio::sync::mpsc::channel::<(LoggingLevel, String, Value)>(FORWARD_QUEUE);
    let sender_log = log.clone();
    let sender = tokio::spawn(async move {
        while let Some((level, logger, data)) = events.recv().await {
            sender_log.send(&peer, level, &logger, data).await;
        }
    });
    *forward_slot() = Some(Forward { log, queue });
    Forwarding { sender }
}

/// A library event for the stdio client, if one is served and its level asks for it: `server` is the
/// downstream server whose stderr the line is (logger `mcp:NAME`), else the logger is `toolplane`.
/// Never blocks: called from a `tracing` layer on whatever thread logged.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub(crate) fn forward_event(level: &tracing::Level, server: Option<&str>, message: &str) {
    let level = match *level {
        tracing::Level::ERROR => LoggingLevel::Error,
        tracing::Level::WARN => LoggingLevel::Warning,
        tracing::Level::INFO => LoggingLevel::Info,
        _ => LoggingLevel::Debug,
    };
    let slot = forward_slot();
    let Some(forward) = slot.as_ref().filter(|f| f.log.wants(level)) else {
        return;
    };
    let logger = server.map_or_else(|| SERVER_LOGGER.to_string(), |name| format!("mcp:{name}"));
    let _ = forward
        .queue
        .try_send((level, logger, Value::String(message.to_string())));
}
