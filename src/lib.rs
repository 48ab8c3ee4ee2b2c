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
//! ## The model
//!
//! - A [`Toolplane`] runtime owns a result store, an artifact store and a bridge to a [`Registry`]
//!   of host capabilities (which several runtimes may share; stores are never shared). Build one with
//!   [`Toolplane::new`], [`Toolplane::from_config_file`] or [`Toolplane::builder`].
//! - [`Toolplane::execute`] runs a snippet in a fresh VM and returns an [`ExecutionResult`]: the value of
//!   its top-level `return`, captured stdout/stderr, and the uncaught exception if any — a snippet's
//!   failure is data, never an `Err` or a panic. [`Toolplane::execute_async`] does the same without
//!   blocking a tokio executor.
//! - [`Toolplane::session`] gives a [`Session`]: one VM whose variables persist across its runs.
//! - Host capabilities are Rust closures: [`Capability::new`] (JSON in, JSON out),
//!   [`Capability::typed`] (serde types, schema derived with [`schemars`]), [`Capability::new_async`]
//!   and [`Capability::typed_async`] (futures that overlap when a snippet makes several calls before
//!   awaiting them). A [`HostError`] picks the Python exception the snippet sees; a panic becomes a
//!   `RuntimeError` there and never reaches the host.
//! - Where snippets run is [`Isolation`]: in worker processes forked from a pre-warmed zygote (the
//!   default on Linux: hard memory and time limits, crashes contained, each child jailed by seccomp),
//!   or in process (a sandbox thread; an explicit choice, see `docs/sandbox.md`). [`Limits`] (the
//!   config's `[limits]`, or [`ToolplaneBuilder::limits`]) end a run with a Python exception and leave
//!   the host and its stores intact.
//! - Everything fallible returns [`Error`]; [`Config`] and its sections are `#[non_exhaustive]` structs
//!   built from a file, a string or `default()`, then changed field by field.
//! - [`mcp::McpServer`] serves a runtime to agents over MCP; [`discovery`] renders capabilities as it shows
//!   them to a model.
//!
//! ```
//! use toolplane::{Capability, HostError, Toolplane};
//!
//! #[derive(serde::Deserialize, toolplane::schemars::JsonSchema)]
//! #[schemars(crate = "toolplane::schemars")] // the derive names its crate: toolplane re-exports it
//! struct Get { id: u32 }
//!
//! let runtime = Toolplane::builder()
//!     .tool(Capability::typed("orders/get", |a: Get| match a.id {
//!         0 => Err(HostError::lookup("no order 0")),
//!         id => Ok(serde_json::json!({"id": id, "total": id * 10})),
//!     }))
//!     .build()
//!     .unwrap();
//! let code = "rows = [await orders_get(id=i) for i in (1, 2, 3)]\n\
//!             h = await save_result(rows)\n\
//!             try:\n    await orders_get(id=0)\nexcept LookupError:\n    pass\n\
//!             return {'total': sum(r['total'] for r in rows), 'rows': h}";
//! let result = runtime.execute(code, None).unwrap();
//! let value = result.value_json();
//! assert_eq!(value["total"], 60);
//! let rows = runtime.result_payload(value["rows"].as_str().unwrap()).unwrap();
//! assert!(rows.starts_with(r#"[{"id": 1, "total": 10}"#));
//! ```
//!
//! [RustPython]: https://github.com/RustPython/RustPython

#![warn(missing_docs)]

mod audit;
mod cancel;
mod canonical;
mod capabilities;
mod commands;
// The `toolplane` binary's entry point: public only because the binary is another crate.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
mod config;
mod engine;
mod error;
mod execution;
mod host_error;
#[cfg(feature = "mcp")]
pub mod mcp;
#[cfg(feature = "mcp")]
pub mod mcp_client;
mod namespace;
mod runtime;
pub mod sandbox;
#[cfg(feature = "keyring")]
mod secrets;
pub mod stores;
mod vm;

// The Rust examples in the README and the embedding guide are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
#[cfg(doctest)]
#[doc = include_str!("../docs/embedding.md")]
struct EmbeddingGuideExamples;

pub use cancel::CancelToken;
pub use capabilities::{BuiltinBase, Capability, HostError, Registry, ToolFuture};
pub use config::{
    ArtifactsConfig, AuditConfig, CliConfig, Config, HybridConfig, Isolation, Limits, McpConfig,
    McpServerConfig, ResultsConfig, SessionConfig, ToolplaneConfig,
};
pub use engine::{Workers, worker_main_if_requested};
pub use error::{ConfigError, Error};
pub use execution::{ArtifactRef, ErrorKind, ExecutionError, ExecutionResult};
pub use runtime::{ClientScope, Inputs, Session, Toolplane, ToolplaneBuilder};
pub use vm::CountingAllocator;

/// What a snippet is told about the capabilities it may call, for an application that writes its
/// own prompt or tool listing: the call shapes, schema documents and markdown that the MCP server's
/// discovery tools show, as the Python original renders them.
///
/// ```
/// use toolplane::{Capability, discovery};
/// let add = Capability::new("math/add", |p| Ok(p)).alias("add").description("Add two numbers.")
///     .schema(serde_json::json!({"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}));
/// assert_eq!(discovery::call_shape(&add), "await add(x=<integer>)");
/// let detailed = discovery::render(&[add.clone()], discovery::Detail::Detailed, &[]);
/// assert!(detailed.starts_with("### math/add\n\nAdd two numbers.\n\n**Call**: `await add(x=<integer>)`"));
/// let full: serde_json::Value = serde_json::from_str(&discovery::render(&[add], discovery::Detail::Full, &["nope".into()])).unwrap();
/// assert_eq!(full[0]["inputSchema"]["required"][0], "x");
/// assert_eq!(full[1]["not_found"][0], "nope");
/// ```
pub mod discovery {
    use crate::capabilities::Capability;
    use crate::namespace::RESERVED_NAMES;

    pub use crate::capabilities::Detail;

    /// How a snippet calls `capability`: `await alias(x=<integer>, note=<string?>?)`, or
    /// `await call_tool("name", {...})` when it has no usable alias.
    pub fn call_shape(capability: &Capability) -> String {
        crate::capabilities::call_shape(capability, RESERVED_NAMES)
    }

    /// `capabilities` at `detail`; `missing` (names asked for and not found) get a closing signpost.
    pub fn render(capabilities: &[Capability], detail: Detail, missing: &[String]) -> String {
        crate::capabilities::render_capabilities(capabilities, detail, missing, RESERVED_NAMES)
    }

    /// The schema document of one capability (what `Detail::Full` shows of it): `name`,
    /// `description`, `inputSchema`, `source`, `call`, and `tags`, `aliases`, `hidden`,
    /// `outputSchema` when set.
    pub fn schema_document(capability: &Capability) -> serde_json::Value {
        crate::capabilities::schema_document(capability, RESERVED_NAMES)
    }
}

/// The `schemars` crate typed tools derive their parameter schemas with: `#[derive(toolplane::schemars::JsonSchema)]`
/// with `#[schemars(crate = "toolplane::schemars")]`, since the derive otherwise names a `schemars` of your own.
pub use schemars;
