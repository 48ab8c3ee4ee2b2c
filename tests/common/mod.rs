//! Helpers shared by the integration tests.

use serde_json::Value;
use toolplane::ExecutionResult;

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
