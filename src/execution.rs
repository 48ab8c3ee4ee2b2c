//! The result of a run: the JSON contract shared with the Python original's `ExecutionResult`.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

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
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ExecutionResult {
    /// The snippet's value (`return` at top level) as the exact JSON text the sandbox wrote — Python's
    /// `json.dumps` form, integers of any size included; `null` on error. Read it with
    /// [`ExecutionResult::value_as`] or [`ExecutionResult::value_json`], or use the text as it is.
    pub value: Box<RawValue>,
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

impl ExecutionError {
    /// What kind of failure this is, for a host that branches on it rather than on the Python type name
    /// (which [`error_type`](Self::error_type) keeps: a subclass a snippet defines is `Other`).
    ///
    /// ```
    /// use toolplane::{ErrorKind, Toolplane};
    /// let runtime = Toolplane::builder().isolation(toolplane::Isolation::InProcess).build().unwrap();
    /// let error = runtime.execute("return await load_result('res_nope')", None).unwrap().error.unwrap();
    /// assert_eq!(error.kind(), ErrorKind::Value); // the store's errors are ValueError
    /// let error = runtime.execute("await call_tool('no/such', {})", None).unwrap().error.unwrap();
    /// assert_eq!(error.kind(), ErrorKind::Lookup);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        ErrorKind::of(&self.error_type)
    }
}

/// The kind of a snippet's failure ([`ExecutionError::kind`]): the limits, the sandbox's own failures and
/// the contract's error mapping (store → `Value`, policy → `Permission`, unknown capability → `Lookup`)
/// as variants, any other exception by its Python type name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The run's time limit (`TimeoutError`).
    Timeout,
    /// The run's memory or output limit, or an allocation that failed (`MemoryError`).
    Memory,
    /// Recursion past `max_recursion_depth` (`RecursionError`).
    Recursion,
    /// The run was cancelled by its host or client (`CancelledError`).
    Cancelled,
    /// A policy refused the call (`PermissionError`).
    Permission,
    /// An unknown capability, or a key or index not there (`LookupError`, `KeyError`, `IndexError`).
    Lookup,
    /// A store refused the value or handle, or a value was wrong (`ValueError` and its Unicode errors).
    Value,
    /// Arguments of the wrong type or shape (`TypeError`).
    Type,
    /// The snippet does not parse (`SyntaxError`, `IndentationError`, `TabError`).
    Syntax,
    /// The sandbox's process or thread ended without an answer (`SandboxCrashedError`), or it could not
    /// run the snippet at all (`SandboxError`).
    Crashed,
    /// Any other exception, by its Python type name.
    Other(String),
}

impl ErrorKind {
    fn of(type_name: &str) -> Self {
        match type_name {
            "TimeoutError" => Self::Timeout,
            "MemoryError" => Self::Memory,
            "RecursionError" => Self::Recursion,
            "CancelledError" => Self::Cancelled,
            "PermissionError" => Self::Permission,
            "LookupError" | "KeyError" | "IndexError" => Self::Lookup,
            "ValueError"
            | "UnicodeError"
            | "UnicodeDecodeError"
            | "UnicodeEncodeError"
            | "UnicodeTranslateError" => Self::Value,
            "TypeError" => Self::Type,
            "SyntaxError" | "IndentationError" | "TabError" => Self::Syntax,
            "SandboxCrashedError" | "SandboxError" => Self::Crashed,
            other => Self::Other(other.to_string()),
        }
    }
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

impl PartialEq for ExecutionResult {
    fn eq(&self, other: &Self) -> bool {
        self.value.get() == other.value.get()
            && self.stdout == other.stdout
            && self.stderr == other.stderr
            && self.duration_ms == other.duration_ms
            && self.backend == other.backend
            && self.error == other.error
            && self.artifacts == other.artifacts
    }
}

/// The JSON text `null`.
pub(crate) fn null_value() -> Box<RawValue> {
    RawValue::NULL.to_owned()
}

impl ExecutionResult {
    /// The value as a [`serde_json::Value`]. Exact with the default `exact-numbers` feature; without
    /// it, integers beyond 64 bits become floats here (the [`ExecutionResult::value`] text keeps them).
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let r = runtime.execute("return {'total': 60, 'big': 2**70}", None).unwrap();
    /// assert_eq!(r.value_json()["total"], 60);
    /// assert_eq!(r.value.get(), r#"{"total": 60, "big": 1180591620717411303424}"#);
    /// # #[cfg(feature = "exact-numbers")]
    /// assert_eq!(r.value_json()["big"].to_string(), "1180591620717411303424");
    /// ```
    pub fn value_json(&self) -> serde_json::Value {
        serde_json::from_str(self.value.get()).unwrap_or(serde_json::Value::Null)
    }

    /// The value read into `T`.
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let r = runtime.execute("return [1, 2, 3]", None).unwrap();
    /// assert_eq!(r.value_as::<Vec<u8>>().unwrap(), [1, 2, 3]);
    /// ```
    pub fn value_as<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_str(self.value.get())
    }

    /// Whether the value is `None` (also the value of a failed run).
    pub fn value_is_null(&self) -> bool {
        self.value.get() == "null"
    }

    /// Whether the run ended without an uncaught exception.
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }

    /// A result carrying only an error.
    pub fn failed(error_type: &str, message: impl Into<String>, duration_ms: f64) -> Self {
        Self {
            value: null_value(),
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
