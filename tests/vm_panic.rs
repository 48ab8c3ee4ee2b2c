//! A run whose VM panics ends as `SandboxCrashedError`, and the thread (or worker) that ran it keeps
//! serving: many more runs and allocations afterwards, in both isolation modes, fresh and session.
//!
//! Before the per-run state became RAII guards, the in-process memory account was freed by the panic
//! handler while the allocator's thread-local still pointed at it: every later allocation on the
//! sandbox thread wrote through a dangling pointer (the CLI's next session file died of SIGSEGV).

mod common;

use common::{err, ok};
use serde_json::json;
use toolplane::{Config, Isolation, Toolplane};

// The dangling pointer was the counting allocator's: it must be installed, as the binary does.
#[global_allocator]
static ALLOC: toolplane::CountingAllocator = toolplane::CountingAllocator;

/// A panic inside the VM, through the test hook (`toolplane::sandbox::enable_test_hooks`; the CLI's
/// `TOOLPLANE_TEST_HOOKS`). It was a code-generator panic once, which is a `MemoryError` now.
const VM_PANIC: &str = "import sys\nsys.modules['_toolplane_host']._panic_probe()";

fn config(isolation: Isolation) -> Config {
    toolplane::sandbox::enable_test_hooks();
    let mut config = Config::default();
    config.toolplane.isolation = Some(isolation);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config.limits.timeout_seconds = 60.0;
    config
}

fn isolations() -> Vec<Isolation> {
    if cfg!(target_os = "linux") {
        vec![Isolation::InProcess, Isolation::Process]
    } else {
        vec![Isolation::InProcess]
    }
}

/// Runs that allocate and free a good deal, each checked.
const ALLOCATING: &str = "rows = [{'id': i, 'name': 'row-' + str(i)} for i in range(2000)]\n\
                          text = ','.join(r['name'] for r in rows)\n\
                          return [len(rows), len(text)]";

fn assert_panic_reported(result: toolplane::ExecutionResult, mode: &str) {
    let (kind, message) = err(result);
    assert_eq!(kind, "SandboxCrashedError", "{mode}: {message}");
}

#[test]
fn fresh_runs_carry_on_after_a_vm_panic() {
    for isolation in isolations() {
        let rt = Toolplane::new(config(isolation)).unwrap();
        let handle = ok(rt
            .execute("return await save_result([1, 2])", None)
            .unwrap());
        for round in 0..2 {
            assert_panic_reported(
                rt.execute(VM_PANIC, None).unwrap(),
                &format!("{isolation:?} fresh, round {round}"),
            );
            for _ in 0..40 {
                assert_eq!(
                    ok(rt.execute(ALLOCATING, None).unwrap()),
                    json!([2000, 16889])
                );
            }
        }
        let inputs = json!({"h": handle}).as_object().cloned();
        assert_eq!(
            ok(rt.execute("return await load_result(h)", inputs).unwrap()),
            json!([1, 2])
        );
    }
}

#[test]
fn a_session_carries_on_after_a_vm_panic() {
    for isolation in isolations() {
        let rt = Toolplane::new(config(isolation)).unwrap();
        let session = rt.session();
        ok(session.execute("kept = 41", None).unwrap());
        assert_panic_reported(
            session.execute(VM_PANIC, None).unwrap(),
            &format!("{isolation:?} session"),
        );
        for _ in 0..100 {
            assert_eq!(
                ok(session.execute(ALLOCATING, None).unwrap()),
                json!([2000, 16889])
            );
        }
        // The session may have been reset by the panic, but it serves.
        ok(session.execute("kept = 1", None).unwrap());
        assert_eq!(
            ok(session.execute("return kept + 1", None).unwrap()),
            json!(2)
        );
    }
}

/// The CLI shape of the report: the next session file after the panicking one runs.
#[test]
fn the_cli_runs_the_next_session_file_after_a_vm_panic() {
    let dir = tempfile::tempdir().unwrap();
    let panics = dir.path().join("a.py");
    let after = dir.path().join("b.py");
    std::fs::write(&panics, VM_PANIC).unwrap();
    std::fs::write(
        &after,
        "rows = [str(i) * 10 for i in range(20000)]\nprint(len(rows))\n",
    )
    .unwrap();
    for isolation in ["in-process", "process"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .env("TOOLPLANE_TEST_HOOKS", "1")
            .args(["run", "--session", "--isolation", isolation])
            .arg(&panics)
            .arg(&after)
            .arg(&after)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code().is_some(),
            "{isolation}: killed by a signal: {:?}\n{stderr}",
            out.status
        );
        assert_eq!(
            stdout.matches("20000").count(),
            2,
            "{isolation}: stdout {stdout:?}, stderr {stderr:?}"
        );
        assert!(
            stderr.contains("SandboxCrashedError"),
            "{isolation}: {stderr}"
        );
    }
}

/// Without the hooks the panic probe is a `RuntimeError`, in both engines.
#[test]
fn the_panic_probe_is_inert_without_the_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let probe = dir.path().join("probe.py");
    std::fs::write(&probe, VM_PANIC).unwrap();
    for isolation in ["in-process", "process"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .env_remove("TOOLPLANE_TEST_HOOKS")
            .args(["run", "--isolation", isolation])
            .arg(&probe)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("RuntimeError: test hooks are off"),
            "{isolation}: {stderr}"
        );
    }
}
