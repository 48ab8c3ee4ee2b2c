//! What an embedder may reach of the sandbox itself: interrupting runs, the import allowlist, the
//! counting allocator that makes in-process memory limits effective, and the worker entry point of
//! process isolation. The VM lives in a room of its own (`src/vm/`), the engines that run it in
//! another (`src/engine/`); see `docs/architecture.md`.

pub use crate::engine::worker_main_if_requested;
#[doc(hidden)]
pub use crate::vm::fuzzing;
pub use crate::vm::{
    ALLOWED_IMPORTS, CountingAllocator, SESSION_DISPLAY_NAME, SNIPPET_DISPLAY_NAME,
    SNIPPET_FILENAME, request_interrupt,
};

/// For toolplane's own tests: lets snippets make their VM panic (`_toolplane_host._panic_probe()`) in
/// this process's in-process runs and in the workers it starts after the call, to test that a panic is
/// reported and the engine carries on. Not for applications.
#[doc(hidden)]
pub fn enable_test_hooks() {
    crate::vm::enable_panic_probe();
}
