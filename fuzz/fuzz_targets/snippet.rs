//! Arbitrary source text as a snippet, in one in-process session with small limits: every input must
//! end as an ExecutionResult (a value or a Python error), never a panic or a crash.
#![no_main]

use std::sync::OnceLock;

use toolplane::{Config, Session, Toolplane};

fn session() -> &'static Session {
    static RUNTIME: OnceLock<&'static Toolplane> = OnceLock::new();
    static SESSION: OnceLock<Session> = OnceLock::new();
    SESSION.get_or_init(|| {
        let runtime = RUNTIME.get_or_init(|| {
            let mut config = Config::default();
            config.limits.timeout_seconds = 0.5;
            config.limits.max_memory_mb = 64;
            config.session.max_memory_mb = 64;
            config.limits.max_output_bytes = 64 * 1024;
            Box::leak(Box::new(Toolplane::new(config)))
        });
        runtime.session()
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(code) = std::str::from_utf8(data) else {
        return;
    };
    let session = session();
    let result = session.execute(code, None).expect("no inputs, no collision");
    if let Some(error) = &result.error {
        assert_ne!(error.error_type, "SandboxCrashedError", "{}", error.message);
    }
    session.reset();
});
