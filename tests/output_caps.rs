//! Caps that everything counts: a snippet's exception (its type name, message and traceback) is held
//! to the run's output budget like its printed output, and artifact labels count toward the artifact
//! store's caps. Both engines.
//!
//! Before: an exception type named `"E" * (50 << 20)` made a 100 MB result under `max_output_bytes =
//! 1 MiB`, and four artifacts with 100 MB labels took the host to 623 MB.

mod common;

use common::{config_for, err, isolations, ok};
use toolplane::{Isolation, Toolplane};

const OUTPUT_LIMIT: usize = 1 << 20;

fn runtime(isolation: Isolation) -> Toolplane {
    let mut config = config_for(isolation);
    config.limits.max_output_bytes = OUTPUT_LIMIT;
    config.limits.timeout_seconds = 30.0;
    Toolplane::new(config).unwrap()
}

/// Each raises an exception with at least one field far over the output limit.
const HUGE_ERRORS: &[(&str, &str)] = &[
    (
        "type name",
        // 4 MiB: a 50 MiB name makes describing the error pass the memory limit, which is then what
        // the run reports (tests/limit_reports.rs).
        "E = type('E' * (4 << 20), (Exception,), {})\nraise E('boom')",
    ),
    ("message", "raise ValueError('m' * (20 << 20))"),
    (
        "chained messages",
        "try:\n    raise ValueError('a' * (5 << 20))\nexcept ValueError:\n    raise KeyError('b' * (5 << 20))",
    ),
    (
        "after full output",
        "import sys\nsys.stdout.write('o' * ((1 << 20) - 10))\nraise ValueError('m' * (5 << 20))",
    ),
];

#[test]
fn error_fields_are_held_to_the_output_budget() {
    for isolation in isolations() {
        let rt = runtime(isolation);
        for (what, code) in HUGE_ERRORS {
            let result = rt.execute(code, None).unwrap();
            let line = serde_json::to_string(&result).unwrap();
            assert!(
                line.len() < OUTPUT_LIMIT + (64 << 10),
                "{isolation:?}, {what}: a result of {} bytes",
                line.len()
            );
            let error = result.error.unwrap();
            let cut = [&error.error_type, &error.message, &error.traceback];
            assert!(
                cut.iter().any(|field| field.contains("bytes, cut to")),
                "{isolation:?}, {what}: no field says it was cut"
            );
            if *what != "type name" {
                assert!(
                    error.message.contains("[limits] max_output_bytes"),
                    "{isolation:?}, {what}: {}",
                    &error.message[..200.min(error.message.len())]
                );
            }
        }
        // An ordinary error is untouched.
        let (kind, message) = err(rt.execute("{}['k']", None).unwrap());
        assert_eq!((kind.as_str(), message.as_str()), ("KeyError", "'k'"));
    }
}

#[test]
fn artifact_labels_count_toward_the_artifact_caps() {
    for isolation in isolations() {
        let rt = runtime(isolation);
        let code = "try:\n    await save_artifact(b'x', label='l' * (100 << 20))\nexcept ValueError as e:\n    return str(e)";
        let message = ok(rt.execute(code, None).unwrap());
        assert_eq!(
            message,
            "artifact is 104857601 bytes with its 104857600-byte label, over the per-artifact limit of \
             67108864 bytes; save a smaller file",
            "{isolation:?}"
        );
    }
}
