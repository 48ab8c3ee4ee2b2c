//! When a limit fired, the result says so, whatever the snippet's code did on the way out.
//!
//! Before: an exception whose `__str__` loops (catching `BaseException`) came back as its own type with
//! an empty message after the time limit, and a deeply nested 1 MiB expression under `RLIMIT_AS` was a
//! `SandboxCrashedError (status 101)` (the parser's stack growth panicked) instead of a `MemoryError`.

mod common;

use common::{config_for, err, isolations, ok};
use toolplane::{Isolation, Toolplane};

fn runtime(isolation: Isolation, timeout_seconds: f64) -> Toolplane {
    let mut config = config_for(isolation);
    config.limits.timeout_seconds = timeout_seconds;
    Toolplane::new(config).unwrap()
}

const STR_THAT_NEVER_ENDS: &str = "class E(Exception):
    def __str__(self):
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
raise E()";

#[test]
fn a_timeout_while_describing_the_error_is_a_timeout() {
    for isolation in isolations() {
        let rt = runtime(isolation, 1.0);
        let (kind, message) = err(rt.execute(STR_THAT_NEVER_ENDS, None).unwrap());
        assert_eq!(kind, "TimeoutError", "{isolation:?}: {message}");
        assert!(
            message.contains("timed out after 1s"),
            "{isolation:?}: {message}"
        );
        // A session reports it too (and with process isolation rolls back).
        let session = rt.session();
        session.execute("x = 1", None).unwrap();
        let (kind, _) = err(session.execute(STR_THAT_NEVER_ENDS, None).unwrap());
        assert_eq!(kind, "TimeoutError", "{isolation:?} session");
        assert_eq!(
            ok(session.execute("return x", None).unwrap()),
            1,
            "{isolation:?} session"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_parser_out_of_address_space_is_a_memory_error() {
    let code = format!("return {}1", "-".repeat((1 << 20) - 20));
    let rt = runtime(Isolation::Process, 30.0);
    let (kind, message) = err(rt.execute(&code, None).unwrap());
    assert_eq!(kind, "MemoryError", "{message}");
    assert!(message.contains("[limits] max_memory_mb"), "{message}");
    assert_eq!(ok(rt.execute("return 1", None).unwrap()), 1);
}
