//! Capabilities: the registry of host functions, the bridge that dispatches every call from a snippet,
//! and the errors that cross back as Python builtins.

mod bridge;
mod discovery;
mod registry;

pub use crate::host_error::{BuiltinBase, HostError};
pub use bridge::Bridge;
pub use discovery::{call_shape, render_brief, schema_document};
pub use registry::{
    ARTIFACTS_LOAD, ARTIFACTS_SAVE, Capability, RESULTS_LOAD, RESULTS_SAVE, Registry,
    RegistryError, ToolFuture, ToolHandler, is_identifier, unknown_capability,
};

/// The error a host tool returns; its constructor picks the builtin the snippet sees:
/// `ToolError::value(..)` → `ValueError`, `::permission` → `PermissionError`, `::lookup` →
/// `LookupError`, `::type_error` → `TypeError`, `::runtime` → `RuntimeError`.
///
/// ```
/// use toolplane::{Capability, Config, Registry, ToolError, Toolplane};
/// let registry = std::sync::Arc::new(Registry::new());
/// registry.register(Capability::new("vault/open", |_| Err(ToolError::permission("the vault is closed")))).unwrap();
/// let runtime = Toolplane::with_registry(Config::default(), registry).unwrap();
/// let r = runtime.execute("try:\n    await vault_open()\nexcept PermissionError as e:\n    return str(e)", None).unwrap();
/// assert_eq!(r.value_json(), "the vault is closed");
/// ```
pub type ToolError = HostError;
