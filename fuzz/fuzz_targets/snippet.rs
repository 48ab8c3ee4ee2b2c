//! Arbitrary source text as a snippet, in one in-process session with small limits: every input must
//! end as an ExecutionResult (a value or a Python error), never a panic or a crash. An input starting
//! with `#!shape` is built into one of the compile or teardown shapes of issue 17 instead
//! (`toolplane::sandbox::fuzzing::shaped_snippet`), and the session must answer a plain run after it.
#![no_main]

use std::sync::OnceLock;

use toolplane::{Config, Session, Toolplane};

fn session() -> &'static Session {
    static RUNTIME: OnceLock<&'static Toolplane> = OnceLock::new();
    static SESSION: OnceLock<Session> = OnceLock::new();
    SESSION.get_or_init(|| {
        let runtime = RUNTIME.get_or_init(|| {
            let mut config = Config::default();
            config.toolplane.isolation = Some(toolplane::Isolation::InProcess);
            config.limits.timeout_seconds = 0.5;
            config.limits.max_memory_mb = 64;
            config.session.max_memory_mb = 64;
            config.limits.max_output_bytes = 64 * 1024;
            Box::leak(Box::new(Toolplane::new(config).expect("an in-process runtime")))
        });
        runtime.session()
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let session = session();
    let code = match data.strip_prefix(b"#!shape") {
        Some(rest) => toolplane::sandbox::fuzzing::shaped_snippet(rest),
        None => match std::str::from_utf8(data) {
            Ok(code) => code.to_string(),
            Err(_) => return,
        },
    };
    let result = session.execute(&code, None).expect("no inputs, no collision");
    if let Some(error) = &result.error {
        assert_ne!(error.error_type, "SandboxCrashedError", "{}", error.message);
    }
    session.reset();
    let after = session.execute("return 1 + 1", None).expect("no inputs");
    assert!(after.ok(), "the session did not recover: {:?}", after.error);
});
