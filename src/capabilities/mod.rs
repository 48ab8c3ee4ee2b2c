//! Capabilities: the registry of host functions, the bridge that dispatches every call from a snippet,
//! and the errors that cross back as Python builtins.

mod bridge;
mod discovery;
mod registry;

pub use crate::host_error::{BuiltinBase, HostError};
pub use bridge::Bridge;
pub(crate) use bridge::Submitted;
#[cfg(feature = "mcp")]
pub(crate) use discovery::render_brief;
pub use discovery::{Detail, call_shape, render_capabilities, schema_document};
pub(crate) use registry::unknown_long_capability;
pub use registry::{
    ARTIFACTS_SAVE, Capability, MAX_CAPABILITY_NAME_BYTES, RESULTS_SAVE, Registry, ToolFuture,
};
pub(crate) use registry::{alias_is_taken_by_python, is_identifier, own_runtime};
