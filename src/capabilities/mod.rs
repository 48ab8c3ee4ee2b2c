//! Capabilities: the registry of host functions, the bridge that dispatches every call from a snippet,
//! and the errors that cross back as Python builtins.

mod bridge;
mod discovery;
mod error;
mod registry;

pub use bridge::Bridge;
pub use discovery::{call_shape, render_brief, schema_document};
pub use error::{BuiltinBase, HostError};
pub use registry::{
    ARTIFACTS_LOAD, ARTIFACTS_SAVE, Capability, RESULTS_LOAD, RESULTS_SAVE, Registry,
    RegistryError, ToolHandler, is_identifier, unknown_capability,
};
