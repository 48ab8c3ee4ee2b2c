//! # toolplane
//!
//! A runtime for "code mode": an AI agent writes a short Python snippet, and toolplane runs it in a
//! sandboxed, embedded Python VM ([RustPython]) whose only way to touch the world is a small set of host
//! functions — the *externals*:
//!
//! - `await save_result(value, label=None)` → a `res_…` handle; `await load_result(handle)` → the value.
//!   JSON values, kept in host memory, so a later run (or an MCP client) can read them back without the
//!   data passing through the model's context.
//! - `await save_artifact(data: bytes, filename=None, label=None)` → an `art_…` handle;
//!   `await load_artifact(handle)` → bytes. Files in a private temp dir, removed with the runtime.
//! - `await call_tool("canonical/name", {...})` → whatever the host capability returns.
//!
//! Every run gets a fresh VM; only what was saved survives. Store errors are `ValueError` in the
//! snippet, policy refusals `PermissionError`, unknown capabilities `LookupError`.
//!
//! ```
//! use toolplane::{Config, Toolplane};
//!
//! let runtime = Toolplane::new(Config::default());
//! let result = runtime
//!     .execute("print('hello')\nh = await save_result([1, 2, 3], label='nums')\nreturn {'n': 3, 'handle': h}", None)
//!     .unwrap();
//! assert!(result.ok());
//! assert_eq!(result.stdout, "hello\n");
//! let handle = result.value["handle"].as_str().unwrap();
//! assert_eq!(&*runtime.result_payload(handle).unwrap(), "[1, 2, 3]");
//! ```
//!
//! [RustPython]: https://github.com/RustPython/RustPython

pub mod canonical;
pub mod capabilities;
pub mod cli;
pub mod config;
pub mod execution;
pub mod mcp;
mod runtime;
pub mod sandbox;
pub mod stores;

pub use capabilities::{
    Bridge, BuiltinBase, Capability, HostError, Registry, RegistryError, ToolError, ToolFuture,
};
pub use config::{Config, ConfigError, Isolation};
pub use execution::{ArtifactRef, ExecutionError, ExecutionResult};
pub use runtime::{Error, RESERVED_NAMES, Session, Toolplane, ToolplaneBuilder};
pub use sandbox::{CountingAllocator, worker_main_if_requested};
/// The `schemars` crate typed tools derive their parameter schemas with (`#[derive(toolplane::schemars::JsonSchema)]`).
pub use schemars;
