//! Helpers shared by the integration tests.

// Each test crate uses some of these.
#![allow(dead_code)]

use serde_json::Value;
use toolplane::{Config, ExecutionResult, Isolation};

/// The engines to test every sandbox property in: both where process isolation runs.
pub fn isolations() -> Vec<Isolation> {
    if cfg!(target_os = "linux") {
        vec![Isolation::InProcess, Isolation::Process]
    } else {
        vec![Isolation::InProcess]
    }
}

/// The default config with `isolation`, and this build's binary as the worker.
pub fn config_for(isolation: Isolation) -> Config {
    let mut config = Config::default();
    config.toolplane.isolation = Some(isolation);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config
}

/// The value of a run that must succeed.
pub fn ok(result: ExecutionResult) -> Value {
    assert!(
        result.error.is_none(),
        "unexpected error: {:?}",
        result.error
    );
    result.value_json()
}

/// The error type and message of a run that must fail.
pub fn err(result: ExecutionResult) -> (String, String) {
    let e = result
        .error
        .unwrap_or_else(|| panic!("expected an error, got {}", result.value));
    (e.error_type, e.message)
}
