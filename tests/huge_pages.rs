//! The zygote moves its heap and the executable's read-only pages onto transparent huge pages in idle
//! time (src/engine/hugepages.rs). This checks that it happens where the kernel can collapse pages,
//! and that runs forked after the move behave exactly as before: code, tracebacks, limits, sessions.
//! One test in its own binary, so the zygote it inspects is the only one.
#![cfg(target_os = "linux")]

mod common;
#[path = "support/procfs.rs"]
mod procfs;

use std::time::{Duration, Instant};

use common::{err, ok};
use serde_json::json;
use toolplane::{Config, Isolation, Toolplane};

/// Whether the zygote moves onto huge pages on this machine: `toolplane doctor` tries a collapse of
/// scratch memory (THP on, `MADV_COLLAPSE` supported, a free 2 MiB page) and says.
fn kernel_collapses_pages() -> bool {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .arg("doctor")
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run toolplane doctor");
    let report = String::from_utf8_lossy(&out.stdout);
    let line = report
        .lines()
        .find(|l| l.contains("zygote on huge pages"))
        .unwrap_or_else(|| panic!("doctor says nothing of huge pages: {report}"));
    line.ends_with(": yes")
}

#[test]
fn runs_after_the_zygote_moved_onto_huge_pages_behave_the_same() {
    let mut config = Config::default();
    config.toolplane.isolation = Some(Isolation::Process);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config.limits.timeout_seconds = 2.0;
    let rt = Toolplane::new(config).unwrap();
    // The zygote warms up (imports, warm-up snippet) and then tunes, in idle time after its first
    // child has ended.
    assert_eq!(ok(rt.execute("return 0", None).unwrap()), json!(0));
    let zygote = *procfs::zygotes().first().expect("a zygote process");
    if kernel_collapses_pages() {
        // Done when the figure has grown and then held still for a while.
        let deadline = Instant::now() + Duration::from_secs(30);
        let (mut last, mut still_since) = (0, Instant::now());
        while Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            let now = procfs::anon_huge_pages_kib(zygote);
            if now != last {
                (last, still_since) = (now, Instant::now());
            } else if now > 0 && still_since.elapsed() > Duration::from_millis(500) {
                break;
            }
        }
        // The heap alone is 20+ MiB after the warm-up, the executable's code and data 30+ MiB.
        assert!(last >= 8 << 10, "the zygote has {last} KiB on huge pages");
    } else {
        // Off (TOOLPLANE_NO_HUGE_PAGES), or the kernel cannot.
        eprintln!("no huge pages for the zygote here: checking runs only");
        std::thread::sleep(Duration::from_secs(2));
    }

    let code = "import json, re, datetime, decimal, hashlib\n\
                d = json.loads('{\"a\": [1, 2.5, null]}')\n\
                return [d, re.sub(r'(\\d+)', r'<\\1>', 'a1b22'), datetime.date(2024, 2, 29).isoformat(),\n\
                        str(decimal.Decimal('1.1') + decimal.Decimal('2.2')), hashlib.sha256(b'x').hexdigest()[:8]]";
    for _ in 0..20 {
        assert_eq!(
            ok(rt.execute(code, None).unwrap()),
            json!([{"a": [1, 2.5, null]}, "a<1>b<22>", "2024-02-29", "3.3", "2d711642"])
        );
    }
    let (kind, message) = err(rt
        .execute("x = 1\ny = {}\nreturn y['missing']", None)
        .unwrap());
    assert_eq!((kind.as_str(), message.as_str()), ("KeyError", "'missing'"));
    let (kind, _) = err(rt
        .execute("def f(n):\n    return f(n + 1)\nreturn f(0)", None)
        .unwrap());
    assert_eq!(kind, "RecursionError");
    let (kind, _) = err(rt.execute("while True:\n    pass", None).unwrap());
    assert_eq!(kind, "TimeoutError");
    let (kind, _) = err(rt.execute("return [0] * 10**10", None).unwrap());
    assert_eq!(kind, "MemoryError");

    let session = rt.session();
    ok(session.execute("n = 1", None).unwrap());
    let (kind, _) = err(session
        .execute("n = 99\nwhile True:\n    pass", None)
        .unwrap());
    assert_eq!(kind, "TimeoutError");
    assert_eq!(ok(session.execute("return n", None).unwrap()), json!(1));
    // The zygote survived all of it.
    assert!(procfs::zygotes().contains(&zygote));
}
