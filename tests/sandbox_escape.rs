//! The escape suite: every attempt in `tests/escape/*.py` runs as a snippet, in both isolation modes,
//! against canaries the sandbox must never reach:
//! - a secret in a host file (`canary_path`, in `canary_dir`, which must stay as it is),
//! - a secret in the host's environment (`canary_env`),
//! - the same secret held in another session of the same runtime,
//! - a loopback listener (`port`) that must see no connection,
//! - a handle saved by another runtime (`foreign_handle`), which must not load.
//!
//! The runtime allows two command-line tools (`[cli]`: `echo`, `printf`), so `escape/cli.py` tries the
//! new door: other binaries, paths, shells, expansion and flag injection.
//!
//! Each attempt must end with a clean error or a harmless value (never a crashed sandbox), and a probe
//! run after it must see a pristine namespace (nothing leaks into a later fresh run). An attempt whose
//! first line is `# expect: ErrorType` must end with exactly that error.

use std::collections::BTreeSet;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::Duration;

use serde_json::{Value, json};
use toolplane::{Config, Isolation, Toolplane};

const SUITES: &[(&str, &str)] = &[
    ("files", include_str!("escape/files.py")),
    ("environment", include_str!("escape/environment.py")),
    ("introspection", include_str!("escape/introspection.py")),
    ("state", include_str!("escape/state.py")),
    ("imports", include_str!("escape/imports.py")),
    ("cli", include_str!("escape/cli.py")),
];

const CANARY_ENV: &str = "TOOLPLANE_ESCAPE_CANARY";
const ENV_SECRET: &str = "env-secret-7f3a9c1e5b";
const FILE_SECRET: &str = "file-secret-2d8e4b6a0c";

/// The error an attempt must end with, from its `# expect: ErrorType` first line.
fn expected_error(code: &str) -> Option<&str> {
    code.lines()
        .next()?
        .strip_prefix("# expect: ")
        .map(str::trim)
}

/// (suite, name, code) of every attempt.
fn attempts() -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    for (suite, text) in SUITES {
        let mut current: Option<(String, String)> = None;
        for line in text.lines() {
            if let Some(name) = line.strip_prefix("# attempt: ") {
                out.extend(current.take().map(|(n, c)| (*suite, n, c)));
                current = Some((name.trim().to_string(), String::new()));
            } else if let Some((_, code)) = current.as_mut() {
                code.push_str(line);
                code.push('\n');
            }
        }
        out.extend(current.map(|(n, c)| (*suite, n, c)));
    }
    out
}

static ENV: Once = Once::new();

fn set_canary_env() {
    // SAFETY: called first thing by every test of this binary, under a Once: no other thread of this
    // process reads the environment while it is written.
    ENV.call_once(|| unsafe { std::env::set_var(CANARY_ENV, ENV_SECRET) });
}

struct Canaries {
    _dir: tempfile::TempDir,
    dir: PathBuf,
    path: PathBuf,
    listener: TcpListener,
    port: u16,
}

impl Canaries {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("canary.txt");
        std::fs::write(&path, FILE_SECRET).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        Self {
            dir: dir.path().to_path_buf(),
            _dir: dir,
            path,
            listener,
            port,
        }
    }

    fn inputs(&self, foreign_handle: &str) -> serde_json::Map<String, Value> {
        json!({
            "canary_path": self.path,
            "canary_dir": self.dir,
            "canary_env": CANARY_ENV,
            "port": self.port,
            "foreign_handle": foreign_handle,
        })
        .as_object()
        .cloned()
        .unwrap()
    }

    /// What changed on the host side: files in the canary dir, the canary's text, connections.
    fn breaches(&self) -> Vec<String> {
        let mut found = Vec::new();
        let entries: BTreeSet<String> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        if entries != BTreeSet::from(["canary.txt".to_string()]) {
            found.push(format!("canary dir now holds {entries:?}"));
        }
        if std::fs::read_to_string(&self.path).ok().as_deref() != Some(FILE_SECRET) {
            found.push("the canary file changed".into());
        }
        if self.listener.accept().is_ok() {
            found.push("the loopback listener got a connection".into());
        }
        found
    }
}

fn runtime(isolation: Isolation) -> Toolplane {
    // The command-line door is open for two binaries that can read neither files nor the environment.
    let mut config =
        Config::from_toml_str("[cli]\nmode = \"allowlist\"\nallow = [\"echo\", \"printf\"]\n")
            .unwrap();
    config.toolplane.isolation = Some(isolation);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config.limits.timeout_seconds = 2.0;
    config.limits.max_memory_mb = 256;
    config.limits.max_output_bytes = 1 << 20;
    config.limits.session_max_memory_mb = 256;
    // Every probe saves a value: room for all of them.
    config.results.max_entries = 100_000;
    Toolplane::new(config).unwrap()
}

/// A run that must show an untouched namespace: builtins, json, the externals, int arithmetic.
const PROBE: &str = "import json, sys\n\
    h = await save_result({'p': [1, 2]})\n\
    return [len([1, 2]), json.dumps({'a': 1}), str(5), 1 + 1, (await load_result(h))['p'], \
    sys.getrecursionlimit() >= 100, print is not None, type(save_result).__name__]";

fn run_suite(isolation: Isolation) {
    set_canary_env();
    let canaries = Canaries::new();
    let runtime = runtime(isolation);
    let other = Toolplane::new(Config::default()).unwrap();
    let foreign = other
        .execute("return await save_result('other runtime')", None)
        .unwrap()
        .value_json()
        .as_str()
        .unwrap()
        .to_string();
    // Another session of the same runtime holds the secret in a variable.
    let holder = runtime.session();
    let kept = holder
        .execute("kept = s", json!({"s": FILE_SECRET}).as_object().cloned())
        .unwrap();
    assert!(kept.ok(), "{kept:?}");
    let baseline = runtime.execute(PROBE, None).unwrap();
    assert!(baseline.ok(), "{baseline:?}");

    let mut failures = Vec::new();
    let all = attempts();
    for (suite, name, code) in &all {
        let started = std::time::Instant::now();
        let result = runtime
            .execute(code, Some(canaries.inputs(&foreign)))
            .unwrap();
        if std::env::var_os("ESCAPE_TRACE").is_some() {
            let error = result
                .error
                .as_ref()
                .map(|e| format!("{}: {:.80}", e.error_type, e.message));
            eprintln!(
                "{isolation:?} {suite}/{name} {:?} {error:?}",
                started.elapsed()
            );
        }
        let text = serde_json::to_string(&result).unwrap();
        let label = format!("{isolation:?} {suite}/{name}");
        if text.contains(FILE_SECRET) || text.contains(ENV_SECRET) || text.contains("other runtime")
        {
            failures.push(format!(
                "{label}: a secret reached the snippet: {text:.300}"
            ));
        }
        if let Some(error) = &result.error
            && matches!(
                error.error_type.as_str(),
                "SandboxCrashedError" | "SandboxError"
            )
        {
            failures.push(format!("{label}: {}: {}", error.error_type, error.message));
        }
        if let Some(expected) = expected_error(code) {
            let got = result.error.as_ref().map(|e| e.error_type.as_str());
            if got != Some(expected) {
                failures.push(format!(
                    "{label}: expected {expected}, got {got:?}: {text:.300}"
                ));
            }
        }
        for breach in canaries.breaches() {
            failures.push(format!("{label}: {breach}"));
        }
        let probe = runtime.execute(PROBE, None).unwrap();
        if probe.value.get() != baseline.value.get() || !probe.ok() {
            failures.push(format!(
                "{label}: a later fresh run changed: {:?} {:?}",
                probe.value, probe.error
            ));
        }
    }
    // The other session still holds its secret, untouched.
    assert_eq!(
        holder.execute("kept", None).unwrap().value_json(),
        FILE_SECRET,
        "{isolation:?}"
    );
    assert!(
        failures.is_empty(),
        "{} of {} attempts breached:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

#[test]
fn at_least_eighty_distinct_attempts() {
    set_canary_env();
    let all = attempts();
    let names: BTreeSet<&str> = all.iter().map(|(_, n, _)| n.as_str()).collect();
    assert_eq!(names.len(), all.len(), "attempt names must be distinct");
    assert!(all.len() >= 80, "{} attempts", all.len());
    assert!(all.iter().all(|(_, _, code)| !code.trim().is_empty()));
}

#[test]
fn escape_suite_in_process() {
    run_suite(Isolation::InProcess);
}

#[test]
fn escape_suite_process_isolation() {
    run_suite(Isolation::Process);
}

/// The artifact store's files stay inside its private directory whatever the filename.
#[test]
fn artifact_files_stay_in_their_directory() {
    set_canary_env();
    let runtime = runtime(Isolation::InProcess);
    let root = runtime.artifacts().root_dir();
    let result = runtime
        .execute("return await save_artifact(b'x', filename='ok.txt')", None)
        .unwrap();
    assert!(result.ok(), "{result:?}");
    let root = root.or_else(|| runtime.artifacts().root_dir()).unwrap();
    let inside: Vec<PathBuf> = walk(&root);
    assert_eq!(inside.len(), 1, "{inside:?}");
    assert!(inside[0].starts_with(&root));
    let _ = Duration::ZERO;
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
