//! `toolplane mcp add|remove|list|status|import`: the `[mcp.servers.*]` of a `toolplane.toml`, edited
//! in place with `toml_edit` (comments and formatting kept) and checked by connecting. Names, flags and
//! messages follow the Python original's `toolplane mcp`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Subcommand;
use toml_edit::{DocumentMut, InlineTable, Item, Table, value};

use super::UsageError;
use crate::config::McpServerConfig;
use crate::mcp_client::Probe;

mod import;

/// Where the edit commands write when no `--config` is given, as the original.
const DEFAULT_CONFIG: &str = "toolplane.toml";

#[derive(Subcommand, Debug)]
pub(super) enum McpCommand {
    /// List configured MCP servers without connecting.
    List {
        /// Path to a toolplane TOML config file.
        #[arg(long, default_value = DEFAULT_CONFIG)]
        config: PathBuf,
    },
    /// Add an MCP server to a toolplane TOML config (comments and formatting are kept).
    ///
    /// A stdio server: `toolplane mcp add NAME [--env K=V]... -- COMMAND ARGS...` (or `--command CMD
    /// --arg A...`). A streamable-HTTP one: `toolplane mcp add NAME --url URL [--header K=V]...`.
    /// Values may be `env://VAR` (the host's environment) or `keyring://NAME` (the OS keyring: `toolplane secret set NAME`), read when the server is connected.
    Add(AddArgs),
    /// Remove an MCP server from a toolplane TOML config.
    Remove {
        /// MCP server name to remove.
        name: String,
        /// Path to a toolplane TOML config file.
        #[arg(long, default_value = DEFAULT_CONFIG)]
        config: PathBuf,
    },
    /// Check configured MCP servers by connecting to each and listing its tools.
    Status {
        /// Optional MCP server name(s) to check.
        names: Vec<String>,
        /// Path to a toolplane TOML config file (default: ./toolplane.toml, whose servers start only
        /// once `toolplane trust` trusted its content).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Per-server status timeout in seconds.
        #[arg(long, default_value_t = 5.0)]
        timeout: f64,
    },
    /// Import MCP servers from another client's config (Claude Desktop, Claude Code, Cursor, Codex,
    /// or a file). Shows what it would add; `--yes` writes it.
    Import(import::ImportArgs),
    /// Sign in to an MCP server with `auth = "oauth"`: opens the browser (and prints the URL) for the
    /// authorization server's consent, then keeps the tokens in the OS keyring.
    Login {
        /// MCP server name to log in.
        name: String,
        /// Path to a toolplane TOML config file.
        #[arg(long, default_value = DEFAULT_CONFIG)]
        config: PathBuf,
        /// How long to wait for the browser flow, in seconds.
        #[arg(long, default_value_t = 180.0)]
        timeout: f64,
        /// A client registered with the authorization server beforehand (else toolplane registers
        /// one, where the server allows dynamic registration).
        #[arg(long)]
        client_id: Option<String>,
        /// Read the pre-registered client's secret from stdin (never from argv).
        #[arg(long, requires = "client_id")]
        client_secret_stdin: bool,
    },
    /// Forget an MCP server's OAuth tokens (the next connection needs `toolplane mcp login` again).
    Logout {
        /// MCP server name.
        name: String,
        /// Path to a toolplane TOML config file.
        #[arg(long, default_value = DEFAULT_CONFIG)]
        config: PathBuf,
    },
    /// The client the official MCP conformance suite's auth scenarios drive (tokens in memory only).
    #[command(hide = true)]
    ConformanceClient {
        /// The scenario's server URL.
        url: String,
    },
}

#[derive(clap::Args, Debug)]
pub(super) struct AddArgs {
    /// MCP server name (letters, digits, `_` and `-`).
    name: String,
    /// Path to a toolplane TOML config file.
    #[arg(long, default_value = DEFAULT_CONFIG)]
    config: PathBuf,
    /// Print the TOML snippet instead of editing the config file.
    #[arg(long)]
    print: bool,
    /// Replace an existing MCP server with the same name.
    #[arg(long)]
    force: bool,
    /// Remote (streamable HTTP) MCP endpoint URL.
    #[arg(long, conflicts_with_all = ["command_value", "command_line"])]
    url: Option<String>,
    /// An HTTP header for --url, as KEY=VALUE (repeatable).
    #[arg(long = "header", value_name = "KEY=VALUE")]
    headers: Vec<String>,
    /// Local stdio MCP server command (or give it after `--`).
    #[arg(
        long = "command",
        value_name = "COMMAND",
        conflicts_with = "command_line"
    )]
    command_value: Option<String>,
    /// Argument for --command; repeat for multiple arguments.
    #[arg(long = "arg", value_name = "ARG", allow_hyphen_values = true)]
    args: Vec<String>,
    /// An environment variable for the stdio server, as KEY=VALUE (repeatable).
    #[arg(long = "env", value_name = "KEY=VALUE")]
    env: Vec<String>,
    /// Seconds one call may take.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    timeout: Option<f64>,
    /// A bearer token for --url: `env://VAR` or `keyring://NAME` (read when the server is connected) or the token
    /// (`oauth`: sign in with `toolplane mcp login NAME`; tokens in the OS keyring).
    #[arg(long)]
    auth: Option<String>,
    /// The stdio server's command and arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND ARGS")]
    command_line: Vec<String>,
}

pub(super) fn main(command: McpCommand) -> Result<ExitCode, UsageError> {
    match command {
        McpCommand::List { config } => list(&config),
        McpCommand::Add(args) => add(args),
        McpCommand::Remove { name, config } => remove(&config, &name),
        McpCommand::Status {
            names,
            config,
            timeout,
        } => {
            let implicit = config.is_none();
            let path = config.unwrap_or_else(|| PathBuf::from(DEFAULT_CONFIG));
            if implicit && !super::trust::trusted_or_harmless(&path) {
                return Err(UsageError(format!(
                    "{DEFAULT_CONFIG} is not trusted, so its MCP servers are not started: review it, \
                     then run `toolplane trust` (a changed file needs trust again), or name a config \
                     with --config"
                )));
            }
            status(&path, &names, timeout)
        }
        McpCommand::Import(args) => import::main(args),
        McpCommand::Login {
            name,
            config,
            timeout,
            client_id,
            client_secret_stdin,
        } => login(&config, &name, timeout, client_id, client_secret_stdin),
        McpCommand::Logout { name, config } => {
            let servers = load_servers(&config)?;
            let url = servers
                .get(&name)
                .and_then(|server| server.url.clone())
                .ok_or_else(|| UsageError(format!("Unknown MCP server: {name}")))?;
            let keyring = crate::secrets::Keyring::open()
                .map_err(|why| UsageError(format!("no OS keyring is available ({why})")))?;
            let entry = crate::mcp_client::oauth::token_entry(&name, &url);
            match keyring.delete(&entry) {
                Ok(true) => println!("Forgot the OAuth tokens of '{name}'"),
                Ok(false) => println!("No OAuth tokens stored for '{name}'"),
                Err(why) => {
                    return Err(UsageError(format!("the OS keyring backend failed ({why})")));
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        McpCommand::ConformanceClient { url } => {
            let outcome = tokio::runtime::Runtime::new()
                .map_err(|e| UsageError(e.to_string()))?
                .block_on(crate::mcp_client::oauth::conformance_client(&url));
            match outcome {
                Ok(done) => {
                    println!("{done}");
                    Ok(ExitCode::SUCCESS)
                }
                Err(why) => Err(UsageError(why)),
            }
        }
    }
}

fn login(
    path: &Path,
    name: &str,
    timeout: f64,
    client_id: Option<String>,
    client_secret_stdin: bool,
) -> Result<ExitCode, UsageError> {
    if !(timeout.is_finite() && timeout > 0.0) {
        return Err(UsageError("--timeout must be greater than zero".into()));
    }
    let servers = load_servers(path)?;
    let server = servers
        .get(name)
        .ok_or_else(|| UsageError(format!("Unknown MCP server: {name}")))?;
    let url = match (&server.url, server.auth.as_deref()) {
        (Some(url), Some("oauth")) => url.clone(),
        _ => {
            return Err(UsageError(format!(
                "MCP server '{name}' does not sign in with OAuth: set url and auth = \"oauth\" for it \
                 (toolplane mcp add {name} --url URL --auth oauth)"
            )));
        }
    };
    let client_secret = if client_secret_stdin {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|e| UsageError(format!("cannot read the client secret from stdin: {e}")))?;
        Some(text.trim().to_string()).filter(|s| !s.is_empty())
    } else {
        None
    };
    let client = crate::mcp_client::oauth::PreRegistered {
        client_id,
        client_secret,
    };
    eprintln!("Logging in to '{name}'; a browser window may open to complete authentication...");
    let timeout = Duration::from_secs_f64(timeout);
    let runtime = tokio::runtime::Runtime::new().map_err(|e| UsageError(e.to_string()))?;
    let browse = |authorization_url: String| {
        eprintln!(
            "Open this URL in a browser to sign in (waiting {} s):\n{authorization_url}",
            timeout.as_secs()
        );
        if let Err(e) = webbrowser::open(&authorization_url) {
            eprintln!("(no browser opened: {e})");
        }
        std::future::ready(())
    };
    let tokens = crate::mcp_client::oauth::KeyringCredentials::new(name, &url);
    let signed_in = runtime.block_on(crate::mcp_client::oauth::login(
        &url, tokens, &client, timeout, browse,
    ));
    if let Err(why) = signed_in {
        return Err(UsageError(format!(
            "Login failed for '{name}': {}",
            super::printable(&why)
        )));
    }
    // As the original: the login is proven by a connection that lists the tools.
    let mut one = BTreeMap::new();
    one.insert(name.to_string(), server.clone());
    match crate::mcp_client::probe_servers_blocking(&one, Duration::from_secs(30)).pop() {
        Some((_, Probe::Ok { tools })) => {
            println!("Login succeeded for '{name}': {tools} tools");
            Ok(ExitCode::SUCCESS)
        }
        Some((_, Probe::Failed(why))) => Err(UsageError(format!(
            "Login failed for '{name}': {}",
            super::printable(&why)
        ))),
        _ => Err(UsageError(format!(
            "Login failed for '{name}': the server did not answer after the sign-in"
        ))),
    }
}

fn add(args: AddArgs) -> Result<ExitCode, UsageError> {
    let server = server_table(&args)?;
    if args.print {
        let mut document = DocumentMut::new();
        servers_table(&mut document)?.insert(&args.name, Item::Table(server));
        print!("# add this to your toolplane.toml:\n{document}");
        return Ok(ExitCode::SUCCESS);
    }
    let edit = ConfigEdit::begin(&args.config)?;
    let path = edit.path();
    let mut document = read_document(path)?;
    if servers_table(&mut document)?.contains_key(&args.name) && !args.force {
        return Err(UsageError(format!(
            "MCP server '{}' already exists; use --force to replace it",
            args.name
        )));
    }
    insert_server(&mut document, &args.name, server)?;
    write_atomic(path, &document.to_string())?;
    println!(
        "Added MCP server '{}' to {}",
        args.name,
        args.config.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The `[mcp.servers.NAME]` table `add` writes, checked as the config loader will check it.
fn server_table(args: &AddArgs) -> Result<Table, UsageError> {
    if !valid_server_name(&args.name) {
        return Err(UsageError(
            "MCP server name must contain only letters, numbers, underscores, and hyphens".into(),
        ));
    }
    let (command, command_args) = match (&args.command_value, args.command_line.split_first()) {
        (Some(command), _) => (Some(command.clone()), args.args.clone()),
        (None, Some((command, rest))) => {
            if !args.args.is_empty() {
                return Err(UsageError(
                    "--arg is only valid with --command; after `--`, give the arguments there"
                        .into(),
                ));
            }
            (Some(command.clone()), rest.to_vec())
        }
        (None, None) => (None, Vec::new()),
    };
    if args.url.is_some() == command.is_some() {
        return Err(UsageError(
            "Specify exactly one of --url or --command (or the command after `--`)".into(),
        ));
    }
    if args.url.as_deref().is_some_and(|url| url.trim().is_empty()) {
        return Err(UsageError("--url must be non-empty".into()));
    }
    if command.as_deref().is_some_and(|c| c.trim().is_empty()) {
        return Err(UsageError("--command must be non-empty".into()));
    }
    if args.url.is_some() && !args.args.is_empty() {
        return Err(UsageError("--arg is only valid with --command".into()));
    }
    if args.url.is_some() && !args.env.is_empty() {
        return Err(UsageError(
            "--env is only valid for a stdio server (--command)".into(),
        ));
    }
    if command.is_some() && !args.headers.is_empty() {
        return Err(UsageError("--header is only valid with --url".into()));
    }
    if command.is_some() && args.auth.is_some() {
        return Err(UsageError("--auth is only valid with --url".into()));
    }
    let mut server = Table::new();
    if let Some(url) = &args.url {
        server["url"] = value(url.as_str());
        if !args.headers.is_empty() {
            server["headers"] = value(pairs("--header", &args.headers)?);
        }
        if let Some(auth) = &args.auth {
            server["auth"] = value(auth.as_str());
        }
    } else if let Some(command) = command {
        server["command"] = value(command);
        if !command_args.is_empty() {
            server["args"] = value(command_args.iter().collect::<toml_edit::Array>());
        }
        if !args.env.is_empty() {
            server["env"] = value(pairs("--env", &args.env)?);
        }
    }
    if let Some(timeout) = args.timeout {
        server["timeout"] = value(timeout);
    }
    check_server(&args.name, &server)?;
    Ok(server)
}

/// `KEY=VALUE` flags as an inline table, in the order given.
fn pairs(flag: &str, raw: &[String]) -> Result<InlineTable, UsageError> {
    let mut table = InlineTable::new();
    for pair in raw {
        match pair.split_once('=') {
            Some((key, val)) if !key.trim().is_empty() => {
                table.insert(key.trim(), val.into());
            }
            _ => {
                return Err(UsageError(format!(
                    "{flag} expects KEY=VALUE, got {pair:?}"
                )));
            }
        }
    }
    Ok(table)
}

/// Refuses a server table the config loader would refuse, with the loader's message, so that an edit
/// never leaves a config that does not load.
fn check_server(name: &str, server: &Table) -> Result<McpServerConfig, UsageError> {
    let mut document = DocumentMut::new();
    servers_table(&mut document)?.insert(name, Item::Table(server.clone()));
    let config = crate::config::Config::from_toml_str(&document.to_string())?;
    Ok(config.mcp.servers.get(name).cloned().unwrap_or_default())
}

fn remove(config: &Path, name: &str) -> Result<ExitCode, UsageError> {
    let edit = ConfigEdit::begin(config)?;
    let path = edit.path();
    let mut document = read_document(path)?;
    let servers = document
        .get_mut("mcp")
        .and_then(Item::as_table_like_mut)
        .and_then(|mcp| mcp.get_mut("servers"))
        .and_then(Item::as_table_like_mut);
    let Some(servers) = servers.filter(|servers| servers.contains_key(name)) else {
        let configured = configured_names(&read_document(path)?);
        return Err(UsageError(format!(
            "no MCP server '{name}' in {}; configured: {}",
            config.display(),
            if configured.is_empty() {
                "(none)".to_string()
            } else {
                configured.join(", ")
            }
        )));
    };
    let removed = servers.remove(name);
    if let Some(comments) = removed
        .as_ref()
        .and_then(Item::as_table)
        .filter(|table| {
            table
                .decor()
                .prefix()
                .and_then(|p| p.as_str())
                .is_some_and(|p| p.contains('#'))
        })
        .and_then(|table| {
            Some((
                table.position()?,
                table.decor().prefix()?.as_str()?.to_string(),
            ))
        })
    {
        keep_comments(&mut document, comments);
    }
    write_atomic(path, &document.to_string())?;
    println!("Removed MCP server '{name}' from {}", config.display());
    Ok(ExitCode::SUCCESS)
}

/// The comments above a removed table (`(its position, its prefix)`) go above the table that followed it,
/// or to the end of the file: they may be anyone's, as a starter file's MCP comments are.
fn keep_comments(document: &mut DocumentMut, (position, comments): (usize, String)) {
    fn next_after(
        table: &Table,
        position: usize,
        at: &mut Vec<String>,
        best: &mut Option<(usize, Vec<String>)>,
    ) {
        for (key, item) in table.iter() {
            let Some(child) = item.as_table() else {
                continue;
            };
            at.push(key.to_string());
            if let Some(p) = child.position()
                && p > position
                && !child.is_implicit()
                && best.as_ref().is_none_or(|(b, _)| p < *b)
            {
                *best = Some((p, at.clone()));
            }
            next_after(child, position, at, best);
            at.pop();
        }
    }
    let mut best = None;
    next_after(document.as_table(), position, &mut Vec::new(), &mut best);
    let Some((_, path)) = best else {
        let trailing = document.trailing().as_str().unwrap_or_default().to_string();
        document.set_trailing(format!("{comments}{trailing}"));
        return;
    };
    let mut table = document.as_table_mut();
    for key in &path {
        match table.get_mut(key).and_then(Item::as_table_mut) {
            Some(child) => table = child,
            None => return,
        }
    }
    let prefix = table
        .decor()
        .prefix()
        .and_then(|p| p.as_str())
        .unwrap_or_default()
        .to_string();
    table.decor_mut().set_prefix(format!("{comments}{prefix}"));
}

fn configured_names(document: &DocumentMut) -> Vec<String> {
    let mut names: Vec<String> = document
        .get("mcp")
        .and_then(Item::as_table_like)
        .and_then(|mcp| mcp.get("servers"))
        .and_then(Item::as_table_like)
        .map(|servers| servers.iter().map(|(k, _)| k.to_string()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// The configured servers, validated as every command loads them; a missing default file is no servers.
fn load_servers(path: &Path) -> Result<BTreeMap<String, McpServerConfig>, UsageError> {
    if !path.exists() && path == Path::new(DEFAULT_CONFIG) {
        return Ok(BTreeMap::new());
    }
    Ok(crate::config::Config::load(path)?.mcp.servers)
}

fn list(path: &Path) -> Result<ExitCode, UsageError> {
    let servers = load_servers(path)?;
    let mut out = String::from("MCP servers:\n");
    if servers.is_empty() {
        out.push_str("(none)\n");
    }
    for (name, server) in &servers {
        let mut parts = vec![format!("- {name}:"), format!("transport={}", kind(server))];
        if let Some(url) = &server.url {
            parts.push(format!("url={}", crate::mcp_client::redact_urls(url)));
        }
        if let Some(command) = &server.command {
            parts.push(format!("command={command}"));
            if !server.args.is_empty() {
                parts.push(format!("args={}", server.args.len()));
            }
        }
        parts.push(format!("auth={}", auth_label(server)));
        out.push_str(&parts.join(" "));
        out.push('\n');
    }
    print!("{out}");
    Ok(ExitCode::SUCCESS)
}

fn status(path: &Path, names: &[String], timeout: f64) -> Result<ExitCode, UsageError> {
    if !(timeout.is_finite() && timeout > 0.0) {
        return Err(UsageError("--timeout must be greater than zero".into()));
    }
    let mut servers = load_servers(path)?;
    let missing: Vec<&str> = names
        .iter()
        .filter(|n| !servers.contains_key(*n))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(UsageError(format!(
            "Unknown MCP server: {}",
            missing.join(", ")
        )));
    }
    if !names.is_empty() {
        servers.retain(|name, _| names.contains(name));
    }
    let probes =
        crate::mcp_client::probe_servers_blocking(&servers, Duration::from_secs_f64(timeout));
    let mut out = String::from("MCP servers:\n");
    if probes.is_empty() {
        out.push_str("(none)\n");
    }
    let mut healthy = true;
    for (name, probe) in probes {
        let server = &servers[&name];
        let (state, tools, detail) = match probe {
            Probe::Ok { tools } => ("ok", Some(tools), String::new()),
            Probe::TimedOut => ("timeout", None, format!("timed out after {timeout}s")),
            Probe::Failed(reason) if looks_auth_required(&reason) => {
                ("auth_required", None, reason)
            }
            Probe::Failed(reason) => ("error", None, reason),
        };
        healthy &= state == "ok";
        let mut parts = vec![
            format!("- {name}:"),
            state.to_string(),
            format!("transport={}", kind(server)),
            format!("auth={}", auth_label(server)),
        ];
        if let Some(tools) = tools {
            parts.push(format!("tools={tools}"));
        }
        if !detail.is_empty() {
            parts.push(format!("detail={}", super::printable(&detail)));
        }
        out.push_str(&parts.join(" "));
        out.push('\n');
    }
    print!("{out}");
    // The original exits 0 whatever the servers said; a script can still tell from the status.
    Ok(if healthy {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// As the original names the two shapes.
fn kind(server: &McpServerConfig) -> &'static str {
    if server.url.is_some() {
        "url"
    } else if server.command.is_some() {
        "stdio"
    } else {
        "unknown"
    }
}

fn auth_label(server: &McpServerConfig) -> String {
    match &server.auth {
        // A reference names where the token is; a literal token must not be shown.
        Some(auth)
            if auth == "oauth" || auth.starts_with("env://") || auth.starts_with("keyring://") =>
        {
            auth.clone()
        }
        Some(_) => "bearer".to_string(),
        None if server
            .headers
            .keys()
            .any(|k| k.eq_ignore_ascii_case("authorization")) =>
        {
            "header".to_string()
        }
        None => "none".to_string(),
    }
}

/// An HTTP server that refused the probe's credentials (not a header that names `Authorization`).
fn looks_auth_required(reason: &str) -> bool {
    let lowered = reason.to_lowercase();
    [
        "auth_required",
        "401",
        "403",
        "unauthorized",
        "forbidden",
        "www-authenticate",
        "requires authentication",
    ]
    .iter()
    .any(|marker| lowered.contains(marker))
}

fn valid_server_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// One edit of a config file by this process: the file edited is the one a symbolic link at the path
/// points to (the link stays), and the edit holds an exclusive lock on the file's directory from its
/// read to its write, so that concurrent edits (`mcp add` twenty times at once) all survive.
pub(super) struct ConfigEdit {
    path: PathBuf,
    /// The directory, locked with flock(2) while this lives.
    _lock: std::fs::File,
}

impl ConfigEdit {
    pub(super) fn begin(path: &Path) -> Result<Self, UsageError> {
        let target = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => path.canonicalize().map_err(|e| {
                UsageError(format!(
                    "{} is a symbolic link whose target cannot be read ({e}); edit the file it \
                     points to, or name it with --config",
                    path.display()
                ))
            })?,
            _ => path.to_path_buf(),
        };
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let cannot = |e: std::io::Error| UsageError(format!("cannot lock {}: {e}", dir.display()));
        let lock = std::fs::File::open(&dir).map_err(cannot)?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd as _;
            // SAFETY: flock on a descriptor this process owns; released when the file closes.
            if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) } != 0 {
                return Err(cannot(std::io::Error::last_os_error()));
            }
        }
        Ok(Self {
            path: target,
            _lock: lock,
        })
    }

    /// The file to read and write.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }
}

/// The config document at `path`, or an empty one when there is no file yet.
pub(super) fn read_document(path: &Path) -> Result<DocumentMut, UsageError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(UsageError(format!("cannot read {}: {e}", path.display()))),
    };
    text.parse()
        .map_err(|e| UsageError(format!("Could not parse {}: {e}", path.display())))
}

/// Adds (or replaces in place) `[mcp.servers.NAME]`. Comments at the end of the file stay above a new
/// table rather than below it: a starter file's MCP comments end it.
fn insert_server(
    document: &mut DocumentMut,
    name: &str,
    mut server: Table,
) -> Result<(), UsageError> {
    let trailing = document.trailing().as_str().unwrap_or_default().to_string();
    let replacing = servers_table(document)?.contains_key(name);
    if !replacing && trailing.contains('#') {
        document.set_trailing("");
        let gap = if trailing.ends_with("\n\n") { "" } else { "\n" };
        server.decor_mut().set_prefix(format!("{trailing}{gap}"));
    }
    servers_table(document)?.insert(name, Item::Table(server));
    Ok(())
}

/// `[mcp.servers]`, made when absent; implicit, so that only `[mcp.servers.NAME]` headers show.
fn servers_table(document: &mut DocumentMut) -> Result<&mut Table, UsageError> {
    let mut parent = document.as_table_mut();
    for (key, dotted) in [("mcp", "mcp"), ("servers", "mcp.servers")] {
        let item = parent.entry(key).or_insert_with(|| {
            let mut table = Table::new();
            table.set_implicit(true);
            Item::Table(table)
        });
        parent = item
            .as_table_mut()
            .ok_or_else(|| UsageError(format!("Config key '{dotted}' must be a TOML table")))?;
    }
    Ok(parent)
}

/// Replaces `path` with `text` in one rename: a reader never sees half
/// a config, and a failed write leaves the old one.
///
/// toolplane's own edit of a trusted config (or of one that needed no trust) keeps it trusted.
pub(super) fn write_atomic(path: &Path, text: &str) -> Result<(), UsageError> {
    let keep_trust = super::trust::trusted_or_harmless(path);
    write_file(path, text)?;
    if keep_trust && let Err(UsageError(why)) = super::trust::record(path) {
        eprintln!(
            "toolplane: warning: {} stays untrusted: {why}",
            path.display()
        );
    }
    Ok(())
}

fn write_file(path: &Path, text: &str) -> Result<(), UsageError> {
    let cannot = |e: std::io::Error| UsageError(format!("cannot write {}: {e}", path.display()));
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut file = tempfile::Builder::new()
        .prefix(&format!(
            ".{}.",
            path.file_name().unwrap_or_default().to_string_lossy()
        ))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(cannot)?;
    std::io::Write::write_all(&mut file, text.as_bytes()).map_err(cannot)?;
    // A new file stays private (0600, as the original's); an existing one keeps its mode.
    if let Ok(meta) = std::fs::metadata(path) {
        file.as_file()
            .set_permissions(meta.permissions())
            .map_err(cannot)?;
    }
    file.persist(path).map_err(|e| cannot(e.error))?;
    Ok(())
}
