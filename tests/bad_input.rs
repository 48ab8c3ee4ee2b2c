//! Bad input everywhere: each gets a clear one-line error and the right exit code, and no panic or
//! Rust backtrace ever reaches the user (every run here has `RUST_BACKTRACE=1`).

use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn toolplane(dir: &Path, args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .output()
        .expect("binary runs")
}

fn args<'a>(list: &'a [&'a str]) -> Vec<&'a std::ffi::OsStr> {
    list.iter().map(std::ffi::OsStr::new).collect()
}

/// Exit status `code`, and stderr one line starting with `toolplane: ` and containing `needle`.
fn assert_clean(out: &Output, code: i32, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace") && !stderr.contains("RUST_"),
        "{stderr}"
    );
    if code != 0 {
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(stderr.starts_with("toolplane: "), "{stderr}");
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    }
}

#[test]
fn snippet_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("empty.py"), "").unwrap();
    let out = toolplane(d, &args(&["run", "empty.py"]));
    assert_clean(&out, 0, "");
    // No value (None): nothing printed, as `python3 empty.py` prints nothing.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");

    std::fs::write(d.join("junk.py"), [0xff, 0xfe, 0x00, 0x9c, 0x80]).unwrap();
    assert_clean(
        &toolplane(d, &args(&["run", "junk.py"])),
        2,
        "not valid UTF-8",
    );

    std::fs::write(d.join("nul.py"), "x = 1\0\n").unwrap();
    let out = toolplane(d, &args(&["run", "nul.py"]));
    // A snippet's own error: its traceback, as Python prints it, ending with the exception.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr
            .lines()
            .last()
            .unwrap_or("")
            .starts_with("SyntaxError"),
        "{stderr}"
    );

    let big = "x = 1\n".repeat(50 * 1024 * 1024 / 6);
    std::fs::write(d.join("big.py"), big).unwrap();
    assert_clean(
        &toolplane(d, &args(&["run", "big.py"])),
        2,
        "max_snippet_bytes",
    );

    assert_clean(&toolplane(d, &args(&["run", "."])), 2, "cannot read .");
    assert_clean(
        &toolplane(d, &args(&["run", "nope.py"])),
        2,
        "cannot read nope.py",
    );
}

#[test]
fn huge_snippets_through_the_library_are_refused_before_parsing() {
    let runtime = toolplane::Toolplane::new(toolplane::Config::default()).unwrap();
    let code = "x = 1\n".repeat(300_000);
    let result = runtime.execute(&code, None).unwrap();
    let error = result.error.expect("refused");
    assert_eq!(error.error_type, "ValueError");
    assert!(
        error.message.contains("max_snippet_bytes"),
        "{}",
        error.message
    );
    // Deep nesting is a SyntaxError or RecursionError, never a crash.
    for code in [
        format!("return {}1{}", "(".repeat(100_000), ")".repeat(100_000)),
        format!("x = {}1", "-".repeat(300_000)),
        format!("x = {}", "[".repeat(50_000)),
    ] {
        let result = runtime.execute(&code, None).unwrap();
        let kind = result.error.expect("an error").error_type;
        assert!(
            ["SyntaxError", "RecursionError", "MemoryError"].contains(&kind.as_str()),
            "{kind}"
        );
    }
    assert!(runtime.execute("return 1", None).unwrap().ok());
}

#[test]
fn inputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.py"), "return x").unwrap();
    let junk = std::ffi::OsStr::from_bytes(b"x=\xff\xfe{");
    let out = toolplane(
        d,
        &[
            std::ffi::OsStr::new("run"),
            std::ffi::OsStr::new("--input"),
            junk,
            std::ffi::OsStr::new("a.py"),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("invalid UTF-8"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for (raw, needle) in [
        ("x={bad", "invalid JSON"),
        ("no_equals", "NAME=JSON"),
        ("1x=2", "not a Python identifier"),
        ("call_tool=1", "NamespaceCollisionError"),
    ] {
        let out = toolplane(d, &args(&["run", "--input", raw, "a.py"]));
        assert_clean(&out, 2, needle);
    }
    let out = toolplane(d, &args(&["run", "--timeout", "nan", "a.py"]));
    assert_clean(&out, 2, "--timeout");
}

#[test]
fn configs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.py"), "return 1").unwrap();
    let cases: [(&str, &[u8], &str); 6] = [
        ("junk.toml", b"\xff\xfe\x00[[[", "junk.toml"),
        ("syntax.toml", b"[limits\ntimeout_seconds = ", "syntax.toml"),
        (
            "unknown.toml",
            b"[limits]\ntimeout_secs = 3\n",
            "timeout_secs",
        ),
        (
            "type.toml",
            b"[limits]\ntimeout_seconds = \"soon\"\n",
            "timeout_seconds",
        ),
        (
            "negative.toml",
            b"[limits]\nmax_memory_mb = -5\n",
            "max_memory_mb",
        ),
        ("table.toml", b"[mcp.servers.x]\nurl = \"ftp://x\"\n", "mcp"),
    ];
    for (name, body, needle) in cases {
        std::fs::write(d.join(name), body).unwrap();
        for command in [
            &["run", "--config", name, "a.py"][..],
            &["config", "check", "--config", name],
            &["serve", "mcp", "--config", name],
            &["repl", "--config", name],
            &["doctor", "--config", name],
        ] {
            let out = toolplane(d, &args(command));
            assert_clean(&out, 2, needle);
        }
    }
    // A directory where the file should be, and a missing file.
    std::fs::create_dir(d.join("dir.toml")).unwrap();
    assert_clean(
        &toolplane(d, &args(&["run", "--config", "dir.toml", "a.py"])),
        2,
        "dir.toml",
    );
    assert_clean(
        &toolplane(d, &args(&["run", "--config", "none.toml", "a.py"])),
        2,
        "none.toml",
    );
}

#[test]
fn closed_stdout_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "print('x' * 1000000)\nreturn 1").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(["run", "a.py"])
        .current_dir(dir.path())
        .env("RUST_BACKTRACE", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn artifact_directory_trouble_is_a_clear_error() {
    let runtime = toolplane::Toolplane::new(toolplane::Config::default()).unwrap();
    let save = "return await save_artifact(b'data', filename='d.bin')";
    assert!(runtime.execute(save, None).unwrap().ok());
    let root = runtime.artifacts().root_dir().unwrap();
    // Deleted under the runtime: recreated.
    std::fs::remove_dir_all(&root).unwrap();
    let again = runtime.execute(save, None).unwrap();
    assert!(again.ok(), "{again:?}");
    // A file where the directory was: a new directory is made.
    let root = runtime.artifacts().root_dir().unwrap();
    std::fs::remove_dir_all(&root).unwrap();
    std::fs::write(&root, b"in the way").unwrap();
    assert!(runtime.execute(save, None).unwrap().ok());
    assert_ne!(runtime.artifacts().root_dir().unwrap(), root);
    std::fs::remove_file(&root).unwrap();
    assert!(runtime.execute("return 2", None).unwrap().ok());
}

/// No writable temp dir on the host (as on a full or read-only disk): a `ValueError` the snippet can
/// catch, without a host path in it; the run and the host carry on.
#[test]
fn an_unwritable_temp_dir_is_a_store_error() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, b"x").unwrap();
    std::fs::write(
        dir.path().join("a.py"),
        "try:\n    await save_artifact(b'x', filename='a.bin')\nexcept ValueError as e:\n    return str(e)",
    )
    .unwrap();
    for isolation in ["process", "in-process"] {
        let out = Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .args(["run", "--isolation", isolation, "a.py"])
            .current_dir(dir.path())
            .env("TMPDIR", &not_a_dir)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{stdout} {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("artifact store could not create its directory"),
            "{stdout}"
        );
        assert!(
            !stdout.contains(dir.path().to_str().unwrap()),
            "a host path leaked: {stdout}"
        );
    }
}
