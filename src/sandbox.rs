//! What a snippet may import ([`ALLOWED_IMPORTS`]), the interrupt a signal handler may raise
//! ([`request_interrupt`]), and hooks for toolplane's own tests and fuzzers.
//! The VM lives in a room of its own (`src/vm/`), the engines that run it in another
//! (`src/engine/`); see `docs/architecture.md`.

#[doc(hidden)]
pub use crate::vm::fuzzing;
pub use crate::vm::{ALLOWED_IMPORTS, request_interrupt};
#[cfg(feature = "cli")]
pub(crate) use crate::vm::{SESSION_DISPLAY_NAME, SNIPPET_DISPLAY_NAME};

/// For toolplane's own tests: lets snippets make their VM panic (`_toolplane_host._panic_probe()`) in
/// this process's in-process runs and in the workers it starts after the call, to test that a panic is
/// reported and the engine carries on. Not for applications.
#[doc(hidden)]
pub fn enable_test_hooks() {
    crate::vm::enable_panic_probe();
}
