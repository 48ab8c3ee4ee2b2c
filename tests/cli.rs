//! The `toolplane` binary: outputs, exit codes (0 ok, 1 snippet failed, 2 usage/config/file).

use std::path::Path;
use std::process::{Command, Output};

fn toolplane(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write(dir: &Path, name: &str, body: &str) {
    std::fs::write(dir.join(name), body).unwrap();
}

#[test]
fn plain_run_prints_stdout_then_the_value() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a.py",
        "print('from snippet')\nreturn {'answer': 42}\n",
    );
    let out = toolplane(dir.path(), &["run", "a.py"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "from snippet\n{\n  \"answer\": 42\n}\n");
}

#[test]
fn a_failing_snippet_exits_1_with_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "bad.py", "raise ValueError('bad snippet')\n");
    let out = toolplane(dir.path(), &["run", "bad.py"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "Traceback (most recent call last):\n  File \"bad.py\", line 1, in <module>\n    \
         raise ValueError('bad snippet')\nValueError: bad snippet\n"
    );
}

#[test]
fn json_mode_prints_one_result_per_file_and_shares_the_store() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "one.py",
        "return await save_result([1, 2], label='x')\n",
    );
    write(dir.path(), "two.py", "print('noise')\nreturn 1 / 0\n");
    let out = toolplane(dir.path(), &["run", "--json", "one.py", "two.py"]);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0]["value"].as_str().unwrap().starts_with("res_"));
    assert_eq!(lines[1]["error"]["type"], "ZeroDivisionError");
    assert_eq!(lines[1]["stdout"], "noise\n");
    for key in [
        "value",
        "stdout",
        "stderr",
        "duration_ms",
        "backend",
        "error",
        "artifacts",
    ] {
        assert!(lines[0].get(key).is_some(), "{key}");
    }
    // Handles carry from one file to the next in one invocation.
    write(dir.path(), "three.py", "return await load_result(h)\n");
    let h = lines[0]["value"].as_str().unwrap();
    let input = format!("h=\"{h}\"");
    let out = toolplane(
        dir.path(),
        &["run", "--json", "--input", &input, "three.py"],
    );
    assert!(
        text(&out.stdout).contains("unknown or expired result handle"),
        "a new process has a new store"
    );
}

#[test]
fn inputs_are_json() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.py", "return [n * 2, rows]\n");
    let out = toolplane(
        dir.path(),
        &[
            "run",
            "--json",
            "--input",
            "n=21",
            "--input",
            "rows=[1, {\"a\": null}]",
            "a.py",
        ],
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["value"], serde_json::json!([42, [1, {"a": null}]]));
    for bad in ["n", "n=nope", "1x=1"] {
        let out = toolplane(dir.path(), &["run", "--input", bad, "a.py"]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            text(&out.stderr).starts_with("toolplane: --input"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn usage_and_file_errors_exit_2_without_a_backtrace() {
    let dir = tempfile::tempdir().unwrap();
    let out = toolplane(dir.path(), &["run", "missing.py"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("toolplane: cannot read missing.py"));
    std::fs::write(dir.path().join("latin1.py"), b"x = '\xe9'\n").unwrap();
    let out = toolplane(dir.path(), &["run", "latin1.py"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not valid UTF-8"));
    let out = toolplane(dir.path(), &["run"]);
    assert_eq!(out.status.code(), Some(2));
    let out = toolplane(dir.path(), &["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    for out in [
        toolplane(dir.path(), &["run", "missing.py"]),
        toolplane(dir.path(), &["run", "latin1.py"]),
    ] {
        assert!(
            !text(&out.stderr).contains("panicked") && !text(&out.stderr).contains("backtrace")
        );
    }
}

#[test]
fn config_is_found_validated_and_applied() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a.py",
        "await save_result(1)\nawait save_result(2)\n",
    );
    write(dir.path(), "toolplane.toml", "[results]\nmax_entries = 1\n");
    let out = toolplane(dir.path(), &["run", "--json", "a.py"]);
    assert!(
        text(&out.stdout).contains("full (1 entries)"),
        "./toolplane.toml is used when present"
    );
    write(dir.path(), "bad.toml", "[results]\nmax_entires = 1\n");
    let out = toolplane(dir.path(), &["run", "--config", "bad.toml", "a.py"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("results.max_entires"),
        "{}",
        text(&out.stderr)
    );
    let out = toolplane(dir.path(), &["config", "check", "--config", "bad.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let out = toolplane(dir.path(), &["run", "--config", "nope.toml", "a.py"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn timeout_flag_overrides_config() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "loop.py", "while True:\n    pass\n");
    let out = toolplane(
        dir.path(),
        &["run", "--json", "--timeout", "0.3", "loop.py"],
    );
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["error"]["type"], "TimeoutError");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("execution timed out after 0.3s")
    );
    let out = toolplane(dir.path(), &["run", "--timeout", "-1", "loop.py"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn init_writes_a_config_that_checks() {
    let dir = tempfile::tempdir().unwrap();
    let out = toolplane(dir.path(), &["init"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "Wrote toolplane.toml\n");
    let out = toolplane(dir.path(), &["init"]);
    assert_eq!(out.status.code(), Some(2), "no overwrite without --force");
    assert_eq!(
        toolplane(dir.path(), &["init", "--force"]).status.code(),
        Some(0)
    );
    let out = toolplane(dir.path(), &["config", "check"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).ends_with("ok\n"));
    // The Python original's own starter config loads.
    write(
        dir.path(),
        "py.toml",
        "[toolplane]\ndefault_backend = \"monty\"\n\n[cli]\nmode = \"disabled\"\n\n[session]\nenabled = true\nmax_memory_mb = 512\n",
    );
    assert_eq!(
        toolplane(dir.path(), &["config", "check", "--config", "py.toml"])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn isolation_is_selectable_and_doctor_reports_both_modes() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.py", "return sum(range(10))\n");
    for mode in ["process", "in-process"] {
        let out = toolplane(dir.path(), &["run", "--isolation", mode, "a.py"]);
        assert_eq!(out.status.code(), Some(0), "{mode}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "45\n");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(["run", "a.py"])
        .env("TOOLPLANE_ISOLATION", "sideways")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("TOOLPLANE_ISOLATION"));
    let out = toolplane(dir.path(), &["doctor"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let report = text(&out.stdout);
    assert!(report.contains("process: ok"), "{report}");
    assert!(
        report.contains("worker jail: no capabilities, no_new_privs, seccomp allowlist"),
        "{report}"
    );
    assert!(report.contains("in-process: ok"), "{report}");
    assert!(
        report.contains("zygote on huge pages (faster forks): yes")
            || report.contains("zygote on huge pages (faster forks): no ("),
        "{report}"
    );
}

#[test]
fn process_isolation_kills_native_work_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "slow.py", "x = 10**(10**8)\n");
    let out = toolplane(dir.path(), &["run", "--timeout", "1", "slow.py"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("toolplane: TimeoutError: execution timed out after 1s")
            || stderr.starts_with("toolplane: MemoryError"),
        "{stderr}"
    );
}

#[test]
fn numbers_are_printed_exactly_and_none_prints_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "n.py",
        "return [2**70, -2**100, 1e308, -0.0, {'k': 10**30}]\n",
    );
    write(dir.path(), "none.py", "print('only this')\n");
    let out = toolplane(dir.path(), &["run", "n.py"]);
    assert_eq!(
        text(&out.stdout),
        "[\n  1180591620717411303424,\n  -1267650600228229401496703205376,\n  1e+308,\n  -0.0,\n  {\n    \
         \"k\": 1000000000000000000000000000000\n  }\n]\n"
    );
    let out = toolplane(dir.path(), &["run", "--json", "n.py"]);
    assert!(
        text(&out.stdout).contains(
            "\"value\":[1180591620717411303424, -1267650600228229401496703205376, 1e+308, -0.0, \
             {\"k\": 1000000000000000000000000000000}]"
        ),
        "{}",
        text(&out.stdout)
    );
    let out = toolplane(dir.path(), &["run", "none.py"]);
    assert_eq!(text(&out.stdout), "only this\n");
    let out = toolplane(dir.path(), &["run", "--json", "none.py"]);
    assert!(
        text(&out.stdout).contains("\"value\":null"),
        "{}",
        text(&out.stdout)
    );
}

/// Tracebacks as CPython 3.11 prints them (the `~~^^` markers aside, which CPython adds and we do
/// not), in plain output and in --json alike.
#[test]
fn tracebacks_read_as_cpython_prints_them() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str)] = &[
        (
            "nested.py",
            "def f(d):\n    return d['k']\n\nx = 1\nf({})\n",
            "Traceback (most recent call last):\n  File \"nested.py\", line 5, in <module>\n    f({})\n  \
             File \"nested.py\", line 2, in f\n    return d['k']\nKeyError: 'k'",
        ),
        (
            "custom.py",
            "class Oops(Exception):\n    pass\n\nraise Oops('custom')\n",
            "Traceback (most recent call last):\n  File \"custom.py\", line 4, in <module>\n    \
             raise Oops('custom')\nOops: custom",
        ),
        (
            "comprehension.py",
            "rows = [1, 0]\nout = [10 // r for r in rows]\n",
            // Comprehensions are inlined (as in CPython 3.12: no `<listcomp>` frame), and RustPython
            // says "division by zero" where CPython says "integer division or modulo by zero".
            "Traceback (most recent call last):\n  File \"comprehension.py\", line 2, in <module>\n    \
             out = [10 // r for r in rows]\nZeroDivisionError: division by zero",
        ),
        (
            "chained.py",
            "try:\n    {}['k']\nexcept KeyError:\n    raise ValueError('bad')\n",
            "Traceback (most recent call last):\n  File \"chained.py\", line 2, in <module>\n    {}['k']\n\
             KeyError: 'k'\n\nDuring handling of the above exception, another exception occurred:\n\n\
             Traceback (most recent call last):\n  File \"chained.py\", line 4, in <module>\n    \
             raise ValueError('bad')\nValueError: bad",
        ),
        (
            "syntax.py",
            "def f(:\n    pass\n",
            "  File \"syntax.py\", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax",
        ),
        (
            // Found after parsing (by the symbol table): the line's text came back as `None`.
            "declaration.py",
            "def f():\n    x = 1\n    global x\n",
            "  File \"declaration.py\", line 3\n    global x\n    ^^^^^^^^\n\
             SyntaxError: name 'x' is assigned to before global declaration",
        ),
        (
            "notes.py",
            "e = ValueError('v')\ne.add_note('see the docs')\nraise e\n",
            "Traceback (most recent call last):\n  File \"notes.py\", line 3, in <module>\n    raise e\n\
             ValueError: v\nsee the docs",
        ),
        (
            "method.py",
            "class Box:\n    def open(self):\n        return self.lid.value\n\nBox().open()\n",
            "Traceback (most recent call last):\n  File \"method.py\", line 5, in <module>\n    Box().open()\n  \
             File \"method.py\", line 3, in open\n    return self.lid.value\n\
             AttributeError: 'Box' object has no attribute 'lid'",
        ),
        (
            "awaited.py",
            "async def fetch(h):\n    return await load_result(h)\n\nrows = await fetch('res_nope')\n",
            "Traceback (most recent call last):\n  File \"awaited.py\", line 4, in <module>\n    \
             rows = await fetch('res_nope')\n  File \"awaited.py\", line 2, in fetch\n    \
             return await load_result(h)\nValueError: unknown or expired result handle: 'res_nope'",
        ),
        (
            // A library's exception is named with its module. Frames of the frozen standard library
            // show the module's name and no source (CPython shows its file's path and lines).
            "cause.py",
            "import json\ntry:\n    json.loads('{')\nexcept ValueError as e:\n    raise RuntimeError('bad config') from e\n",
            "Traceback (most recent call last):\n  File \"cause.py\", line 3, in <module>\n    json.loads('{')\n  \
             File \"json\", line 352, in loads\n  File \"json.decoder\", line 359, in decode\n  \
             File \"json.decoder\", line 375, in raw_decode\njson.decoder.JSONDecodeError: Expecting property \
             name enclosed in double quotes: line 1 column 2 (char 1)\n\nThe above exception was the direct cause \
             of the following exception:\n\nTraceback (most recent call last):\n  File \"cause.py\", line 5, in \
             <module>\n    raise RuntimeError('bad config') from e\nRuntimeError: bad config",
        ),
        (
            "empty.py",
            "raise RuntimeError\n",
            "Traceback (most recent call last):\n  File \"empty.py\", line 1, in <module>\n    \
             raise RuntimeError\nRuntimeError",
        ),
    ];
    for (name, code, expected) in cases {
        write(dir.path(), name, code);
        let out = toolplane(dir.path(), &["run", name]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert_eq!(text(&out.stderr).trim_end(), *expected, "{name}");
        let out = toolplane(dir.path(), &["run", "--json", name]);
        let result: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
        assert_eq!(result["error"]["traceback"], *expected, "{name} --json");
    }
}

/// RustPython's last-resort reports (a `sys.unraisablehook` that raises or is gone, a warning or an
/// error with no usable `sys.stderr`) never reach the host's own stdout or stderr — in process, that
/// stdout is `--json`'s output or the stdio MCP server's protocol stream. What CPython reports on
/// `sys.stderr` lands in the run's captured stderr instead.
#[test]
fn last_resort_reports_never_reach_the_hosts_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let del_raises = "class A:\n    def __del__(self):\n        raise ValueError('CAPTURED-del')\n\
                      a = A()\ndel a\n";
    let leaking_del = del_raises.replace("CAPTURED", "HOSTLEAK");
    write(
        dir.path(),
        "hook_raises.py",
        &format!(
            "import sys\nclass Forged(Exception):\n    def __repr__(self):\n        \
             return '{{\"jsonrpc\": \"2.0\", \"method\": \"HOSTLEAK\"}}'\n\
             def hook(args):\n    raise Forged('CAPTURED-hook')\nsys.unraisablehook = hook\n{del_raises}return 1\n"
        ),
    );
    write(
        dir.path(),
        "hook_gone.py",
        &format!("import sys\ndel sys.unraisablehook\n{del_raises}return 2\n"),
    );
    write(
        dir.path(),
        "stderr_unusable.py",
        &format!(
            "import sys, warnings\nsys.stderr = object()\ntry:\n    warnings.warn('HOSTLEAK-warn')\n\
             except AttributeError:\n    pass\n{leaking_del}sys.unraisablehook = None\n{leaking_del}return 3\n"
        ),
    );
    write(
        dir.path(),
        "stderr_gone.py",
        &format!(
            "import sys\ndel sys.stderr\n{leaking_del}sys.unraisablehook = None\n{leaking_del}return 4\n"
        ),
    );
    for isolation in ["in-process", "process"] {
        let out = toolplane(
            dir.path(),
            &[
                "run",
                "--json",
                "--isolation",
                isolation,
                "hook_raises.py",
                "hook_gone.py",
                "stderr_unusable.py",
                "stderr_gone.py",
            ],
        );
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(
            !stderr.contains("HOSTLEAK"),
            "{isolation}: host stderr: {stderr}"
        );
        let results: Vec<serde_json::Value> = stdout
            .lines()
            .map(|line| {
                serde_json::from_str(line).unwrap_or_else(|e| {
                    panic!("{isolation}: a stdout line that is not a result ({e}): {line}")
                })
            })
            .collect();
        assert_eq!(results.len(), 4, "{isolation}: {stdout}");
        for (result, expected) in results.iter().zip(1..) {
            assert_eq!(
                result["error"],
                serde_json::Value::Null,
                "{isolation}: {result}"
            );
            assert_eq!(result["value"], expected, "{isolation}: {result}");
        }
        let captured = |i: usize| results[i]["stderr"].as_str().unwrap().to_string();
        // As CPython: the hook's own failure, then the default hook's report when there is no hook.
        assert!(
            captured(0).contains("Exception ignored in sys.unraisablehook")
                && captured(0).contains("CAPTURED-hook"),
            "{isolation}: {}",
            captured(0)
        );
        assert!(
            captured(1).contains("CAPTURED-del"),
            "{isolation}: {}",
            captured(1)
        );
        // The forged repr never came out raw (inside a result it is escaped).
        assert!(
            !stdout.contains(r#""method": "HOSTLEAK""#),
            "{isolation}: {stdout}"
        );
    }
}

/// HTTP serves clients nobody vouched for: with in-process isolation their snippets would run in the
/// server's own memory, so that needs an explicit acknowledgement, whichever way in-process is chosen.
#[test]
fn http_with_in_process_isolation_needs_an_acknowledgement() {
    let dir = tempfile::tempdir().unwrap();
    for (args, env) in [
        (
            vec![
                "serve",
                "mcp",
                "--transport",
                "http",
                "--port",
                "0",
                "--isolation",
                "in-process",
            ],
            None,
        ),
        (
            vec!["serve", "mcp", "--transport", "http", "--port", "0"],
            Some("in-process"),
        ),
    ] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_toolplane"));
        command.args(&args).current_dir(dir.path());
        if let Some(isolation) = env {
            command.env("TOOLPLANE_ISOLATION", isolation);
        }
        let out = command.output().expect("binary runs");
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).starts_with(
                "toolplane: refusing to serve HTTP with in-process isolation: every client's \
                 snippets would run in this server's own memory"
            ),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("pass --accept-in-process-http to accept that"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// An application that calls `worker_main_if_requested` (the CLI, the examples) is its own worker even
/// when `TOOLPLANE_WORKER_EXE` names a binary that is not there — as this repository's
/// `.cargo/config.toml` does on a fresh clone, before `cargo run --example embed` built anything else.
#[test]
fn an_application_that_is_its_own_worker_ignores_a_stale_worker_variable() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "s.py", "return 6 * 7");
    let output = Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(["run", "--isolation", "process", "s.py"])
        .current_dir(dir.path())
        .env("TOOLPLANE_WORKER_EXE", "/nonexistent/toolplane")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).trim(), "42");
}

/// The programs `bench/pgo/build` trains the shipped binary on must run, or the profile-guided build
/// would optimise for whatever part of them ran before the error. Each runs to a value in both engines,
/// and the two agree.
#[test]
fn the_profile_guided_builds_training_programs_run_in_both_engines() {
    each_program_runs_to_one_value_in_both_engines("bench/pgo/train", "", 8);
}

/// The same for the programs `bench/compare --programs bench/unseen` times (each defines `main()`, as
/// section 3's do): a program that fails in either engine would leave its row out of that comparison.
#[test]
fn the_unseen_benchmark_programs_run_in_both_engines() {
    each_program_runs_to_one_value_in_both_engines("bench/unseen", "\nreturn main()\n", 7);
}

/// `bench/compare` with no option measures everything for half an hour and rewrites docs/benchmarks.md,
/// so an option it does not know (a typo, `--help`) must not fall through to that: `--help` prints the
/// usage and measures nothing, and anything else is refused before anything starts.
#[test]
fn bench_compare_explains_itself_and_refuses_options_it_does_not_know() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/compare");
    let run = |args: &[&str]| {
        Command::new("python3")
            .arg(&script)
            .args(args)
            .output()
            .expect("python3 runs")
    };
    // Each case: its options, the exit status, and whether it answers on stdout (the usage) or on
    // stderr (the refusal); the other stream stays empty.
    let cases: [(&[&str], i32); 5] = [
        (&["--help"], 0),
        (&["-h"], 0),
        (&["--quik"], 2),
        (&["--cpu", "extra"], 2),
        (&["--programs"], 2),
    ];
    for (options, status) in cases {
        let out = run(options);
        assert_eq!(
            out.status.code(),
            Some(status),
            "{options:?}: {}",
            text(&out.stderr)
        );
        let (answer, silent) = if status == 0 {
            (text(&out.stdout), text(&out.stderr))
        } else {
            (text(&out.stderr), text(&out.stdout))
        };
        let answered = if status == 0 {
            answer.contains("bench/compare --programs DIR")
        } else {
            answer.starts_with("bench/compare: ")
        };
        assert!(answered, "{options:?}: {answer}");
        assert!(silent.is_empty(), "{options:?}: {silent}");
    }
}

/// Runs every `*.py` under `dir` (relative to the crate; at least `at_least` of them), with `tail`
/// appended, with process isolation and in process; each must end with a value, the same in both.
fn each_program_runs_to_one_value_in_both_engines(dir: &str, tail: &str, at_least: usize) {
    let source_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut programs: Vec<_> = std::fs::read_dir(&source_dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "py"))
        .collect();
    programs.sort();
    assert!(programs.len() >= at_least, "{programs:?}");
    let scratch = tempfile::tempdir().unwrap();
    for program in &programs {
        let snippet = scratch.path().join(program.file_name().unwrap());
        let source = std::fs::read_to_string(program).unwrap();
        std::fs::write(&snippet, source + tail).unwrap();
        let path = snippet.to_str().unwrap();
        let values: Vec<String> = ["process", "in-process"]
            .iter()
            .map(|isolation| {
                let out = toolplane(scratch.path(), &["run", "--isolation", isolation, path]);
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{} ({isolation}): {}",
                    program.display(),
                    text(&out.stderr)
                );
                text(&out.stdout)
            })
            .collect();
        assert!(
            !values[0].trim().is_empty(),
            "{}: no value",
            program.display()
        );
        assert_eq!(
            values[0],
            values[1],
            "{}: the engines disagree",
            program.display()
        );
    }
}
