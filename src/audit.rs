//! The audit log (`[audit]`): one JSON object per line, appended as runs go — metadata only.
//!
//! Events, as the Python original writes them (its `jq` recipes work unchanged):
//! - `run_start`: `run_id`, `backend`, `code_sha256` (first 12 hex digits), `code_chars`;
//! - `dispatch`: `run_id`, `capability`, `server` (for `mcp:` capabilities), `binary` and `exit_code`
//!   (for `toolplane:cli/run`: never its arguments or output), `duration_ms`, `ok`, `error_type` when
//!   it failed;
//! - `escalation` (`[cli]` under `serve mcp`): `binary`, `outcome` (`granted`, `declined`, `error`,
//!   or `abandoned` when the run ended before the person answered);
//! - `run_end`: `run_id`, `backend`, `duration_ms`, `ok`, `error_type`, `artifacts_saved`,
//!   `escalations_cancelled` (always empty: an open question its run left is an `abandoned`
//!   `escalation` event);
//! - `discovery` (the MCP server's search and schema tools): `surface`, `result_sha256`, `result_chars`.
//!
//! Every event has `ts` (UTC, milliseconds) and `event`. Never arguments, results or code: payloads can
//! carry secrets. Writing never breaks a run: a failure disables the log with one line on stderr.

use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use serde_json::{Map, Value, json};
use sha2::Digest as _;

use crate::config::AuditConfig;

/// Where events go when `[audit] path` is not set, as the original's.
pub const DEFAULT_AUDIT_PATH: &str = "~/.toolplane/audit.jsonl";

/// An open audit log: events are appended to its file, which is created private (`0600`, its directory
/// `0700`) on the first event.
#[derive(Debug)]
pub struct AuditLog {
    path: PathBuf,
    /// `None` until the first event; `Some(None)` once writing failed (the log is off).
    file: Mutex<Option<Option<Open>>>,
    /// [`MAX_AUDIT_LOG_BYTES`], smaller in tests.
    max_bytes: u64,
}

/// The open log and how many bytes it holds.
#[derive(Debug)]
struct Open {
    file: std::fs::File,
    bytes: u64,
}

/// The size at which the log is rotated: it is renamed to `PATH.1` (replacing the one before) and a new
/// file started, so a log holds at most twice this (a snippet can make many events).
pub const MAX_AUDIT_LOG_BYTES: u64 = 64 << 20;

/// The longest text an event field takes from a run (a capability name, an error type); longer ones
/// are cut, with `…`.
const MAX_FIELD_CHARS: usize = 256;

impl AuditLog {
    /// A log that appends to `path` (nothing is opened before the first event).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            file: Mutex::new(None),
            max_bytes: MAX_AUDIT_LOG_BYTES,
        }
    }

    /// The log `config` asks for, or `None` when `[audit]` is off.
    pub fn from_config(config: &AuditConfig) -> Option<Self> {
        config.enabled.then(|| {
            Self::new(expand_home(
                config.path.as_deref().unwrap_or(DEFAULT_AUDIT_PATH),
            ))
        })
    }

    /// Appends one event: `ts`, `event`, `run_id` when given, then `fields` (an object).
    pub fn emit(&self, event: &str, run_id: Option<&str>, fields: Value) {
        let mut record = Map::new();
        record.insert(
            "ts".into(),
            jiff::Timestamp::now()
                .strftime("%Y-%m-%dT%H:%M:%S%.3f+00:00")
                .to_string()
                .into(),
        );
        record.insert("event".into(), event.into());
        if let Some(run_id) = run_id {
            record.insert("run_id".into(), run_id.into());
        }
        if let Value::Object(fields) = fields {
            record.extend(fields);
        }
        let mut line = Value::Object(record).to_string();
        line.push('\n');
        let mut slot = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(match self.open() {
                Ok(open) => Some(open),
                Err(e) => {
                    self.disable(&e);
                    None
                }
            });
        }
        let Some(Some(open)) = slot.as_mut() else {
            return;
        };
        if open.bytes + line.len() as u64 > self.max_bytes && open.bytes > 0 {
            match self.rotate() {
                Ok(fresh) => *open = fresh,
                Err(e) => {
                    self.disable(&e);
                    *slot = Some(None);
                    return;
                }
            }
        }
        match open.file.write_all(line.as_bytes()) {
            Ok(()) => open.bytes += line.len() as u64,
            Err(e) => {
                self.disable(&e);
                *slot = Some(None);
            }
        }
    }

    /// Moves the full log to `PATH.1` and starts a new one.
    fn rotate(&self) -> std::io::Result<Open> {
        let mut older = self.path.clone().into_os_string();
        older.push(".1");
        std::fs::rename(&self.path, older)?;
        self.open()
    }

    /// Opens the log to append, never through a symbolic link at its path (a link planted there would
    /// point the log at another file), only a regular file, and private to the user (0600, in a 0700
    /// directory it makes).
    fn open(&self) -> std::io::Result<Open> {
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
            if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(dir)?;
            }
            options
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        #[cfg(not(unix))]
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let file = options.open(&self.path).map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                std::io::Error::other("it is a symbolic link (the audit log never follows one)")
            } else {
                e
            }
        })?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(std::io::Error::other("it is not a regular file"));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            if meta.permissions().mode() & 0o077 != 0 {
                file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
            }
        }
        Ok(Open {
            file,
            bytes: meta.len(),
        })
    }

    fn disable(&self, why: &std::io::Error) {
        tracing::warn!(
            "audit log disabled, cannot write {}: {why}",
            self.path.display()
        );
    }

    /// Starts timing a run: `run_start` now, `run_end` from [`AuditedRun::end`].
    /// `client` is whose stores the run has (a multi-client server's principal), when not the
    /// runtime's own.
    pub(crate) fn start_run(&self, code: &str, client: Option<&str>) -> AuditedRun<'_> {
        let run_id = new_run_id();
        let mut fields = json!({
            "backend": "rustpython",
            "code_sha256": short_sha256(code),
            "code_chars": code.chars().count(),
        });
        if let Some(client) = client {
            fields["client"] = json!(client);
        }
        self.emit("run_start", Some(&run_id), fields);
        AuditedRun {
            log: self,
            run_id,
            started: Instant::now(),
        }
    }
}

/// A run between its `run_start` and `run_end` events.
pub(crate) struct AuditedRun<'a> {
    log: &'a AuditLog,
    pub(crate) run_id: String,
    started: Instant,
}

impl AuditedRun<'_> {
    /// `run_end`, with the run's outcome.
    pub(crate) fn end(self, error_type: Option<&str>, artifacts_saved: usize) {
        self.log.emit(
            "run_end",
            Some(&self.run_id),
            json!({
                "backend": "rustpython",
                "duration_ms": elapsed_ms(self.started),
                "ok": error_type.is_none(),
                "error_type": error_type,
                "artifacts_saved": artifacts_saved,
                "escalations_cancelled": [],
            }),
        );
    }
}

/// `text` cut to [`MAX_FIELD_CHARS`] characters, with `…` when cut.
fn bounded(text: &str) -> String {
    match text.char_indices().nth(MAX_FIELD_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// The binary a `toolplane:cli/run` call names (what its `dispatch` event says of it), else `None`.
pub(crate) fn cli_binary(capability: &str, params: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Params {
        binary: Option<Value>,
    }
    if capability != crate::namespace::CLI_RUN {
        return None;
    }
    let params: Params = serde_json::from_str(params).ok()?;
    params.binary.as_ref().and_then(Value::as_str).map(bounded)
}

/// A finished command's exit code, from the reply of `toolplane:cli/run`.
fn exit_code(reply: &str) -> Option<i64> {
    #[derive(serde::Deserialize)]
    struct Reply {
        exit_code: i64,
    }
    serde_json::from_str::<Reply>(reply)
        .ok()
        .map(|r| r.exit_code)
}

/// One host call's `dispatch` event. `cli`: the binary of a `toolplane:cli/run` call
/// ([`cli_binary`]) and its reply when it ran, for the binary and exit code.
pub(crate) fn dispatched(
    log: &AuditLog,
    run_id: Option<&str>,
    capability: &str,
    started: Instant,
    error_type: Option<&str>,
    cli: Option<(&str, Option<&str>)>,
) {
    let mut fields = json!({"capability": bounded(capability)});
    if let Some((binary, reply)) = cli {
        fields["binary"] = binary.into();
        if let Some(code) = reply.and_then(exit_code) {
            fields["exit_code"] = code.into();
        }
    }
    // Only a capability that exists is attributed to a server: an unknown `mcp:victim/x` is a
    // snippet's text, not a call to `victim`.
    if let Some(server) = capability
        .strip_prefix("mcp:")
        .and_then(|rest| rest.split_once('/'))
        .map(|(server, _)| server)
        .filter(|_| error_type != Some("LookupError"))
    {
        fields["server"] = bounded(server).into();
    }
    fields["duration_ms"] = elapsed_ms(started).into();
    fields["ok"] = error_type.is_none().into();
    if let Some(error_type) = error_type {
        fields["error_type"] = bounded(error_type).into();
    }
    log.emit("dispatch", run_id, fields);
}

/// What a discovery tool returned, as a hash and a length (the original's `discovery` event).
#[cfg(feature = "mcp")]
pub fn discovery(log: &AuditLog, surface: &str, text: &str) {
    log.emit(
        "discovery",
        None,
        json!({
            "surface": surface,
            "result_sha256": short_sha256(text),
            "result_chars": text.chars().count(),
        }),
    );
}

fn elapsed_ms(started: Instant) -> f64 {
    (started.elapsed().as_secs_f64() * 1_000_000.0).round() / 1000.0
}

pub(crate) fn short_sha256(text: &str) -> String {
    let digest = sha2::Sha256::digest(text.as_bytes());
    digest[..6].iter().map(|b| format!("{b:02x}")).collect()
}

/// 8 hex digits, as the original's `secrets.token_hex(4)`.
fn new_run_id() -> String {
    use rand::Rng as _;
    let mut bytes = [0u8; 4];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn an_event_is_one_json_line_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let log = crate::audit::AuditLog::new(&path);
        log.emit(
            "discovery",
            None,
            serde_json::json!({"surface": "search_capabilities"}),
        );
        let line = std::fs::read_to_string(&path).unwrap();
        assert!(line.contains(r#""event":"discovery","surface":"search_capabilities""#));
    }

    #[test]
    fn the_log_is_where_the_config_says_and_only_when_enabled() {
        let default = crate::config::Config::from_toml_str("[audit]\nenabled = true\n").unwrap();
        let log = AuditLog::from_config(&default.audit).unwrap();
        assert!(
            log.path.ends_with(".toolplane/audit.jsonl"),
            "{:?}",
            log.path
        );
        assert!(AuditLog::from_config(&crate::config::Config::default().audit).is_none());
    }

    #[test]
    fn a_full_log_is_rotated_once_into_path_1() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let mut log = AuditLog::new(&path);
        log.max_bytes = 1000;
        for _ in 0..40 {
            log.emit("dispatch", Some("r"), json!({"capability": "x".repeat(50)}));
        }
        let now = std::fs::metadata(&path).unwrap().len();
        let older = std::fs::metadata(dir.path().join("audit.jsonl.1"))
            .unwrap()
            .len();
        assert!(now <= 1000 && older <= 1000, "{now} {older}");
        assert!(std::fs::read_dir(dir.path()).unwrap().count() == 2);
    }

    #[test]
    fn hashes_are_the_first_12_hex_digits_of_sha256() {
        // sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
        assert_eq!(short_sha256("abc"), "ba7816bf8f01");
    }

    #[test]
    fn a_log_that_cannot_be_written_turns_itself_off() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, "").unwrap();
        let log = AuditLog::new(blocker.join("audit.jsonl"));
        log.emit("run_start", Some("x"), json!({}));
        log.emit("run_end", Some("x"), json!({}));
        assert!(matches!(*log.file.lock().unwrap(), Some(None)));
    }
}
