//! The process engine's jail: every child runs without capabilities, with `no_new_privs` and a
//! seccomp allowlist, so a system call outside the list stops it with a `SandboxCrashedError` naming
//! the call, and the host (and a session's state before the run) carry on. The in-process engine has
//! no jail (docs/sandbox.md says so): its test hook is inert.
//!
//! The forbidden calls are issued by a test hook (`_toolplane_host._jail_probe`) that exists only in
//! a zygote started with `TOOLPLANE_TEST_HOOKS` in the host's environment.
#![cfg(target_os = "linux")]

#[path = "support/procfs.rs"]
mod procfs;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

const PROBES: [&str; 4] = ["socket", "openat", "kill", "prctl"];

fn probe(call: &str) -> String {
    format!(
        "import sys\nsys.modules['_toolplane_host']._jail_probe({call:?})\nreturn 'not stopped'\n"
    )
}

/// Runs `files` (name, source) through `toolplane run --json`, with the test hooks on or off.
fn run(files: &[(&str, &str)], isolation: &str, session: bool, hooks: bool) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolplane"));
    command.args(["run", "--json", "--isolation", isolation, "--timeout", "20"]);
    if session {
        command.arg("--session");
    }
    for (name, source) in files {
        let path = dir.path().join(name);
        std::fs::write(&path, source).unwrap();
        command.arg(&path);
    }
    command
        .current_dir(dir.path())
        .env_remove("TOOLPLANE_ISOLATION");
    if hooks {
        command.env("TOOLPLANE_TEST_HOOKS", "1");
    } else {
        command.env_remove("TOOLPLANE_TEST_HOOKS");
    }
    let out: Output = command.output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn error_of(result: &Value) -> (String, String) {
    let error = &result["error"];
    assert!(!error.is_null(), "expected an error, got {result}");
    (
        error["type"].as_str().unwrap().to_string(),
        error["message"].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_forbidden_call_stops_a_fresh_child_and_is_named() {
    for call in PROBES {
        let source = probe(call);
        let results = run(
            &[("probe.py", &source), ("after.py", "return 1 + 1")],
            "process",
            false,
            true,
        );
        let (kind, message) = error_of(&results[0]);
        assert_eq!(kind, "SandboxCrashedError", "{call}: {message}");
        assert!(
            message.contains(&format!("forbidden system call ({call})")),
            "{call}: {message}"
        );
        assert_eq!(results[1]["value"], 2, "{call}: the next run works");
    }
}

#[test]
fn a_forbidden_call_in_a_session_rolls_back_to_the_state_before_the_run() {
    for call in PROBES {
        let source = format!("x = 'changed'\n{}", probe(call));
        let results = run(
            &[
                ("a.py", "x = 41\nreturn x"),
                ("probe.py", &source),
                ("b.py", "return [x, 1]"),
            ],
            "process",
            true,
            true,
        );
        assert_eq!(results[0]["value"], 41);
        let (kind, message) = error_of(&results[1]);
        assert_eq!(kind, "SandboxCrashedError", "{call}: {message}");
        assert!(
            message.contains(&format!("forbidden system call ({call})")),
            "{call}: {message}"
        );
        assert!(message.contains("rolled back"), "{call}: {message}");
        assert_eq!(results[2]["value"], serde_json::json!([41, 1]), "{call}");
    }
}

#[test]
fn the_probe_is_inert_without_the_hooks_and_in_process() {
    for (isolation, hooks) in [
        ("process", false),
        ("in-process", true),
        ("in-process", false),
    ] {
        let results = run(&[("probe.py", &probe("socket"))], isolation, false, hooks);
        let (kind, message) = error_of(&results[0]);
        assert_eq!(
            (kind.as_str(), message.as_str()),
            ("RuntimeError", "test hooks are off"),
            "{isolation}, hooks {hooks}"
        );
    }
}

/// The `/proc/PID/status` of a process, read once: a field of it, by key.
struct Status(String);

impl Status {
    fn of(pid: u32) -> Option<Self> {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .map(Self)
    }

    fn field(&self, key: &str) -> Option<&str> {
        self.0
            .lines()
            .find_map(|line| Some(line.strip_prefix(key)?.trim()))
    }
}

/// A `toolplane run` whose snippet sleeps in a child; it keeps the snippet's directory until it ends.
struct SleepingRun {
    cli: std::process::Child,
    _dir: tempfile::TempDir,
}

impl SleepingRun {
    fn start(session: bool) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("sleep.py");
        std::fs::write(&file, "import time\ntime.sleep(5)\n").unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_toolplane"));
        command.args(["run", "--isolation", "process"]);
        if session {
            command.arg("--session");
        }
        let cli = command.arg(Path::new(&file)).spawn().unwrap();
        Self { cli, _dir: dir }
    }

    /// This run's jailed children (not another test's), each status one snapshot of a live process.
    /// A pre-warmed standby may end between two reads; a zombie's status has no memory fields.
    fn jailed_children(&self, session: bool) -> Vec<(u32, Status)> {
        let started = Instant::now();
        let jailed = loop {
            let found: Vec<(u32, Status)> = procfs::descendants_of(self.cli.id())
                .into_iter()
                .filter_map(|pid| Some((pid, Status::of(pid)?)))
                .filter(|(_, status)| status.field("Seccomp:") == Some("2"))
                .filter(|(_, status)| !status.field("State:").is_some_and(|s| s.starts_with('Z')))
                .collect();
            if !found.is_empty() || started.elapsed() > Duration::from_secs(4) {
                break found;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(
            !jailed.is_empty(),
            "session {session}: no jailed child seen"
        );
        jailed
    }
}

impl Drop for SleepingRun {
    fn drop(&mut self) {
        // SAFETY: kill(2) of our own child; SIGTERM lets it remove its artifact directory.
        unsafe { libc::kill(self.cli.id() as i32, libc::SIGTERM) };
        let _ = self.cli.wait();
    }
}

/// While a snippet sleeps in a child, the child's status shows the jail.
#[test]
fn children_run_jailed_without_capabilities() {
    for session in [false, true] {
        let run = SleepingRun::start(session);
        for (pid, status) in run.jailed_children(session) {
            assert_eq!(status.field("NoNewPrivs:"), Some("1"), "{pid}");
            // The bounding set can only be emptied by a process that holds CAP_SETPCAP (root).
            // SAFETY: geteuid has no preconditions.
            let root = unsafe { libc::geteuid() } == 0;
            let sets: &[&str] = if root {
                &["CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:"]
            } else {
                &["CapInh:", "CapPrm:", "CapEff:", "CapAmb:"]
            };
            for set in sets {
                assert_eq!(
                    status.field(set),
                    Some("0000000000000000"),
                    "session {session}: {set} of {pid}"
                );
            }
        }
    }
}

/// A child's memory ceiling (`RLIMIT_AS`) is the address space it has when its run starts, plus the
/// limit and some headroom: address space reserved ahead of use (an allocator's arena) and inherited
/// unused would be room outside that count. What a child has mapped stays well below the default
/// 512 MiB limit (mimalloc's default arena is 1 GiB).
#[test]
fn children_start_with_little_address_space_reserved() {
    for session in [false, true] {
        let run = SleepingRun::start(session);
        for (pid, status) in run.jailed_children(session) {
            let kib: u64 = status
                .field("VmSize:")
                .and_then(|v| v.trim_end_matches("kB").trim().parse().ok())
                .unwrap_or_else(|| panic!("no VmSize for {pid}"));
            assert!(
                kib < 256 << 10,
                "session {session}: child {pid} has {kib} KiB of address space"
            );
        }
    }
}
