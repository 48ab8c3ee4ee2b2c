//! The one error type of toolplane's API, and the config error that is one of its sources. A
//! snippet's failure is not here: it is data, [`crate::execution::ExecutionError`].

use std::path::Path;

/// Everything fallible in toolplane's API returns this (a snippet's failure is an
/// [`ExecutionResult`](crate::ExecutionResult), not an error): the variant says what failed, and its source, where there is
/// one, says why in detail.
///
/// ```
/// let err = toolplane::Toolplane::new(Default::default()).unwrap().result_payload("res_nope").unwrap_err();
/// assert!(matches!(err, toolplane::Error::Store(_)));
/// assert!(err.to_string().contains("unknown or expired"), "{err}");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The config is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Input names take names the runtime binds.
    #[error("NamespaceCollisionError: Input names collide with Toolplane namespace bindings: {0}")]
    NamespaceCollision(String),
    /// A capability's canonical name is taken in the registry.
    #[error("Capability already registered: {0}")]
    DuplicateCapability(String),
    /// Process isolation (the default on Linux) has no worker executable: call
    /// [`crate::worker_main_if_requested`] first thing in `main`, set `[toolplane] worker_path` (or
    /// `TOOLPLANE_WORKER_EXE`) to a `toolplane` binary, or choose `Isolation::InProcess` knowingly
    /// (docs/sandbox.md says what it does not protect against).
    #[error("{0}")]
    NoWorker(String),
    /// The sandbox could not start (the zygote or its first worker, with process isolation): from
    /// [`Toolplane::prestart`](crate::Toolplane::prestart). A run started now would fail with the same text.
    #[error("the sandbox could not start: {0}")]
    SandboxStart(String),
    /// A store refused: an unknown or expired handle, or a store that is disabled. The source is
    /// what a snippet would see as a `ValueError`.
    #[error(transparent)]
    Store(#[from] crate::host_error::HostError),
    /// A run's inputs were JSON but not an object of names to values.
    #[error("inputs must be a JSON object of names to values, got {0}")]
    InputsNotAnObject(&'static str),
    /// The run could not be handed to a blocking thread (`execute_async` outside a tokio runtime, or
    /// the runtime shutting down).
    #[error("the run could not start: {0}")]
    Async(#[source] tokio::task::JoinError),
}

/// A config error: a one-line message that names the key at fault, the key itself when there is
/// one, and the file and I/O error behind it when reading failed.
///
/// It is the source of [`Error::Config`](crate::Error::Config).
///
/// ```
/// let err = toolplane::Config::from_toml_str("[limits]\ntimeout_seconds = -1\n").unwrap_err();
/// let toolplane::Error::Config(config_error) = &err else { panic!("{err}") };
/// assert_eq!(config_error.key(), Some("limits.timeout_seconds"));
/// assert!(err.to_string().starts_with("limits.timeout_seconds must be a positive number"));
/// ```
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ConfigError {
    pub(crate) message: String,
    pub(crate) key: Option<String>,
    pub(crate) path: Option<std::path::PathBuf>,
    #[source]
    pub(crate) source: Option<std::io::Error>,
}

impl ConfigError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            key: None,
            path: None,
            source: None,
        }
    }

    /// The same error, about `key` (a table, or `table.key`).
    pub(crate) fn at(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// An error about `key`.
    #[cfg(any(not(feature = "mcp"), feature = "redis"))]
    pub(crate) fn about(key: &str, message: impl Into<String>) -> Self {
        Self::new(message).at(key)
    }

    /// The key at fault (`"limits.timeout_seconds"`, or a table name), when the error is about one.
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// The config file, when the error came from [`Config::load`](crate::Config::load).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}
