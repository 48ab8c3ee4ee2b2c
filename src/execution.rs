//! The result of a run: the JSON contract shared with the Python original's `ExecutionResult`.

use serde::{Deserialize, Serialize};

/// The backend name reported in every result.
pub const BACKEND_NAME: &str = "rustpython";

/// What one run produced: `{value, stdout, stderr, duration_ms, backend, error, artifacts}`.
///
/// ```
/// let r = toolplane::ExecutionResult::failed("TimeoutError", "execution timed out after 1s", 1000.0);
/// assert!(!r.ok());
/// let json = serde_json::to_value(&r).unwrap();
/// assert_eq!(json["error"]["type"], "TimeoutError");
/// assert_eq!(json["backend"], "rustpython");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExecutionResult {
    /// The snippet's value (`return` at top level), as JSON; `null` on error.
    pub value: serde_json::Value,
    /// Captured `print` output and `sys.stdout` writes.
    pub stdout: String,
    /// Captured `sys.stderr` writes.
    pub stderr: String,
    /// Wall time of the run in milliseconds.
    pub duration_ms: f64,
    /// Always `"rustpython"`.
    pub backend: String,
    /// The uncaught exception, or `null`.
    pub error: Option<ExecutionError>,
    /// Artifacts saved during this run.
    pub artifacts: Vec<ArtifactRef>,
}

/// An uncaught exception: its Python type name, message and traceback.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExecutionError {
    /// The exception's class name, e.g. `ValueError`, `TimeoutError`, `SyntaxError`.
    #[serde(rename = "type")]
    pub error_type: String,
    /// `str(exception)`.
    pub message: String,
    /// A Python-style traceback whose line numbers are the snippet's (empty when there is none).
    pub traceback: String,
}

/// An artifact saved during a run, with the URI the MCP server serves it under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArtifactRef {
    /// The `art_` handle.
    pub handle: String,
    /// Its filename.
    pub filename: String,
    /// Its size.
    pub size_bytes: usize,
    /// Its label.
    pub label: Option<String>,
    /// `toolplane://artifacts/<handle>`.
    pub uri: String,
}

impl ExecutionResult {
    /// Whether the run ended without an uncaught exception.
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// A result carrying only an error.
    pub fn failed(error_type: &str, message: impl Into<String>, duration_ms: f64) -> Self {
        Self {
            value: serde_json::Value::Null,
            stdout: String::new(),
            stderr: String::new(),
            duration_ms,
            backend: BACKEND_NAME.into(),
            error: Some(ExecutionError {
                error_type: error_type.into(),
                message: message.into(),
                traceback: String::new(),
            }),
            artifacts: Vec::new(),
        }
    }
}
