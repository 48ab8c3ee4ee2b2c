//! The two stores a runtime owns: results (JSON in memory) and artifacts (bytes in a private temp dir).
//! Plain Rust, no VM: the bridge is the only caller from a snippet.

mod artifacts;
mod clock;
mod handle;
mod ledger;
#[cfg(feature = "redis")]
pub(crate) mod redis;
mod results;

#[cfg(feature = "mcp")]
pub(crate) use artifacts::ARTIFACTS_DISABLED;
pub use artifacts::{ArtifactInfo, ArtifactStore};
pub use clock::{Clock, ManualClock, MonotonicClock};
pub(crate) use handle::new_handle;
pub(crate) use results::{RESULTS_DISABLED, non_json_message};
pub use results::{ResultInfo, ResultStore};
