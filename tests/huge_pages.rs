//! The zygote moves its heap and the executable's read-only pages onto transparent huge pages in idle
//! time (src/sandbox/hugepages.rs). This checks that it happens where the kernel can collapse pages,
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

/// Whether this kernel collapses anonymous memory into a huge page on request (`MADV_COLLAPSE`,
/// Linux 6.1+, THP not disabled), tried on a scratch mapping of our own.
fn kernel_collapses_pages() -> bool {
    const HUGE: usize = 2 << 20;
    let thp = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
    if !matches!(thp, Ok(mode) if !mode.contains("[never]")) {
        return false;
    }
    // SAFETY: a private anonymous mapping of our own, written and advised, then unmapped.
    unsafe {
        let base = libc::mmap(
            std::ptr::null_mut(),
            2 * HUGE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        assert_ne!(base, libc::MAP_FAILED);
        let aligned = (base as usize).next_multiple_of(HUGE) as *mut libc::c_void;
        std::ptr::write_bytes(aligned.cast::<u8>(), 1, HUGE);
        let collapsed = libc::madvise(aligned, HUGE, libc::MADV_COLLAPSE) == 0;
        libc::munmap(base, 2 * HUGE);
        collapsed
    }
}

#[test]
fn runs_after_the_zygote_moved_onto_huge_pages_behave_the_same() {
    let mut config = Config::default();
    config.toolplane.isolation = Some(Isolation::Process);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config.limits.timeout_seconds = 2.0;
    let rt = Toolplane::new(config);
    // The zygote warms up (imports, warm-up snippet) and then tunes, in idle time after its first
    // child has ended.
    assert_eq!(ok(rt.execute("return 0", None).unwrap()), json!(0));
    let zygote = *procfs::zygotes().first().expect("a zygote process");
    if std::env::var_os("TOOLPLANE_NO_HUGE_PAGES").is_some() {
        eprintln!("TOOLPLANE_NO_HUGE_PAGES is set: checking runs only");
        std::thread::sleep(Duration::from_secs(2));
    } else if kernel_collapses_pages() {
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
        eprintln!("this kernel collapses no huge pages: checking runs only");
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
