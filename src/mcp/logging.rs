//! MCP logging: a run's stderr and the server's warnings as `notifications/message`, at the level
//! each client set with `logging/setLevel`.
//!
//! rmcp marks logging deprecated (SEP-2577 drops it from a later spec); the 2025-11-25 spec that
//! clients speak today has it, and clients such as the Inspector show it.
#![allow(deprecated)]

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

    async fn send(&self, peer: &Peer<RoleServer>, level: LoggingLevel, logger: &str, data: Value) {
        if severity(level) < self.threshold.load(Ordering::Relaxed) {
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
