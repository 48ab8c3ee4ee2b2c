//! The `toolplane` command line: a thin shell over [`crate::Toolplane`].

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{Config, Isolation};
use crate::runtime::Toolplane;

mod log;
mod mcp;
mod pretty;
mod repl;
mod secret;
mod tools;
mod trust;

/// Exit status: a snippet raised.
const EXIT_SNIPPET_FAILED: u8 = 1;
/// Exit status: bad usage, bad config, missing file.
const EXIT_USAGE: u8 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "toolplane",
    version,
    about = "Run AI-written Python snippets in a sandbox whose only door is the host's externals."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run snippet files in order, in one runtime (handles saved by one load in the next).
    Run(RunArgs),
    /// Write a starter toolplane.toml.
    Init {
        /// Where to write it.
        #[arg(long, default_value = "toolplane.toml")]
        config: PathBuf,
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Check this machine: which isolation works here, the worker executable, a test run in each mode.
    Doctor {
        /// The config file (default: ./toolplane.toml when present, else the defaults).
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Validate a config file.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// An interactive session: snippets one after another against one session and one result store.
    /// With stdin not a terminal, reads entries separated by blank lines and prints one JSON result each.
    Repl {
        /// The config file (default: ./toolplane.toml when present, else the defaults).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Every entry runs fresh (saved handles are still shared).
        #[arg(long)]
        fresh: bool,
        /// Where snippets run (overrides TOOLPLANE_ISOLATION and [toolplane] isolation; default: process).
        #[arg(long, value_parser = ["process", "in-process"])]
        isolation: Option<String>,
    },
    /// Trust a project config's content, so that its MCP servers (and worker_path, audit.path) are used
    /// when the CLI finds it as ./toolplane.toml; a changed file needs trust again.
    Trust(trust::TrustArgs),
    /// Manage the MCP servers whose tools snippets call ([mcp.servers.*] of toolplane.toml).
    Mcp {
        #[command(subcommand)]
        command: mcp::McpCommand,
    },
    /// Manage the CLI policy: which command-line tools snippets may run (`[cli]`).
    Cli {
        #[command(subcommand)]
        command: tools::CliCommand,
    },
    /// Manage secrets in the OS keyring (referenced as keyring://NAME).
    Secret {
        #[command(subcommand)]
        command: secret::SecretCommand,
    },
    /// Serve toolplane to agents.
    Serve {
        #[command(subcommand)]
        command: ServeCommand,
    },
}

#[derive(Subcommand, Debug)]
enum ServeCommand {
    /// The code-mode MCP server: execute_code, search_capabilities, get_capability_schemas and the
    /// toolplane:// resources. Stdio by default; on HTTP the stores and the session are off.
    Mcp(ServeMcpArgs),
}

#[derive(clap::Args, Debug)]
struct ServeMcpArgs {
    /// The config file (default: ./toolplane.toml when present, else the defaults).
    #[arg(long)]
    config: Option<PathBuf>,
    /// How clients connect.
    #[arg(long, value_parser = ["stdio", "http"], default_value = "stdio")]
    transport: String,
    /// The address HTTP listens on.
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// The port HTTP listens on (0: any free port; the policy line says which).
    #[arg(long, default_value_t = crate::mcp::DEFAULT_HTTP_PORT)]
    port: u16,
    /// Where snippets run (overrides TOOLPLANE_ISOLATION and [toolplane] isolation; default: process).
    #[arg(long, value_parser = ["process", "in-process"])]
    isolation: Option<String>,
    /// A browser origin HTTP accepts besides loopback ones, as the browser sends it (e.g.
    /// `https://app.example.com`; "*" for any); repeatable. Requests from other origins get 403.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origins: Vec<String>,
    /// A `Host` name HTTP accepts besides loopback ones and the address it listens on: the name
    /// clients or a proxy use (e.g. `mcp.example.com`, any port; `mcp.example.com:443`, that port);
    /// repeatable. Requests naming other hosts get 403.
    #[arg(long = "allow-host", value_name = "HOST")]
    allow_hosts: Vec<String>,
    /// Serve HTTP clients with in-process isolation: their snippets then run in this process's own
    /// memory, and one that crashes the interpreter ends the server for every client.
    #[arg(long)]
    accept_in_process_http: bool,
    /// Listen on a non-loopback address without client authentication ([http.tokens] or
    /// [http.oauth]): anyone who
    /// reaches the port runs code. Only for a network you trust.
    #[arg(long)]
    allow_unauthenticated: bool,
    /// Serve an unsafe policy (`[cli] mode = "ambient"`: any binary on PATH), for trusted local
    /// development only.
    #[arg(long = "unsafe")]
    allow_unsafe: bool,
}

#[derive(Subcommand, Debug)]
enum ConfigCommand {
    /// Parse and validate the config, then print what it sets.
    Check {
        /// The config file (default: ./toolplane.toml when present, else the defaults).
        #[arg(long)]
        config: Option<PathBuf>,
    },
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// The config file (default: ./toolplane.toml when present, else the defaults).
    #[arg(long)]
    config: Option<PathBuf>,
    /// A global for every snippet, as NAME=JSON (repeatable).
    #[arg(long = "input", value_name = "NAME=JSON")]
    inputs: Vec<String>,
    /// Print one ExecutionResult JSON object per file, one per line, and nothing else on stdout.
    #[arg(long)]
    json: bool,
    /// Run the files in one persistent session (variables survive between files).
    #[arg(long)]
    session: bool,
    /// Wall-clock limit per run in seconds (overrides [limits] timeout_seconds).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Where snippets run (overrides TOOLPLANE_ISOLATION and [toolplane] isolation; default: process).
    #[arg(long, value_parser = ["process", "in-process"])]
    isolation: Option<String>,
    /// Snippet files, run in order.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// A failure the CLI reports as `toolplane: …` with exit status 2.
struct UsageError(String);

pub(crate) use crate::mcp_client::printable;

impl<T: std::fmt::Display> From<T> for UsageError {
    fn from(e: T) -> Self {
        Self(e.to_string())
    }
}

/// Entry point of the `toolplane` binary.
pub fn main() -> ExitCode {
    log::install_subscriber();
    // The test hooks' variable also lets this process's in-process runs use the panic probe.
    if std::env::var_os(crate::engine::TEST_HOOKS_ENV).is_some() {
        crate::sandbox::enable_test_hooks();
    }
    std::panic::set_hook(Box::new(|info| {
        // A panic inside an in-process VM is caught there and becomes the run's error.
        if std::thread::current().name() == Some(crate::engine::SANDBOX_THREAD) {
            return;
        }
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let _ = writeln!(
            std::io::stderr(),
            "toolplane: internal error: {what} (this is a bug; please report it)"
        );
    }));
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { 0 });
        }
    };
    let outcome = match cli.command {
        Command::Run(args) => run(args),
        Command::Init { config, force } => init(&config, force),
        Command::Doctor { config } => doctor(config.as_deref()),
        Command::Config {
            command: ConfigCommand::Check { config },
        } => config_check(config.as_deref()),
        Command::Serve {
            command: ServeCommand::Mcp(args),
        } => serve_mcp(args),
        Command::Mcp { command } => mcp::main(command),
        Command::Cli { command } => tools::main(command),
        Command::Secret { command } => secret::main(command),
        Command::Trust(args) => trust::main(args),
        Command::Repl {
            config,
            fresh,
            isolation,
        } => start_repl(config.as_deref(), fresh, isolation.as_deref()),
    };
    match outcome {
        Ok(code) => code,
        Err(UsageError(message)) => {
            let _ = writeln!(std::io::stderr(), "toolplane: {message}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The config of a command: `--config PATH`, else `./toolplane.toml` when present, else the defaults.
fn load_config(path: Option<&Path>) -> Result<(Config, Option<PathBuf>), UsageError> {
    match path {
        Some(path) => Ok((Config::load(path)?, Some(path.to_path_buf()))),
        None => {
            let local = PathBuf::from("toolplane.toml");
            if local.is_file() {
                let mut config = Config::load(&local)?;
                trust::gate(&mut config, &local);
                Ok((config, Some(local)))
            } else {
                Ok((Config::default(), None))
            }
        }
    }
}

fn parse_input(raw: &str) -> Result<(String, serde_json::Value), UsageError> {
    let (name, json) = raw
        .split_once('=')
        .ok_or_else(|| UsageError(format!("--input expects NAME=JSON, got {raw:?}")))?;
    if !crate::capabilities::is_identifier(name) {
        return Err(UsageError(format!(
            "--input name {name:?} is not a Python identifier"
        )));
    }
    let value = serde_json::from_str(json)
        .map_err(|e| UsageError(format!("--input {name}: invalid JSON ({e})")))?;
    Ok((name.to_string(), value))
}

fn read_snippet(path: &Path, limit: usize) -> Result<String, UsageError> {
    let cannot = |e: std::io::Error| UsageError(format!("cannot read {}: {e}", path.display()));
    let size = std::fs::metadata(path).map_err(cannot)?.len();
    if size > limit as u64 {
        return Err(UsageError(format!(
            "{}: {}",
            path.display(),
            crate::runtime::snippet_too_large(size as usize, limit)
        )));
    }
    let bytes = std::fs::read(path).map_err(cannot)?;
    String::from_utf8(bytes).map_err(|e| {
        UsageError(format!(
            "{} is not valid UTF-8 (byte {}); snippets are UTF-8 Python source",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The isolation the CLI runs with: `--isolation`, else `TOOLPLANE_ISOLATION`, else the config's, else
/// process isolation.
fn cli_isolation(config: &Config, flag: Option<&str>) -> Result<Isolation, UsageError> {
    let from_env = std::env::var("TOOLPLANE_ISOLATION").ok();
    match flag.or(from_env.as_deref()) {
        Some("in-process") => Ok(Isolation::InProcess),
        Some("process") => Ok(Isolation::Process),
        Some(other) => Err(UsageError(format!(
            "TOOLPLANE_ISOLATION must be 'process' or 'in-process', got {other:?}"
        ))),
        None => Ok(config.toolplane.isolation.unwrap_or(Isolation::Process)),
    }
}

fn run(args: RunArgs) -> Result<ExitCode, UsageError> {
    // Before any thread starts, so that every thread inherits the mask.
    #[cfg(unix)]
    let exit_signals = block_exit_signals();
    let (mut config, _) = load_config(args.config.as_deref())?;
    config.toolplane.isolation = Some(cli_isolation(&config, args.isolation.as_deref())?);
    let mut inputs = serde_json::Map::new();
    for raw in &args.inputs {
        let (name, value) = parse_input(raw)?;
        inputs.insert(name, value);
    }
    let snippets = args
        .files
        .iter()
        .map(|f| read_snippet(f, config.limits.max_snippet_bytes))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(seconds) = args.timeout {
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= 86_400.0) {
            return Err(UsageError(format!(
                "--timeout must be a number of seconds in (0, 86400], got {seconds}"
            )));
        }
        config.limits.timeout_seconds = seconds;
    }
    let runtime = Toolplane::new(config)?;
    let runtime = std::sync::Arc::new(runtime);
    #[cfg(unix)]
    end_on_signals(exit_signals, runtime.clone());
    let session = args.session.then(|| runtime.session());
    let mut failed = false;
    let stdout = std::io::stdout();
    for (code, file) in snippets.iter().zip(&args.files) {
        let result = match &session {
            Some(session) => session.execute(code, Some(inputs.clone())),
            None => runtime.execute(code, Some(inputs.clone())),
        };
        // A run broken by the signal thread's shutdown must not print its crash or exit with its
        // own status: the signal thread exits with the signal's.
        #[cfg(unix)]
        park_if_ending_on_signal();
        let mut result = result?;
        name_the_file(&mut result, file);
        failed |= !result.ok();
        let mut out = stdout.lock();
        let written = if args.json {
            writeln!(
                out,
                "{}",
                serde_json::to_string(&result).unwrap_or_default()
            )
        } else {
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(result.stderr.as_bytes());
            let written =
                out.write_all(result.stdout.as_bytes())
                    .and_then(|()| match &result.error {
                        // As `python3 script.py` prints nothing of a script's `None`.
                        None if result.value_is_null() => Ok(()),
                        None => writeln!(out, "{}", pretty::pretty(result.value.get())),
                        Some(_) => Ok(()),
                    });
            if let Some(error) = &result.error {
                let _ = out.flush();
                print_error(&mut err, error);
            }
            written
        };
        if written.and_then(|()| out.flush()).is_err() {
            // stdout was closed under us (e.g. piped into `head`): stop quietly.
            runtime.end_commands();
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    }
    // The signal thread keeps the runtime alive, so its drop would not end what a run left running.
    runtime.end_commands();
    Ok(ExitCode::from(if failed { EXIT_SNIPPET_FAILED } else { 0 }))
}

/// Shows `file` where tracebacks name the snippet (`<snippet>`, `<session>`), as Python names a
/// script by the path it was given.
fn name_the_file(result: &mut crate::execution::ExecutionResult, file: &Path) {
    let Some(error) = result.error.as_mut() else {
        return;
    };
    let shown = file.display().to_string();
    for name in [
        crate::sandbox::SNIPPET_DISPLAY_NAME,
        crate::sandbox::SESSION_DISPLAY_NAME,
    ] {
        error.traceback = error
            .traceback
            .replace(&format!("File \"{name}\""), &format!("File \"{shown}\""));
        error.message = error
            .message
            .replace(&format!("({name}, line "), &format!("({shown}, line "));
    }
}

/// A failed snippet on stderr: its traceback as Python prints it (red on a terminal, unless
/// `NO_COLOR` is set), or `toolplane: Type: message` for an error without one (a limit).
fn print_error(err: &mut impl std::io::Write, error: &crate::execution::ExecutionError) {
    use std::io::IsTerminal as _;
    let text = if error.traceback.is_empty() {
        format!("toolplane: {}: {}", error.error_type, error.message)
    } else {
        error.traceback.trim_end().to_string()
    };
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let _ = if color {
        writeln!(err, "\x1b[31m{text}\x1b[0m")
    } else {
        writeln!(err, "{text}")
    };
}

/// Blocks SIGINT, SIGTERM and SIGHUP in this thread and every thread it starts later; see
/// [`end_on_signals`].
#[cfg(unix)]
fn block_exit_signals() -> nix::sys::signal::SigSet {
    use nix::sys::signal::{SigSet, Signal};
    let mut set = SigSet::empty();
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        set.add(signal);
    }
    let _ = set.thread_block();
    set
}

/// Set by the signal thread before it stops the workers, which breaks the run in progress.
#[cfg(unix)]
static ENDING_ON_SIGNAL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Waits for the signal thread to exit the process once it has taken a signal.
#[cfg(unix)]
fn park_if_ending_on_signal() {
    while ENDING_ON_SIGNAL.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::park();
    }
}

/// A thread that takes the blocked exit signals: it removes the artifact directory, stops the worker
/// processes and exits with the shell's status for the signal (130, 143, 129). A default-action death
/// would leave the artifacts' bytes in `$TMPDIR` and a running worker behind.
#[cfg(unix)]
fn end_on_signals(signals: nix::sys::signal::SigSet, runtime: std::sync::Arc<Toolplane>) {
    let spawned = std::thread::Builder::new()
        .name("toolplane-signals".into())
        .spawn(move || {
            if let Ok(signal) = signals.wait() {
                ENDING_ON_SIGNAL.store(true, std::sync::atomic::Ordering::SeqCst);
                runtime.shutdown();
                let _ = std::io::stdout().flush();
                std::process::exit(128 + signal as i32);
            }
        });
    if spawned.is_err() {
        // Without the thread, the signals must keep their default action.
        let _ = signals.thread_unblock();
    }
}

fn start_repl(
    path: Option<&Path>,
    fresh: bool,
    isolation: Option<&str>,
) -> Result<ExitCode, UsageError> {
    let (mut config, _) = load_config(path)?;
    config.toolplane.isolation = Some(cli_isolation(&config, isolation)?);
    let runtime = Toolplane::new(config)?;
    runtime
        .prestart()
        .map_err(|why| UsageError(format!("cannot start the sandbox: {why}")))?;
    Ok(repl::main(repl::Shell::new(runtime, fresh)))
}

fn serve_mcp(args: ServeMcpArgs) -> Result<ExitCode, UsageError> {
    use crate::mcp::{McpServer, Transport, resolve_serve_config};
    let (config, _) = load_config(args.config.as_deref())?;
    let transport = match args.transport.as_str() {
        "http" => Transport::Http,
        _ => Transport::Stdio,
    };
    // The original's refusal, before anything starts.
    let ambient = config.cli.mode == "ambient";
    if ambient && !args.allow_unsafe {
        return Err(UsageError(
            "Refusing to serve Toolplane MCP facade with unsafe policy: ambient_cli. Use an explicit \
             safe config or pass --unsafe for trusted local development."
                .into(),
        ));
    }
    let policy = policy_parts(&config, ambient && args.allow_unsafe);
    // With `[http] per_client_stores = false`, HTTP gets no stores and no session (fail-closed).
    let mut config = resolve_serve_config(&config, transport);
    config.toolplane.isolation = Some(cli_isolation(&config, args.isolation.as_deref())?);
    if transport == Transport::Http
        && config.toolplane.isolation == Some(Isolation::InProcess)
        && !args.accept_in_process_http
    {
        return Err(UsageError(
            "refusing to serve HTTP with in-process isolation: every client's snippets would run in \
             this server's own memory, where one that crashes the interpreter ends the server for \
             all, and only the sandbox's checks (no process or seccomp boundary) stand between a \
             client and the host. Use process isolation (the default), or pass \
             --accept-in-process-http to accept that"
                .into(),
        ));
    }
    // The MCP servers are connected once the server answers: their tools appear when ready, and a
    // slow server does not hold up the client.
    let downstream = crate::config::McpConfig {
        servers: std::mem::take(&mut config.mcp.servers),
        ..config.mcp.clone()
    };
    let http = config.http.clone();
    let runtime = Toolplane::new(config)?;
    let registry = runtime.bridge().registry().clone();
    // Start the zygote now so the first execute_code does not wait for it.
    if let Err(why) = runtime.prestart() {
        return Err(UsageError(why.to_string()));
    }
    if transport == Transport::Stdio && !args.allow_origins.is_empty() {
        return Err(UsageError(
            "--allow-origin applies to --transport http (stdio has no browser origins)".into(),
        ));
    }
    if transport == Transport::Stdio && !args.allow_hosts.is_empty() {
        return Err(UsageError(
            "--allow-host applies to --transport http (stdio has no Host header)".into(),
        ));
    }
    let tokens = if transport == Transport::Http {
        bearer_tokens(&http)?
    } else {
        Vec::new()
    };
    if transport == Transport::Http
        && tokens.is_empty()
        && http.oauth.is_none()
        && !args.host.is_loopback()
        && !args.allow_unauthenticated
    {
        return Err(UsageError(format!(
            "refusing to listen on {} without client authentication: anyone who reaches the port would \
             run code. Set bearer tokens in [http.tokens] or an authorization server in [http.oauth] \
             (docs/mcp.md), or pass --allow-unauthenticated for a network you trust",
            args.host
        )));
    }
    let server = McpServer::new(runtime, transport)
        .allow_origins(args.allow_origins.clone())
        .allow_hosts(args.allow_hosts.clone())
        .require_bearer_tokens(tokens);
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| UsageError(format!("cannot start the async runtime: {e}")))?;
    let served = tokio.block_on(async {
        let notifier = server.clone();
        if downstream.servers.is_empty() {
            if let Some(warning) = notifier.hybrid_warning() {
                eprintln!("{warning}");
            }
        } else {
            tokio::spawn(async move {
                let statuses = crate::mcp_client::connect_servers(&downstream, &registry).await;
                for warning in statuses
                    .iter()
                    .filter_map(crate::mcp_client::ServerStatus::warning)
                {
                    eprintln!("toolplane: {warning}");
                }
                // Their tools may be [hybrid] tools: clients are told the list changed.
                notifier.capabilities_changed();
                if let Some(warning) = notifier.hybrid_warning() {
                    eprintln!("{warning}");
                }
            });
        }
        match transport {
            Transport::Stdio => {
                eprintln!("{} {policy}", server.policy_line());
                server.serve_stdio().await
            }
            Transport::Http => {
                let listener = McpServer::bind_http((args.host, args.port).into())
                    .await
                    .map_err(|e| {
                        std::io::Error::other(format!(
                            "cannot listen on {}:{}: {e}",
                            args.host, args.port
                        ))
                    })?;
                let local = listener.local_addr()?;
                // `listen=` stays last: clients take the URL from the end of the line.
                let client_auth = server.client_auth();
                eprintln!(
                    "{} {policy} client_auth={client_auth} listen=http://{local}{}",
                    server.policy_line(),
                    crate::mcp::MCP_PATH
                );
                server.serve_http(listener).await
            }
        }
    });
    // Runs still in flight when the client left are bounded by their timeout; do not wait for more.
    tokio.shutdown_timeout(std::time::Duration::from_secs(1));
    served.map_err(|e| UsageError(e.to_string()))?;
    Ok(ExitCode::SUCCESS)
}

/// `[http.tokens]` resolved: (principal, token) for each token, its secret references read now.
fn bearer_tokens(http: &crate::config::HttpConfig) -> Result<Vec<(String, String)>, UsageError> {
    let mut tokens = Vec::new();
    for (principal, values) in &http.tokens {
        let named: std::collections::BTreeMap<String, String> = values
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let key = if values.len() == 1 {
                    principal.clone()
                } else {
                    format!("{principal}[{i}]")
                };
                (key, value.clone())
            })
            .collect();
        let resolved = crate::mcp_client::resolve_secrets("http.tokens", &named)
            .map_err(|why| UsageError(format!("cannot serve: {why}")))?;
        for (key, token) in resolved {
            // An empty token (a variable set to "") would let in anyone who sends an empty `Bearer`.
            if token.trim().is_empty() {
                return Err(UsageError(format!(
                    "cannot serve: http.tokens.{key}: the token is empty"
                )));
            }
            tokens.push((principal.clone(), token));
        }
    }
    Ok(tokens)
}

/// The original's policy fields: `cli=… allow=… mcp_servers=… unsafe=…` (and `reasons=` when unsafe).
fn policy_parts(config: &Config, unsafe_served: bool) -> String {
    let joined = |names: Vec<&str>| {
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(",")
        }
    };
    let allow = match config.cli.mode.as_str() {
        "ambient" => "ALL".to_string(),
        "allowlist" => {
            let mut allowed: Vec<&str> = config.cli.allow.iter().map(String::as_str).collect();
            allowed.sort_unstable();
            joined(allowed)
        }
        _ => "none".to_string(),
    };
    let servers = joined(config.mcp.servers.keys().map(String::as_str).collect());
    let mut parts = format!(
        "cli={} allow={allow} mcp_servers={servers} unsafe={unsafe_served}",
        config.cli.mode
    );
    if unsafe_served {
        parts.push_str(" reasons=ambient_cli");
    }
    parts
}

fn init(path: &Path, force: bool) -> Result<ExitCode, UsageError> {
    if path.exists() && !force {
        return Err(UsageError(format!(
            "{} already exists (use --force to overwrite)",
            path.display()
        )));
    }
    std::fs::write(path, Config::starter_toml())
        .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))?;
    println!("Wrote {}", path.display());
    Ok(ExitCode::SUCCESS)
}

/// Runs `return 1 + 1` in a runtime with `isolation`; the line to print.
fn doctor_probe(config: &Config, isolation: Isolation) -> (bool, String) {
    let mut config = config.clone();
    config.toolplane.isolation = Some(isolation);
    // The probe is about the sandbox; the MCP servers are checked once, below.
    config.mcp.servers.clear();
    let runtime = match Toolplane::new(config) {
        Ok(runtime) => runtime,
        Err(e) => return (false, format!("{}: FAILED: {e}", isolation.as_str())),
    };
    let started = std::time::Instant::now();
    match runtime.execute("return 1 + 1", None) {
        Ok(result) if result.ok() && result.value.get() == "2" => (
            true,
            format!(
                "{}: ok (first run {:.1} ms, including start-up)",
                isolation.as_str(),
                started.elapsed().as_secs_f64() * 1000.0
            ),
        ),
        Ok(result) => (
            false,
            format!(
                "{}: FAILED: {}",
                isolation.as_str(),
                result
                    .error
                    .map(|e| format!("{}: {}", e.error_type, e.message))
                    .unwrap_or_else(|| format!("unexpected value {}", result.value))
            ),
        ),
        Err(e) => (false, format!("{}: FAILED: {e}", isolation.as_str())),
    }
}

fn doctor(path: Option<&Path>) -> Result<ExitCode, UsageError> {
    let (config, _) = load_config(path)?;
    println!(
        "toolplane {} on {}-{}",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::OS,
        std::env::consts::ARCH
    );
    let mut healthy = true;
    if cfg!(target_os = "linux") {
        // The same lookup the runtime does.
        let worker = crate::engine::worker_executable(config.toolplane.worker_path.as_deref());
        println!(
            "process isolation: available (fork, rlimits); worker: {}",
            worker.map_or_else(|why| why, |p| p.display().to_string())
        );
        let (ok, line) = doctor_probe(&config, Isolation::Process);
        healthy &= ok;
        println!("  {line}");
        #[cfg(target_os = "linux")]
        match crate::engine::jail_summary() {
            // The run above was made in a child that entered it (a child that cannot runs nothing).
            Ok(summary) if ok => println!("  worker jail: {summary}"),
            Ok(summary) => println!("  worker jail: {summary}; not confirmed by a run"),
            Err(why) => {
                healthy = false;
                println!("  worker jail: FAILED: {why}");
            }
        }
        #[cfg(target_os = "linux")]
        println!(
            "  zygote on huge pages (faster forks): {}",
            crate::engine::huge_pages_availability().map_or_else(|why| why, |()| "yes".into())
        );
    } else {
        println!(
            "process isolation: not available on {} (no fork): runs use the in-process engine",
            std::env::consts::OS
        );
    }
    let (ok, line) = doctor_probe(&config, Isolation::InProcess);
    healthy &= ok;
    println!("  {line}");
    println!(
        "default for the CLI and the library: {}",
        config
            .toolplane
            .isolation
            .unwrap_or_else(Isolation::default_here)
            .as_str()
    );
    // Only a config that references the keyring needs one: a missing keyring is a problem then.
    let uses_keyring = config.mcp.servers.values().any(|server| {
        server
            .env
            .values()
            .chain(server.headers.values())
            .chain(server.auth.iter())
            .any(|value| value.starts_with("keyring://"))
    });
    match crate::secrets::Keyring::open() {
        Ok(keyring) => println!(
            "keyring (keyring://, toolplane secret): {}",
            keyring.backend()
        ),
        Err(why) => {
            healthy &= !uses_keyring;
            println!("keyring (keyring://, toolplane secret): none: {why}");
        }
    }
    if !config.mcp.servers.is_empty() {
        println!("MCP servers ([mcp.servers.*]):");
        println!("  {}", crate::mcp_client::server_protections());
        let registry = std::sync::Arc::new(crate::capabilities::Registry::new());
        for status in crate::mcp_client::connect_servers_blocking(&config.mcp, &registry) {
            match status {
                crate::mcp_client::ServerStatus::Connected { name, tools } => {
                    println!("  {name}: ok ({tools} tools)");
                }
                crate::mcp_client::ServerStatus::Unavailable { name, reason } => {
                    healthy = false;
                    println!("  {name}: unavailable: {}", printable(&reason));
                }
            }
        }
    }
    println!("{}", if healthy { "ok" } else { "problems found" });
    Ok(if healthy {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn config_check(path: Option<&Path>) -> Result<ExitCode, UsageError> {
    let (config, used) = load_config(path)?;
    let on_off = |b: bool| if b { "enabled" } else { "disabled" };
    println!(
        "config: {}",
        used.map_or("(none: defaults)".to_string(), |p| p.display().to_string())
    );
    println!(
        "backend: rustpython{}",
        if config.toolplane.default_backend == "monty" {
            " (configured as 'monty')"
        } else {
            ""
        }
    );
    println!(
        "results: {} (max {} entries, {} bytes total, {} bytes each, ttl {}s)",
        on_off(config.results.enabled),
        config.results.max_entries,
        config.results.max_total_bytes,
        config.results.max_entry_bytes,
        config.results.ttl_seconds
    );
    println!(
        "artifacts: {} (max {} entries, {} bytes total, {} bytes each, ttl {}s)",
        on_off(config.artifacts.enabled),
        config.artifacts.max_entries,
        config.artifacts.max_total_bytes,
        config.artifacts.max_entry_bytes,
        config.artifacts.ttl_seconds
    );
    println!(
        "session: {} (max {} MiB)",
        on_off(config.session.enabled),
        config.limits.session_max_memory_mb
    );
    println!(
        "limits: timeout {}s, memory {} MiB, output {} bytes, recursion {}",
        config.limits.timeout_seconds,
        config.limits.max_memory_mb,
        config.limits.max_output_bytes,
        config.limits.max_recursion_depth
    );
    println!("cli: {}", config.cli.mode);
    println!(
        "isolation: {}",
        config
            .toolplane
            .isolation
            .map_or("(default: process on Linux, in-process elsewhere)", |i| i
                .as_str())
    );
    println!("ok");
    Ok(ExitCode::SUCCESS)
}
