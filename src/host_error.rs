//! Host errors and the builtin exception each one becomes inside the sandbox.

use std::fmt;

/// The Python builtin a host error is raised as in the snippet, so `except ValueError:` works for every
/// store error, `except PermissionError:` for policy, and `except LookupError:` for unknown capabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum BuiltinBase {
    /// `ValueError`: store errors (unknown handle, caps, non-JSON values).
    ValueError,
    /// `PermissionError`: policy refusals.
    PermissionError,
    /// `LookupError`: unknown capability names.
    LookupError,
    /// `TypeError`: bad argument shapes.
    TypeError,
    /// `TimeoutError`: a host-side deadline.
    TimeoutError,
    /// `MemoryError`: a host-side memory cap.
    MemoryError,
    /// `RuntimeError`: anything else, including a host tool that panicked.
    RuntimeError,
    /// `FileNotFoundError`: a command-line tool that is not on `PATH` (`[cli]`).
    FileNotFoundError,
}

impl BuiltinBase {
    /// The Python name of the builtin, e.g. `"ValueError"`.
    ///
    /// ```
    /// assert_eq!(toolplane::BuiltinBase::LookupError.python_name(), "LookupError");
    /// ```
    pub fn python_name(self) -> &'static str {
        match self {
            Self::ValueError => "ValueError",
            Self::PermissionError => "PermissionError",
            Self::LookupError => "LookupError",
            Self::TypeError => "TypeError",
            Self::TimeoutError => "TimeoutError",
            Self::MemoryError => "MemoryError",
            Self::RuntimeError => "RuntimeError",
            Self::FileNotFoundError => "FileNotFoundError",
        }
    }
}

/// An error raised by the host in answer to a call from the sandbox: what a store refusal and a host
/// tool's failure both are. It carries the builtin it is raised as and the message the snippet sees;
/// host tracebacks never cross. A tool's constructor picks the builtin: `HostError::value(..)` →
/// `ValueError`, `::permission` → `PermissionError`, `::lookup` → `LookupError`, `::type_error` →
/// `TypeError`, `::runtime` → `RuntimeError`.
///
/// ```
/// use toolplane::{BuiltinBase, Capability, Config, HostError, Registry, Toolplane};
/// let err = HostError::value("unknown or expired result handle: 'res_x'");
/// assert_eq!(err.base, BuiltinBase::ValueError);
///
/// let registry = std::sync::Arc::new(Registry::new());
/// registry.register(Capability::new("vault/open", |_| Err(HostError::permission("the vault is closed")))).unwrap();
/// let runtime = Toolplane::with_registry(Config::default(), registry).unwrap();
/// let r = runtime.execute("try:\n    await vault_open()\nexcept PermissionError as e:\n    return str(e)", None).unwrap();
/// assert_eq!(r.value_json(), "the vault is closed");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HostError {
    /// The builtin exception class raised in the snippet.
    pub base: BuiltinBase,
    /// The exception's message.
    pub message: String,
}

impl HostError {
    /// An error of the given builtin base.
    pub fn new(base: BuiltinBase, message: impl Into<String>) -> Self {
        Self {
            base,
            message: message.into(),
        }
    }
    /// A `ValueError`.
    pub fn value(message: impl Into<String>) -> Self {
        Self::new(BuiltinBase::ValueError, message)
    }
    /// A `PermissionError`.
    pub fn permission(message: impl Into<String>) -> Self {
        Self::new(BuiltinBase::PermissionError, message)
    }
    /// A `LookupError`.
    pub fn lookup(message: impl Into<String>) -> Self {
        Self::new(BuiltinBase::LookupError, message)
    }
    /// A `TypeError`.
    pub fn type_error(message: impl Into<String>) -> Self {
        Self::new(BuiltinBase::TypeError, message)
    }
    /// A `RuntimeError`.
    pub fn runtime(message: impl Into<String>) -> Self {
        Self::new(BuiltinBase::RuntimeError, message)
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.base.python_name(), self.message)
    }
}

impl std::error::Error for HostError {}
