//! The names a snippet's namespace is made of, in one place: the Rust side binds and checks them from
//! here, and the sandbox shim (`stdlib-shims/_toolplane.py`) reads the same constants from the native
//! `_toolplane_host` module when the interpreter starts, so the two can never disagree.
//!
//! Precedence when names meet: no capability alias takes a [`RESERVED_NAMES`] or [`STORE_SUGAR`] name or
//! a Python builtin, and an alias two capabilities would share is bound for neither (the original let an
//! alias replace the store sugar, and the first of two take the name); a run's inputs may shadow only
//! the store sugar.

/// `await call_tool("canonical/name", {...})`: every snippet has it.
pub const CALL_TOOL: &str = "call_tool";
/// `await reset_session()`: sessions only.
pub const RESET_SESSION: &str = "reset_session";
/// Names no capability alias and no input may take.
pub const RESERVED_NAMES: &[&str] = &[CALL_TOOL, RESET_SESSION];
/// The store functions every snippet has; inputs may shadow them.
pub const STORE_SUGAR: &[&str] = &[
    "save_result",
    "load_result",
    "save_artifact",
    "load_artifact",
];

/// Canonical names of the store capabilities, dispatched by the bridge.
pub const RESULTS_SAVE: &str = "toolplane:results/save";
/// See [`RESULTS_SAVE`].
pub const RESULTS_LOAD: &str = "toolplane:results/load";
/// See [`RESULTS_SAVE`].
pub const ARTIFACTS_SAVE: &str = "toolplane:artifacts/save";
/// The command-line tools capability (`[cli]`): what `await git(...)` and `cli_run(...)` call.
pub const CLI_RUN: &str = "toolplane:cli/run";

/// The one lesson on the call shape every CLI failure teaches (the original's text).
pub const CLI_SHAPE_GUIDANCE: &str = "CLI call shape: subcommand as the first positional argument, flags \
as keyword arguments \u{2014} e.g. await git('log', oneline=True, max_count=3) or await cli_run('git', \
'log', {'oneline': True, 'max_count': 3}). Flags that must precede the subcommand (git -C, kubectl \
--context) go in _global: await git('log', _global={'C': '/path/to/repo'})";
/// See [`RESULTS_SAVE`].
pub const ARTIFACTS_LOAD: &str = "toolplane:artifacts/load";

#[cfg(test)]
mod tests {

    #[test]
    fn the_reserved_names_and_the_sugar_are_named_here() {
        use crate::namespace::{RESERVED_NAMES, STORE_SUGAR};
        assert!(RESERVED_NAMES.contains(&"call_tool"));
        assert!(STORE_SUGAR.contains(&"save_result"));
    }
}
