//! Command-line tools as a capability (`[cli]`): the hidden `toolplane:cli/run` that snippets reach
//! through `await git("log", oneline=True)`, `cli_run(...)` or `cli.git(...)` (the shim,
//! `stdlib-shims/_toolplane.py`). The host owns the door: the policy is checked here, the binary is
//! found on the host's `PATH` and started with `execve` and an argv list (never a shell), with empty
//! stdin, the config's working directory, an environment without the secrets the config names, its
//! output capped, and its whole process group killed when the run ends first. Flags are rendered as the
//! Python original (cli-to-py) renders them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value, json};

use crate::capabilities::Capability;
use crate::config::{Config, is_plain_name};
use crate::host_error::{BuiltinBase, HostError};

use crate::namespace::CLI_RUN;

mod escalation;
#[cfg(feature = "mcp")]
pub(crate) use escalation::{AskGuard, AskPerson};

/// A runtime's `[cli]` state: the commands running now, and the binaries granted for its life.
#[derive(Debug, Clone, Default)]
pub(crate) struct Commands {
    pub(crate) live: LiveGroups,
    pub(crate) escalation: escalation::Escalation,
}

impl Commands {
    /// Asks the person (through `ask`) about refused binaries until the guard is dropped.
    #[cfg(feature = "mcp")]
    pub(crate) fn ask_with(&self, ask: AskPerson) -> AskGuard {
        self.escalation.ask_with(ask)
    }
}

/// The names `[cli]` always binds when on.
pub(crate) const ROOT_NAMES: &[&str] = &["cli", "cli_run"];

/// Names the CLI bindings never take: they are `cli`, `cli_run`, or the snippet's own.
const RESERVED: &[&str] = &["call_tool", "cli", "cli_run", "reset_session"];

use crate::namespace::CLI_SHAPE_GUIDANCE as SHAPE_GUIDANCE;

/// Binaries whose long flags take their value inline (`--format=%h`), as cli-to-py's
/// `INLINE_VALUE_BINARIES`: git's revision options accept only that form.
const INLINE_VALUE_BINARIES: &[&str] = &["git"];

/// The process groups of the commands a runtime is running. The runtime kills them all when it is
/// dropped or shut down: a call its run abandoned is aborted asynchronously, and a process about to
/// exit must not leave the command behind.
#[derive(Debug, Clone, Default)]
pub(crate) struct LiveGroups(Arc<std::sync::Mutex<BTreeSet<i32>>>);

impl LiveGroups {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeSet<i32>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Kills every command still running, with what it started.
    pub(crate) fn kill_all(&self) {
        for pgid in std::mem::take(&mut *self.lock()) {
            // SAFETY: killpg only sends a signal. A group in the set has a leader not reaped yet (it
            // leaves the set, under this lock, before it is reaped), so the ID is still that group's.
            unsafe { libc::killpg(pgid, libc::SIGKILL) };
        }
    }
}

/// What `[cli]` allows: `None` is `ambient` (any binary on `PATH`).
#[derive(Debug, Clone)]
struct Policy {
    allowed: Option<BTreeSet<String>>,
    cwd: Option<PathBuf>,
    /// Host variables a command never sees: those the config reads secrets from (`env://NAME`).
    hidden_env: BTreeSet<String>,
    max_output_bytes: usize,
    live: LiveGroups,
    escalation: escalation::Escalation,
    audit: Option<Arc<crate::audit::AuditLog>>,
}

/// The `toolplane:cli/run` capability for `config`, or `None` when `[cli]` is disabled; its commands
/// are in `live` while they run.
pub(crate) fn capability(
    config: &Config,
    commands: &Commands,
    audit: Option<Arc<crate::audit::AuditLog>>,
) -> Option<Capability> {
    let allowed = match config.cli.mode.as_str() {
        "allowlist" => Some(config.cli.allow.iter().cloned().collect()),
        "ambient" => None,
        _ => return None,
    };
    let policy = Arc::new(Policy {
        allowed,
        cwd: config.cli.cwd.clone(),
        hidden_env: secret_variables(config),
        max_output_bytes: config.limits.max_output_bytes,
        live: commands.live.clone(),
        escalation: commands.escalation.clone(),
        audit,
    });
    let capability = Capability::new_async(CLI_RUN, move |params| {
        let policy = policy.clone();
        // On toolplane's own runtime, which has the process driver whatever the embedder's has; the
        // guard aborts it (and so kills the command) when the run drops this call.
        let task = AbortOnDrop(crate::capabilities::own_runtime().spawn(run(policy, params)));
        async move { task.finish().await }
    })
    .description(match config.cli.mode.as_str() {
        "ambient" => {
            "Run a command-line tool on the host's PATH (any binary: ambient policy).".to_string()
        }
        _ => format!(
            "Run an allowed command-line tool on the host's PATH ({}).",
            config.cli.allow.join(", ")
        ),
    })
    .schema(json!({
        "type": "object",
        "properties": {
            "binary": {"type": "string"},
            "subcommand": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "options": {"type": "object"},
        },
        "required": ["binary"],
    }))
    .returns(json!({
        "type": "object",
        "properties": {
            "stdout": {"type": "string"},
            "stderr": {"type": "string"},
            "exit_code": {"type": "integer"},
            "ok": {"type": "boolean"},
        },
        "required": ["stdout", "stderr", "exit_code", "ok"],
    }))
    .tag("toolplane")
    .tag("cli")
    .hidden(true);
    Some(capability)
}

/// The binaries a run binds by name (`await git(...)`): in allowlist mode each allowed binary whose name
/// is a Python identifier no other binding takes. A binary granted later is reached through `cli_run`
/// and `cli`. `cli` and `cli_run` are bound whenever `[cli]` is on.
pub(crate) fn bound_names(config: &Config, taken: impl Fn(&str) -> bool) -> Option<Vec<String>> {
    match config.cli.mode.as_str() {
        "allowlist" => Some(
            config
                .cli
                .allow
                .iter()
                .filter(|name| {
                    crate::capabilities::is_identifier(name)
                        && !RESERVED.contains(&name.as_str())
                        && !crate::capabilities::alias_is_taken_by_python(name)
                        && !taken(name)
                })
                .cloned()
                .collect(),
        ),
        "ambient" => Some(Vec::new()),
        _ => None,
    }
}

/// What `[cli]` binds, in words for a model: the names and call shapes, as the original's
/// `cli_surface` line; `None` when `[cli]` is disabled. `registry` decides which names capability
/// aliases took.
#[cfg(feature = "mcp")]
pub(crate) fn surface(config: &Config, registry: &crate::capabilities::Registry) -> Option<String> {
    const RETURNS: &str = "returning {'stdout','stderr','exit_code','ok'}";
    let aliases = registry.bindable();
    let flat = bound_names(config, |name| {
        aliases.iter().any(|(alias, ..)| alias == name)
    })?;
    if config.cli.mode == "ambient" {
        return Some(format!(
            "CLI: any binary on PATH (ambient policy) \u{2014} shape `await cli_run('<binary>', \
             '<subcommand>', {{'flag': value}})` or `await cli.<binary>('<subcommand>', flag=value)`, \
             {RETURNS}"
        ));
    }
    let other: Vec<&str> = config
        .cli
        .allow
        .iter()
        .filter(|name| !flat.contains(name))
        .map(String::as_str)
        .collect();
    let mut parts = Vec::new();
    if let Some(first) = flat.first() {
        parts.push(format!(
            "CLI bindings for: {} \u{2014} shape `await {first}('<subcommand>', flag=value)`, {RETURNS}",
            flat.join(", ")
        ));
    }
    if let Some(first) = other.first() {
        parts.push(format!(
            "via cli_run only: {} \u{2014} shape `await cli_run('{first}', '<subcommand>', {{'flag': value}})`",
            other.join(", ")
        ));
    }
    Some(parts.join("; "))
}

/// The `## CLI` section of the `toolplane://namespace` manifest. `escalation`: a refused binary is
/// put to the person.
#[cfg(feature = "mcp")]
pub(crate) fn manifest_section(config: &Config, escalation: bool) -> String {
    let mut out = String::from("\n## CLI\n\n");
    match config.cli.mode.as_str() {
        "allowlist" => out.push_str(&format!(
            "Allowed binaries: {} (`[cli] mode = \"allowlist\"`).\n\n",
            config.cli.allow.join(", ")
        )),
        "ambient" => out.push_str(
            "Any binary on the host's PATH runs (`[cli] mode = \"ambient\"`); none is bound by name.\n\n",
        ),
        _ => {
            out.push_str("CLI access is disabled in this configuration.\n");
            return out;
        }
    }
    out.push_str(
        "- Each allowed binary whose name is a Python identifier is bound as an async function: the \
         subcommand as the first positional argument, flags as keyword arguments \u{2014} e.g. \
         `await git('log', oneline=True, max_count=3)`.\n\
         - Flags that must precede the subcommand (`git -C`, `kubectl --context`) go in `_global`: \
         `await git('log', _global={'C': '/path/to/repo'})`. Positionals go in `_`: \
         `await ls(_=['-la', 'docs'])`.\n\
         - Awaiting returns `{'stdout', 'stderr', 'exit_code', 'ok'}`; the call also has `.text()`, \
         `.lines()` and `.json()`. A non-zero exit is a value, not an exception.\n\
         - Any binary: `await cli_run('<binary>', '<subcommand>', {'flag': value})` or \
         `await cli.<binary>(...)`; the host refuses what the policy does not allow (PermissionError), \
         and a binary not on PATH is a FileNotFoundError.\n\
         - The binary runs directly (no shell), with empty stdin and no secrets in its environment; \
         stdout and stderr together are capped at the output limit, and it is killed with everything \
         it started when the run ends.\n",
    );
    if escalation && config.cli.mode == "allowlist" {
        out.push_str(
            "- If you need a binary outside the allowlist, call it through `cli_run` (or `cli`): the \
             server pauses and asks the person to allow it for the rest of this server session, once \
             per binary. If refused, you get the policy error \u{2014} use an allowed binary instead of \
             retrying.\n",
        );
    }
    out
}

/// Whether a search `query` is about `[cli]`: a word of it is `cli`, `command`, `shell`, … or an
/// allowed binary's name.
#[cfg(feature = "mcp")]
pub(crate) fn query_is_about_cli(config: &Config, query: &str) -> bool {
    const WORDS: &[&str] = &[
        "cli", "command", "commands", "binary", "binaries", "shell", "terminal", "run", "exec",
    ];
    query
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_' || c == '.'))
        .filter(|word| !word.is_empty())
        .any(|word| {
            let word = word.to_lowercase();
            WORDS.contains(&word.as_str()) || config.cli.allow.contains(&word)
        })
}

/// Every `NAME` of an `env://NAME` value in the config: the variables secrets come from.
fn secret_variables(config: &Config) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for server in config.mcp.servers.values() {
        let values = server
            .env
            .values()
            .chain(server.headers.values())
            .chain(server.auth.iter());
        for value in values {
            if let Some(name) = value.strip_prefix("env://") {
                names.insert(name.to_string());
            }
        }
    }
    names
}

struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl AbortOnDrop<Result<Value, HostError>> {
    async fn finish(mut self) -> Result<Value, HostError> {
        match (&mut self.0).await {
            Ok(result) => result,
            Err(e) => Err(HostError::runtime(format!(
                "the command did not finish: {e}"
            ))),
        }
    }
}

async fn run(policy: Arc<Policy>, params: Value) -> Result<Value, HostError> {
    let binary = match params.get("binary") {
        Some(Value::String(binary)) => binary.clone(),
        other => {
            return Err(HostError::type_error(format!(
                "CLI binary must be a str, got {}. {SHAPE_GUIDANCE}",
                json_type(other)
            )));
        }
    };
    if !granted(&policy, &binary).await {
        check_policy(&policy, &binary)?;
    }
    let argv = argv(&binary, params.get("subcommand"), params.get("options"))?;
    let program = find_on_path(&binary, std::env::var_os("PATH").as_deref()).ok_or_else(|| {
        HostError::new(
            BuiltinBase::FileNotFoundError,
            format!("Binary not found: '{binary}'"),
        )
    })?;
    let started = Instant::now();
    let output = execute(&policy, &program, &binary, &argv).await?;
    tracing::debug!(
        binary = binary.as_str(),
        exit_code = output.exit_code,
        ms = started.elapsed().as_secs_f64() * 1000.0,
        "command ran"
    );
    Ok(json!({
        "stdout": output.stdout,
        "stderr": output.stderr,
        "exit_code": output.exit_code,
        "ok": output.exit_code == 0,
    }))
}

/// Whether an allowlist that does not name `binary` lets it run anyway: granted for the life of the
/// runtime, now or before (a plain name only).
async fn granted(policy: &Policy, binary: &str) -> bool {
    match &policy.allowed {
        Some(allowed) if !allowed.contains(binary) && is_plain_name(binary) => {
            policy
                .escalation
                .grant(binary, allowed, policy.audit.as_deref())
                .await
        }
        _ => false,
    }
}

fn check_policy(policy: &Policy, binary: &str) -> Result<(), HostError> {
    if let Some(allowed) = &policy.allowed
        && !allowed.contains(binary)
    {
        let granted = policy.escalation.granted();
        let listed: BTreeSet<&str> = allowed.iter().chain(&granted).map(String::as_str).collect();
        let listed: Vec<&str> = listed.into_iter().collect();
        let hint = if is_plain_name(binary) {
            format!(" To allow it: toolplane cli allow {binary}")
        } else {
            String::new()
        };
        return Err(HostError::permission(format!(
            "CLI binary is not allowed by Toolplane policy: {binary}. Allowed binaries: {}.{hint}",
            listed.join(", ")
        )));
    }
    if !is_plain_name(binary) {
        return Err(HostError::permission(format!(
            "CLI binary {binary:?} is refused: only a name found on PATH runs (no '/', spaces or shell syntax)"
        )));
    }
    Ok(())
}

/// The first executable file named `name` in a directory of `path` (`exec`'s own search; the
/// libc default where `PATH` is unset).
pub(crate) fn find_on_path(name: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = path.unwrap_or(std::ffi::OsStr::new("/bin:/usr/bin"));
    std::env::split_paths(path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join(name))
        .find(|candidate| {
            std::fs::metadata(candidate)
                .is_ok_and(|found| found.is_file() && found.permissions().mode() & 0o111 != 0)
        })
}

fn json_type(value: Option<&Value>) -> &'static str {
    match value {
        None | Some(Value::Null) => "'NoneType'",
        Some(Value::Bool(_)) => "'bool'",
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => "'int'",
        Some(Value::Number(_)) => "'float'",
        Some(Value::String(_)) => "'str'",
        Some(Value::Array(_)) => "'list'",
        Some(Value::Object(_)) => "'dict'",
    }
}

/// The arguments after the program name: the `_global` flags, the subcommand, the flags, the
/// positionals (`_`), as cli-to-py renders them.
fn argv(
    binary: &str,
    subcommand: Option<&Value>,
    options: Option<&Value>,
) -> Result<Vec<String>, HostError> {
    let mut options = match options {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(options)) => options.clone(),
        Some(other) => {
            return Err(HostError::type_error(format!(
                "CLI options must be a dict of flags, got {}. {SHAPE_GUIDANCE}",
                json_type(Some(other))
            )));
        }
    };
    let global = match options.shift_remove("_global") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(global)) => global,
        Some(other) => {
            return Err(HostError::type_error(format!(
                "_global must be a dict of flags that precede the subcommand, got {}. {SHAPE_GUIDANCE}",
                json_type(Some(&other))
            )));
        }
    };
    if global.contains_key("_") {
        return Err(HostError::type_error(
            "_global cannot contain '_' \u{2014} positionals belong after the subcommand",
        ));
    }
    let inline = INLINE_VALUE_BINARIES.contains(&binary);
    let mut argv = flags(&global, inline)?;
    match subcommand {
        None | Some(Value::Null) => {}
        Some(Value::String(subcommand)) => {
            if subcommand.chars().any(char::is_whitespace) {
                return Err(HostError::value(format!(
                    "CLI subcommand {} contains whitespace \u{2014} it is passed as a single argv token, \
                     so flags do not belong in it. {SHAPE_GUIDANCE}",
                    crate::canonical::py_repr(subcommand)
                )));
            }
            argv.push(subcommand.replace('_', "-"));
        }
        Some(other) => {
            return Err(HostError::type_error(format!(
                "CLI subcommand must be a string, got {}. {SHAPE_GUIDANCE}",
                json_type(Some(other))
            )));
        }
    }
    argv.extend(flags(&options, inline)?);
    Ok(argv)
}

/// cli-to-py's `options_to_args`: `v=True` → `-v`, `dry_run=True` → `--dry-run`, `False`/`None`
/// omitted, a list repeats the flag, `_` holds positionals (after the flags), a key starting with `-`
/// is used as written; long flags take their value inline (`--max-count=3`) for `inline` binaries.
fn flags(options: &Map<String, Value>, inline: bool) -> Result<Vec<String>, HostError> {
    let mut flag_args = Vec::new();
    let mut positional = Vec::new();
    for (key, value) in options {
        if key == "_" {
            match value {
                Value::Null => {}
                Value::Array(items) => {
                    for item in items {
                        positional.push(scalar(key, item)?);
                    }
                }
                item => positional.push(scalar(key, item)?),
            }
            continue;
        }
        let long = !key.starts_with('-') && key.chars().count() > 1;
        let flag = if key.starts_with('-') {
            key.clone()
        } else if long {
            format!("--{}", key.replace('_', "-"))
        } else {
            format!("-{key}")
        };
        let equals = inline && (long || key.starts_with("--"));
        let mut push = |item: &Value| -> Result<(), HostError> {
            let item = scalar(key, item)?;
            if equals {
                flag_args.push(format!("{flag}={item}"));
            } else {
                flag_args.push(flag.clone());
                flag_args.push(item);
            }
            Ok(())
        };
        match value {
            Value::Bool(true) => flag_args.push(flag.clone()),
            Value::Bool(false) | Value::Null => {}
            Value::Array(items) => {
                for item in items {
                    push(item)?;
                }
            }
            item => push(item)?,
        }
    }
    flag_args.extend(positional);
    Ok(flag_args)
}

/// One argv token from a JSON value, as Python's `str()` writes it.
fn scalar(key: &str, value: &Value) -> Result<String, HostError> {
    match value {
        Value::String(text) => Ok(text.clone()),
        Value::Bool(b) => Ok(if *b { "True" } else { "False" }.to_string()),
        Value::Null => Ok("None".to_string()),
        Value::Number(n) => Ok(match n.as_f64() {
            Some(f) if !(n.is_i64() || n.is_u64()) => crate::canonical::py_float_repr(f),
            _ => n.to_string(),
        }),
        Value::Array(_) | Value::Object(_) => Err(HostError::type_error(format!(
            "CLI flag {key:?} takes a str, a number, a bool or a list of them, got {}. {SHAPE_GUIDANCE}",
            json_type(Some(value))
        ))),
    }
}

struct Output {
    stdout: String,
    stderr: String,
    exit_code: i32,
}

/// Kills the command's whole process group when the call ends before the command was reaped (the
/// run ended first, or the call was dropped): nothing the command started may outlive it.
struct GroupGuard {
    live: LiveGroups,
    pgid: Option<i32>,
}

impl GroupGuard {
    fn new(live: &LiveGroups, pgid: Option<i32>) -> Self {
        if let Some(pgid) = pgid {
            live.lock().insert(pgid);
        }
        Self {
            live: live.clone(),
            pgid,
        }
    }

    /// Kills the group now (its leader has exited and is not reaped yet, or is still running).
    fn kill(&mut self) {
        if let Some(pgid) = self.pgid.take() {
            let mut live = self.live.lock();
            if live.remove(&pgid) {
                // SAFETY: killpg only sends a signal; the leader is not reaped, so the group is ours.
                unsafe { libc::killpg(pgid, libc::SIGKILL) };
            }
        }
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        self.kill();
    }
}

async fn execute(
    policy: &Policy,
    program: &Path,
    binary: &str,
    argv: &[String],
) -> Result<Output, HostError> {
    use tokio::io::AsyncReadExt as _;
    let mut command = tokio::process::Command::new(program);
    command
        .arg0(binary)
        .args(argv)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    for name in &policy.hidden_env {
        command.env_remove(name);
    }
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(|n| n.starts_with("TOOLPLANE_")) {
            command.env_remove(name);
        }
    }
    if let Some(cwd) = &policy.cwd {
        command.current_dir(cwd);
    }
    let mut child = command
        .spawn()
        .map_err(|e| HostError::runtime(format!("cannot start '{binary}': {e}")))?;
    let mut guard = GroupGuard::new(&policy.live, child.id().map(|pid| pid as i32));
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let budget = policy.max_output_bytes;
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let (mut out_open, mut err_open) = (true, true);
    let mut cut = 0usize;
    let mut chunk_out = vec![0u8; 64 << 10];
    let mut chunk_err = vec![0u8; 64 << 10];
    while out_open || err_open {
        let (read, into_stdout) = tokio::select! {
            read = stdout.read(&mut chunk_out), if out_open => (read, true),
            read = stderr.read(&mut chunk_err), if err_open => (read, false),
        };
        let n = read.unwrap_or(0);
        if n == 0 {
            if into_stdout {
                out_open = false;
            } else {
                err_open = false;
            }
            continue;
        }
        let room = budget.saturating_sub(out.len() + err.len());
        let kept = n.min(room);
        cut += n - kept;
        if into_stdout {
            out.extend_from_slice(&chunk_out[..kept]);
        } else {
            err.extend_from_slice(&chunk_err[..kept]);
        }
    }
    // Once the command has exited, and before it is reaped (a zombie keeps its process group's ID
    // taken), what it left running in its group goes: nothing it started outlives the call.
    if let Some(pid) = child.id() {
        let _ = tokio::task::spawn_blocking(move || wait_without_reaping(pid)).await;
    }
    guard.kill();
    let status = child
        .wait()
        .await
        .map_err(|e| HostError::runtime(format!("'{binary}' could not be waited for: {e}")))?;
    use std::os::unix::process::ExitStatusExt as _;
    let exit_code = status
        .code()
        .or_else(|| status.signal().map(|signal| -signal))
        .unwrap_or(-1);
    let mut stdout = String::from_utf8_lossy(&out).into_owned();
    if cut > 0 {
        stdout.push_str(&format!(
            "\n[toolplane: {cut} more bytes of output cut: stdout and stderr together are capped at \
             [limits] max_output_bytes = {budget}]"
        ));
    }
    Ok(Output {
        stdout,
        stderr: String::from_utf8_lossy(&err).into_owned(),
        exit_code,
    })
}

/// Blocks until process `pid` (our child) has exited, leaving it to be reaped.
fn wait_without_reaping(pid: u32) {
    loop {
        // SAFETY: waitid writes only into `info`; WNOWAIT leaves the child's status for tokio to reap.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let done = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if done == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(binary: &str, subcommand: Value, options: Value) -> Vec<String> {
        argv(binary, Some(&subcommand), Some(&options)).unwrap()
    }

    #[test]
    fn flags_render_as_the_original_renders_them() {
        // `toolplane run` of toolplane 0.5.2 with `await echo("hello", n=True, max_count=3,
        // _global={"C": "/x"})` printed `-C /x hello -n --max-count 3`.
        assert_eq!(
            rendered(
                "echo",
                json!("hello"),
                json!({"n": true, "max_count": 3, "_global": {"C": "/x"}})
            ),
            ["-C", "/x", "hello", "-n", "--max-count", "3"]
        );
        // ... and `s --inc a --inc b p1 p2` for these; `cherry_pick` became `cherry-pick`.
        assert_eq!(
            rendered(
                "echo",
                json!("s"),
                json!({"inc": ["a", "b"], "no": false, "nothing": null, "_": ["p1", "p2"]})
            ),
            ["s", "--inc", "a", "--inc", "b", "p1", "p2"]
        );
        assert_eq!(
            rendered("echo", json!("cherry_pick"), json!({})),
            ["cherry-pick"]
        );
        // git takes long values inline, as cli-to-py renders them for it.
        assert_eq!(
            rendered(
                "git",
                json!("log"),
                json!({"oneline": true, "max_count": 3, "format": "%h"})
            ),
            ["log", "--oneline", "--max-count=3", "--format=%h"]
        );
        assert_eq!(
            rendered("echo", Value::Null, json!({"--raw_key": 1.5, "_": "x"})),
            ["--raw_key", "1.5", "x"]
        );
    }

    #[test]
    fn bad_shapes_say_the_call_shape() {
        let err = argv("echo", Some(&json!("a b")), None).unwrap_err();
        assert_eq!(err.base, BuiltinBase::ValueError);
        assert!(
            err.message
                .starts_with("CLI subcommand 'a b' contains whitespace"),
            "{err}"
        );
        assert!(err.message.ends_with(SHAPE_GUIDANCE), "{err}");
        let err = argv("echo", Some(&json!("it's\n")), None).unwrap_err();
        assert!(
            err.message
                .starts_with(r#"CLI subcommand "it's\n" contains"#),
            "{err}"
        );
        let err = argv("echo", None, Some(&json!({"_global": {"_": ["x"]}}))).unwrap_err();
        assert_eq!(err.base, BuiltinBase::TypeError);
        let err = argv("echo", None, Some(&json!({"x": {"nested": 1}}))).unwrap_err();
        assert_eq!(err.base, BuiltinBase::TypeError);
    }

    /// PATH tricks: a relative entry (`.`, `bin`, empty: the current directory) is never searched, and
    /// a file without an execute bit is passed over.
    #[test]
    fn only_absolute_path_entries_and_executables_are_found() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let (plain, exec) = (dir.path().join("plain"), dir.path().join("exec"));
        for d in [&plain, &exec] {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join("tool"), "#!/bin/sh\n").unwrap();
        }
        std::fs::set_permissions(exec.join("tool"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        let path = std::env::join_paths([&plain, &exec]).unwrap();
        assert_eq!(find_on_path("tool", Some(&path)), Some(exec.join("tool")));
        // The same directory named relative to the current one: never searched.
        let cwd = std::env::current_dir().unwrap();
        let up = "../".repeat(cwd.components().count());
        let relative = format!("{up}{}", exec.display().to_string().trim_start_matches('/'));
        assert!(std::path::Path::new(&relative).join("tool").exists());
        for entry in [relative.as_str(), ".", ""] {
            let path = std::ffi::OsString::from(entry);
            assert_eq!(find_on_path("tool", Some(&path)), None, "{entry:?}");
        }
    }

    #[test]
    fn only_plain_names_run() {
        for good in [
            "git",
            "rg",
            "python3.11",
            "g++",
            "x86_64-linux-gnu-gcc",
            "_x",
        ] {
            assert!(is_plain_name(good), "{good}");
        }
        for bad in [
            "", "/bin/sh", "./x", "a;b", "$(id)", "a b", "-rf", ".hidden", "a\nb", "x|y",
        ] {
            assert!(!is_plain_name(bad), "{bad:?}");
        }
    }
}
