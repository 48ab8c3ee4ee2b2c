//! What a snippet can learn about, or do to, the host process: its argv, executable, stdin, time zone
//! and clock. Run through the CLI in both engines, with a planted secret on stdin, in an input and in
//! `TZ`.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

const STDIN_SECRET: &str = "stdin-secret-5c1d";
const INPUT_SECRET: &str = "input-secret-93ab";

const PROBE: &str = r#"
import sys, time, datetime, io
out = {}
out["orig_argv"] = sys.orig_argv
out["argv"] = sys.argv
out["executable"] = sys.executable
out["base_executable"] = getattr(sys, "_base_executable", "")
out["tzname"] = list(time.tzname)
out["offsets"] = [time.timezone, time.altzone, time.daylight]
out["localtime_hour"] = time.localtime(0).tm_hour
out["mktime"] = time.mktime(time.gmtime(86400))
out["ctime"] = time.ctime(0)
out["strftime_zone"] = time.strftime("%Z", time.localtime(0))
out["setters"] = sorted(n for n in ("clock_settime", "clock_settime_ns", "tzset") if hasattr(time, n))
out["baserepl"] = hasattr(sys, "_baserepl")
reads = []
for attempt in (
    lambda: input(),
    lambda: sys.stdin.read(),
    lambda: sys.__stdin__.read(),
    lambda: open(0).read(),
    lambda: io.FileIO(0).read(),
    lambda: io.open(0).read(),
    lambda: __import__("os").read(0, 100),
):
    try:
        reads.append(repr(attempt()))
    except BaseException as e:
        reads.append(type(e).__name__)
out["reads"] = reads
return out
"#;

fn probe(isolation: &str) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("probe.py");
    std::fs::write(&file, PROBE).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(["run", "--json", "--isolation", isolation, "--input"])
        .arg(format!("token=\"{INPUT_SECRET}\""))
        .arg(&file)
        .env("TZ", "XYZ+5")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{STDIN_SECRET}\n").as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let all = format!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
    let line: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {all}"));
    (line, all)
}

fn host_facts_are_fixed(isolation: &str) {
    let (line, all) = probe(isolation);
    assert!(
        !all.contains(STDIN_SECRET),
        "{isolation}: stdin reached: {all}"
    );
    assert!(
        !all.contains(INPUT_SECRET),
        "{isolation}: argv reached: {all}"
    );
    let value = &line["value"];
    assert!(line["error"].is_null(), "{isolation}: {line}");
    assert_eq!(value["orig_argv"], serde_json::json!([]), "{isolation}");
    assert_eq!(value["argv"], serde_json::json!([]), "{isolation}");
    assert_eq!(value["executable"], "", "{isolation}");
    assert_eq!(value["base_executable"], "", "{isolation}");
    assert_eq!(
        value["tzname"],
        serde_json::json!(["UTC", "UTC"]),
        "{isolation}"
    );
    assert_eq!(
        value["offsets"],
        serde_json::json!([0, 0, 0]),
        "{isolation}"
    );
    assert_eq!(value["localtime_hour"], 0, "{isolation}");
    assert_eq!(value["mktime"], 86400.0, "{isolation}");
    assert_eq!(value["ctime"], "Thu Jan  1 00:00:00 1970", "{isolation}");
    assert_eq!(value["strftime_zone"], "UTC", "{isolation}");
    assert_eq!(value["setters"], serde_json::json!([]), "{isolation}");
    assert_eq!(value["baserepl"], false, "{isolation}");
    for read in value["reads"].as_array().unwrap() {
        let read = read.as_str().unwrap();
        assert!(
            read.chars().all(|c| c.is_ascii_alphanumeric()) || read == "''" || read == "b''",
            "{isolation}: a read of stdin gave {read}"
        );
    }
}

#[test]
fn host_facts_are_fixed_in_process() {
    host_facts_are_fixed("in-process");
}

#[test]
fn host_facts_are_fixed_process_isolation() {
    host_facts_are_fixed("process");
}

/// A process-isolation child's descriptors 0, 1 and 2 lead nowhere: the zygote's control line (fd 0
/// when the host starts it) is moved off them before any child is forked.
#[test]
fn worker_standard_descriptors_are_dev_null() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fds.py");
    // The sandbox has no os.readlink; what the descriptors are is checked from outside, on the worker
    // children of a run that waits.
    std::fs::write(&file, "import time\ntime.sleep(3)\nreturn 1").unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(["run", "--isolation", "process"])
        .arg(&file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let host = child.id();
    let mut checked = 0;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while checked == 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(200));
        for pid in descendants(host) {
            let mut targets = Vec::new();
            for fd in 0..3 {
                if let Ok(target) = std::fs::read_link(format!("/proc/{pid}/fd/{fd}")) {
                    targets.push(target.display().to_string());
                }
            }
            if targets.len() == 3 {
                assert!(
                    targets.iter().all(|t| t == "/dev/null"),
                    "worker {pid}: fds 0-2 are {targets:?}"
                );
                checked += 1;
            }
        }
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    assert!(checked > 0, "no worker was seen");
}

fn descendants(root: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        let Ok(children) =
            std::fs::read_to_string(format!("/proc/{parent}/task/{parent}/children"))
        else {
            continue;
        };
        for child in children.split_whitespace().filter_map(|c| c.parse().ok()) {
            found.push(child);
            frontier.push(child);
        }
    }
    found
}

/// An exception nobody can catch (a `__del__` that raises) is reported on the run's own stderr, even
/// with `sys.stderr` gone: RustPython's own hook then wrote it, escape sequences and all, to the host
/// process's stderr (20 MB reached an operator's terminal).
fn unraisable_errors_stay_in_the_run(isolation: &str) {
    // In Python's spelling: an escape sequence that retitles a terminal.
    const MARK: &str = r"'\x1b]0;unraisable-mark\x07'";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("del.py");
    let source = format!(
        "import sys\nclass Loud:\n    def __del__(self):\n        raise ValueError({MARK} * 1000)\n\
         sys.stderr = None\nfor _ in range(3):\n    Loud()\nreturn 1\n"
    );
    std::fs::write(&file, source).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(["run", "--json", "--isolation", isolation])
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let host_stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !host_stderr.contains("unraisable-mark"),
        "{isolation}: the host's stderr got {} bytes of it",
        host_stderr.len()
    );
    let line: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(line["value"], 1, "{isolation}: {line}");
    let run_stderr = line["stderr"].as_str().unwrap();
    assert!(
        run_stderr.contains("Exception ignored")
            && run_stderr.contains("Loud")
            && run_stderr.contains("ValueError: \u{1b}]0;unraisable-mark"),
        "{isolation}: {}",
        &run_stderr[..run_stderr.len().min(300)]
    );
}

#[test]
fn unraisable_errors_stay_in_the_run_in_process() {
    unraisable_errors_stay_in_the_run("in-process");
}

#[test]
fn unraisable_errors_stay_in_the_run_process_isolation() {
    unraisable_errors_stay_in_the_run("process");
}
