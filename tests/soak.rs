//! Soak: many mixed runs in one runtime (fresh and session, succeeding, failing, hitting limits) with
//! process isolation. Asserts every run ends as expected, host RSS grows ≤ 10% after warm-up, and when
//! the runtime goes no worker process and no artifact file is left behind.
//!
//! CI runs `soak_short` (600 runs); the full 10,000: `cargo t --test soak -- --ignored`.

use std::time::{Duration, Instant};

use serde_json::json;
use toolplane::{Config, Isolation, Toolplane};

#[path = "support/procfs.rs"]
mod procfs;
use procfs::{descendants, rss_kib};

fn soak(runs: usize) {
    let mut config = Config::default();
    config.toolplane.isolation = Some(Isolation::Process);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config.limits.timeout_seconds = 0.3;
    config.limits.max_memory_mb = 128;
    config.limits.session_max_memory_mb = 128;
    config.results.max_entries = 1_000_000;
    config.results.max_total_bytes = 1 << 30;
    config.artifacts.max_entries = 1_000_000;
    let runtime = Toolplane::new(config).unwrap();
    let artifact_dir = {
        let saved = runtime
            .execute(
                "return await save_artifact(b'first', filename='f.bin')",
                None,
            )
            .unwrap();
        assert!(saved.ok(), "{saved:?}");
        runtime.artifacts().root_dir().expect("artifact dir")
    };
    let session = runtime.session();
    let handle = runtime
        .execute("return await save_result({'rows': list(range(100))})", None)
        .unwrap()
        .value_json()
        .as_str()
        .unwrap()
        .to_string();
    let inputs = json!({"h": handle}).as_object().cloned();
    let warm_up = runs / 10;
    let mut rss_after_warm_up = 0;
    let started = Instant::now();
    for i in 0..runs {
        if i == warm_up {
            rss_after_warm_up = rss_kib();
        }
        // (code, expected error type or None, in the session?)
        let (code, expected, in_session): (&str, Option<&str>, bool) = match i % 20 {
            0 | 5 | 10 => ("return 1 + 1", None, false),
            1 => ("return sum((await load_result(h))['rows'])", None, false),
            2 => (
                "import json\nreturn json.loads(json.dumps({'a': [1, 2]}))",
                None,
                false,
            ),
            3 => ("raise ValueError('expected')", Some("ValueError"), false),
            4 => ("return await save_result([1, 2, 3])", None, false),
            6 => ("n = globals().get('n', 0) + 1\nreturn n", None, true),
            7 => (
                "x = [i * i for i in range(1000)]\nreturn len(x)",
                None,
                true,
            ),
            8 => ("undefined_name", Some("NameError"), true),
            9 => (
                "return await save_artifact(b'x' * 100, filename='a.bin')",
                None,
                false,
            ),
            11 => (
                "await call_tool('nobody/here', {})",
                Some("LookupError"),
                false,
            ),
            12 => (
                "def f(n):\n    return f(n + 1)\nf(0)",
                Some("RecursionError"),
                false,
            ),
            13 => ("print('x' * 100)\nreturn 0", None, true),
            14 if i % 400 == 14 => ("while True:\n    pass", Some("TimeoutError"), false),
            15 if i % 400 == 15 => (
                "x = bytearray(400 * 1024 * 1024)",
                Some("MemoryError"),
                false,
            ),
            16 if i % 400 == 16 => ("while True:\n    pass", Some("TimeoutError"), true),
            17 if i % 200 == 17 => ("await reset_session()", None, true),
            _ => ("return [1, 2, 3][-1]", None, i % 2 == 0),
        };
        let result = if in_session {
            session.execute(code, inputs.clone())
        } else {
            runtime.execute(code, inputs.clone())
        }
        .unwrap();
        let got = result.error.as_ref().map(|e| e.error_type.as_str());
        assert_eq!(
            got,
            expected,
            "run {i} ({code:?}): {:?}",
            result.error.as_ref().map(|e| &e.message)
        );
    }
    let rss_end = rss_kib();
    let growth = (rss_end as f64 - rss_after_warm_up as f64) / rss_after_warm_up as f64;
    eprintln!(
        "soak: {runs} runs in {:.1} s; host RSS {rss_after_warm_up} KiB after warm-up, {rss_end} KiB at the end ({:+.1}%)",
        started.elapsed().as_secs_f64(),
        growth * 100.0
    );
    assert!(growth <= 0.10, "host RSS grew {:.1}%", growth * 100.0);
    assert!(!descendants().is_empty(), "the workers should be alive now");
    drop(session);
    drop(runtime);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !descendants().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        descendants(),
        Vec::<u32>::new(),
        "worker processes left behind"
    );
    assert!(!artifact_dir.exists(), "artifact directory left behind");
}

#[test]
fn soak_short() {
    soak(600);
}

#[test]
#[ignore = "the full soak: 10,000 runs (about a minute); run with --ignored"]
fn soak_10000() {
    soak(10_000);
}
