//! `toolplane run` ended by SIGINT, SIGTERM or SIGHUP: the artifact directory is removed, no worker
//! process is left running a snippet, and the exit status is the shell's (128 + the signal).
#![cfg(target_os = "linux")]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Saves an artifact, then never ends (the limit is far away).
const SAVES_THEN_SPINS: &str =
    "await save_artifact(b'secret bytes', 'secret.txt')\nwhile True:\n    pass\n";

fn artifact_files(tmp: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for root in std::fs::read_dir(tmp).into_iter().flatten().flatten() {
        for art in std::fs::read_dir(root.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            for file in std::fs::read_dir(art.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                found.push(file.path());
            }
        }
    }
    found
}

/// Every descendant of `pid` (children listed by the kernel, recursively).
fn descendants(pid: u32) -> Vec<u32> {
    let mut all = Vec::new();
    let mut queue = vec![pid];
    while let Some(next) = queue.pop() {
        for task in std::fs::read_dir(format!("/proc/{next}/task"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let children =
                std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            for child in children.split_whitespace().filter_map(|c| c.parse().ok()) {
                all.push(child);
                queue.push(child);
            }
        }
    }
    all
}

/// Running, as opposed to gone or a zombie waiting for its reaper.
fn is_running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .next()?
                .to_string();
            Some(state != "Z" && state != "X")
        })
        .unwrap_or(false)
}

fn wait_with_timeout(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let until = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("toolplane did not exit within {limit:?} of the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn check(signal: libc::c_int, expected_status: i32, isolation: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let snippet = tmp.path().join("spin.py");
    std::fs::write(&snippet, SAVES_THEN_SPINS).unwrap();
    let scratch = tmp.path().join("scratch");
    std::fs::create_dir(&scratch).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(["run", "--timeout", "600", "--isolation", isolation])
        .arg(&snippet)
        .env("TMPDIR", &scratch)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while artifact_files(&scratch).is_empty() {
        assert!(Instant::now() < until, "{isolation}: no artifact appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    let workers = descendants(child.id());
    if isolation == "process" {
        assert!(
            !workers.is_empty(),
            "process isolation runs in worker processes"
        );
    }
    // SAFETY: kill(2) of our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    let status = wait_with_timeout(&mut child, Duration::from_secs(10));
    let stderr = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    assert_eq!(
        status.code(),
        Some(expected_status),
        "{isolation}, signal {signal}: {status:?}, stderr {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        artifact_files(&scratch),
        Vec::<PathBuf>::new(),
        "{isolation}, signal {signal}: artifacts left on disk"
    );
    let until = Instant::now() + Duration::from_secs(5);
    while workers.iter().any(|&pid| is_running(pid)) {
        assert!(
            Instant::now() < until,
            "{isolation}, signal {signal}: workers {:?} still run",
            workers
                .iter()
                .filter(|&&pid| is_running(pid))
                .collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn sigint_cleans_up_and_exits_130() {
    for isolation in ["process", "in-process"] {
        check(libc::SIGINT, 130, isolation);
    }
}

#[test]
fn sigterm_cleans_up_and_exits_143() {
    for isolation in ["process", "in-process"] {
        check(libc::SIGTERM, 143, isolation);
    }
}

#[test]
fn sighup_cleans_up_and_exits_129() {
    for isolation in ["process", "in-process"] {
        check(libc::SIGHUP, 129, isolation);
    }
}
