//! The two stores a runtime owns: results (JSON in memory) and artifacts (bytes in a private temp dir).
//! Plain Rust, no VM: the bridge is the only caller from a snippet.

mod artifacts;
mod clock;
mod handle;
mod ledger;
mod results;

pub use artifacts::{
    ARTIFACTS_DISABLED, ArtifactInfo, ArtifactStore, DEFAULT_ARTIFACT_FILENAME, MAX_FILENAME_BYTES,
    is_valid_filename,
};
pub use clock::{Clock, ManualClock, MonotonicClock};
pub use handle::HANDLE_TOKEN_LEN;
pub use results::{RESULTS_DISABLED, ResultInfo, ResultStore, non_json_message};
