//! `toolplane mcp import`: MCP servers from other clients' configs (Claude Desktop, Claude Code,
//! Cursor, Codex, or a file) into `[mcp.servers.*]`. The sources are only read, and are untrusted: a
//! checked-in `.mcp.json` may be hostile.
//!
//! - What looks like a secret is never copied as a literal (unless `--plaintext`): it becomes
//!   `env://VAR` for a host variable that already holds exactly that value, or else it moves into the
//!   OS keyring as `keyring://<SERVER>-<KEY>` (stored with `--yes`; a name holding another value is
//!   never overwritten), or, with `--env-placeholders` or no keyring, a placeholder
//!   `env://TOOLPLANE_IMPORT_<SERVER>_<KEY>` for the user to set.
//! - The source never chooses which host variable a server gets: a variable it names
//!   (`bearer_token_env_var`, `env_http_headers`) becomes a placeholder too, and a value that already is
//!   a secret reference (`env://`, `keyring://`, however spaced or cased) is refused.
//! - What will run is shown in full (command, args, cwd, env), and a server whose `env` sets a
//!   variable that loads code into it (`LD_PRELOAD`, `NODE_OPTIONS`, `PATH`, ...) is refused unless
//!   `--allow-loader-env`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Map, Value};
use toml_edit::{InlineTable, Table, value};

use super::{
    ConfigEdit, DEFAULT_CONFIG, UsageError, check_server, insert_server, read_document,
    servers_table, write_atomic,
};
use crate::cli::printable;
use crate::mcp_client::redact_urls;

#[derive(clap::Args, Debug)]
pub(crate) struct ImportArgs {
    /// Where to import from: claude (Claude Code: ~/.claude.json and ./.mcp.json), claude-desktop,
    /// cursor (~/.cursor/mcp.json and ./.cursor/mcp.json), codex (~/.codex/config.toml), or the path
    /// of a JSON file with "mcpServers" (or a Codex TOML). Default: every client config found.
    #[arg(long = "from", value_name = "SOURCE")]
    source: Option<String>,
    /// Path to a toolplane TOML config file.
    #[arg(long, default_value = DEFAULT_CONFIG)]
    config: PathBuf,
    /// Write the servers shown (without it, nothing is written).
    #[arg(long, conflicts_with = "dry_run")]
    yes: bool,
    /// Show what would be imported without writing (the default).
    #[arg(long)]
    dry_run: bool,
    /// Replace servers already configured under the same name.
    #[arg(long)]
    force: bool,
    /// Copy values that look like secrets as they are, instead of as env:// or keyring:// references.
    #[arg(long)]
    plaintext: bool,
    /// Write a secret no host variable holds as an env:// placeholder to set, instead of moving it
    /// into the OS keyring.
    #[arg(long, conflicts_with = "plaintext")]
    env_placeholders: bool,
    /// Import servers whose env sets variables that load code into them (LD_PRELOAD, NODE_OPTIONS,
    /// PATH, ...): only for a source you trust.
    #[arg(long)]
    allow_loader_env: bool,
}

// The prefix of the placeholder variables an import writes: a connection that finds one unset says
// that it is a placeholder to fill in.
use crate::mcp_client::IMPORT_PLACEHOLDER_PREFIX as PLACEHOLDER_PREFIX;

/// Environment variables that make a program load or run other code than its own: a config that sets
/// them for a server's command chooses what runs.
const LOADER_VARIABLES: &[&str] = &[
    "PATH",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PYTHONPATH",
    "PYTHONSTARTUP",
    "PYTHONHOME",
    "PYTHONINSPECT",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "BASH_ENV",
    "ENV",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "CLASSPATH",
    "GIT_SSH_COMMAND",
    "GIT_EXEC_PATH",
    "GCONV_PATH",
    "HOSTALIASES",
];

/// Whether setting `name` for a command chooses code it runs (also every `LD_*` and `DYLD_*`).
fn loads_code(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.starts_with("LD_")
        || upper.starts_with("DYLD_")
        || LOADER_VARIABLES.contains(&upper.as_str())
}

/// One server entry found in a client's config.
struct Found {
    name: String,
    /// Which file (and scope) it came from.
    source: String,
    entry: Map<String, Value>,
    /// Why it is skipped even so (disabled in its client).
    disabled: Option<String>,
}

/// One server ready to be written, and what the user must know about it.
/// Where the secrets an import finds go: the OS keyring, unless it is off or missing.
struct Secrets {
    keyring: Result<crate::secrets::Keyring, String>,
    /// Names taken by this import (two servers can make the same one).
    used: std::collections::BTreeSet<String>,
    /// What `--yes` stores: (name, value).
    to_store: Vec<(String, String)>,
}

impl Secrets {
    fn new(env_placeholders: bool) -> Self {
        Self {
            keyring: if env_placeholders {
                Err("--env-placeholders".into())
            } else {
                crate::secrets::Keyring::open()
            },
            used: Default::default(),
            to_store: Vec::new(),
        }
    }

    /// The keyring name for `server`'s `key` holding `value`, and whether it must be stored: a name
    /// that already holds this value is reused, one that holds another is passed over (`-2`, `-3`…).
    fn name_for(&mut self, server: &str, key: &str, value: &str) -> Result<(String, bool), String> {
        let keyring = self.keyring.as_ref().map_err(Clone::clone)?;
        let slug: String = key
            .to_lowercase()
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let slug = slug.trim_matches(|c| c == '-' || c == '.');
        let base = if slug.is_empty() {
            server.to_string()
        } else {
            format!("{server}-{slug}")
        };
        let mut candidate = base.clone();
        for counter in 2.. {
            if !self.used.contains(&candidate) {
                match keyring.get(&candidate)? {
                    Some(existing) if existing == value => {
                        self.used.insert(candidate.clone());
                        return Ok((candidate, false));
                    }
                    None => {
                        self.used.insert(candidate.clone());
                        self.to_store.push((candidate.clone(), value.to_string()));
                        return Ok((candidate, true));
                    }
                    Some(_) => {}
                }
            }
            candidate = format!("{base}-{counter}");
        }
        unreachable!("the counter is unbounded")
    }

    /// Stores what the import moved into the keyring (before the config that references it is
    /// written: a config must not name a secret that is not there).
    fn store(&self) -> Result<(), UsageError> {
        let Ok(keyring) = &self.keyring else {
            return Ok(());
        };
        for (name, value) in &self.to_store {
            keyring.set(name, value).map_err(|why| {
                UsageError(format!(
                    "the OS keyring backend refused to store '{name}' ({why}); nothing was \
                     written (try --env-placeholders)"
                ))
            })?;
            let _ = crate::secrets::record_name(name, true);
        }
        Ok(())
    }
}

struct Planned {
    name: String,
    source: String,
    table: Table,
    summary: String,
    notes: Vec<String>,
    next_steps: Vec<String>,
}

pub(crate) fn main(args: ImportArgs) -> Result<ExitCode, UsageError> {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .ok_or_else(|| UsageError("HOME is not set: cannot find client configs".into()))?;
    let project = std::env::current_dir()
        .map_err(|e| UsageError(format!("cannot read the current directory: {e}")))?;
    let label = args.source.as_deref().unwrap_or("any known client");
    let found = match args.source.as_deref() {
        Some(source) => discover(source, &home, &project)?,
        None => {
            let mut all = Vec::new();
            for source in ["claude-desktop", "claude", "cursor", "codex"] {
                // A client that is not installed has no config: not an error when none was named.
                if let Ok(found) = discover(source, &home, &project) {
                    all.extend(found);
                }
            }
            all
        }
    };
    let write = args.yes;
    let edit = ConfigEdit::begin(&args.config)?;
    let mut document = read_document(edit.path())?;
    let mut imported: Vec<Planned> = Vec::new();
    let mut skipped: Vec<(String, String, String)> = Vec::new();
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut secrets = Secrets::new(args.env_placeholders || args.plaintext);
    for raw in found {
        let Some(name) = sanitize_name(&raw.name) else {
            skipped.push((
                printable(&raw.name),
                raw.source,
                "name has no usable characters".into(),
            ));
            continue;
        };
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == name) {
            let reason = format!("shadowed by the same name from {first}");
            skipped.push((name, raw.source, reason));
            continue;
        }
        seen.push((name.clone(), raw.source.clone()));
        if let Some(reason) = raw.disabled {
            skipped.push((name, raw.source, reason));
            continue;
        }
        if servers_table(&mut document)?.contains_key(&name) && !args.force {
            let reason = "already configured (--force to replace)".to_string();
            skipped.push((name, raw.source, reason));
            continue;
        }
        match convert(
            &name,
            &raw,
            args.plaintext,
            args.allow_loader_env,
            &mut secrets,
        ) {
            Ok(mut planned) => {
                if name != raw.name {
                    planned.notes.push(format!(
                        "renamed from '{}' (invalid characters)",
                        printable(&raw.name)
                    ));
                }
                insert_server(&mut document, &name, planned.table.clone())?;
                imported.push(planned);
            }
            Err(reason) => skipped.push((name, raw.source, reason)),
        }
    }
    if imported.is_empty() && skipped.is_empty() {
        println!("No MCP servers found to import from {label}.");
        return Ok(ExitCode::SUCCESS);
    }
    if write && !imported.is_empty() {
        secrets.store()?;
        write_atomic(edit.path(), &document.to_string())?;
    }
    print!("{}", report(&imported, &skipped, write, &args));
    Ok(ExitCode::SUCCESS)
}

fn report(
    imported: &[Planned],
    skipped: &[(String, String, String)],
    written: bool,
    args: &ImportArgs,
) -> String {
    let config = &args.config;
    let mut lines = Vec::new();
    let verb = if written { "imported" } else { "would import" };
    for planned in imported {
        lines.push(format!(
            "{verb} {} ({}) -> {}",
            planned.name, planned.source, planned.summary
        ));
        // Everything that will be written, and so run: not only the command's name.
        lines.extend(
            planned
                .table
                .to_string()
                .lines()
                .filter(|line| !line.trim().is_empty())
                .map(|line| format!("    {}", printable(&redact_urls(line)))),
        );
        lines.extend(planned.notes.iter().map(|note| format!("  note: {note}")));
    }
    for (name, source, reason) in skipped {
        lines.push(format!("skipped {name} ({source}): {reason}"));
    }
    let steps: Vec<&String> = imported.iter().flat_map(|p| &p.next_steps).collect();
    if !steps.is_empty() {
        lines.push("next steps:".into());
        lines.extend(steps.iter().map(|step| format!("  {step}")));
    }
    let notes: usize = imported.iter().map(|p| p.notes.len()).sum();
    lines.push(format!(
        "summary: {}imported {}, skipped {}, notes {notes}",
        if written { "" } else { "(dry-run) " },
        imported.len(),
        skipped.len()
    ));
    if written && !imported.is_empty() {
        lines.push(format!("wrote {}", config.display()));
    } else if !imported.is_empty() {
        let mut again = String::from("toolplane mcp import");
        if let Some(source) = &args.source {
            again.push_str(&format!(" --from {source}"));
        }
        if config != Path::new(DEFAULT_CONFIG) {
            again.push_str(&format!(" --config {}", config.display()));
        }
        for (flag, on) in [
            (" --force", args.force),
            (" --plaintext", args.plaintext),
            (" --env-placeholders", args.env_placeholders),
            (" --allow-loader-env", args.allow_loader_env),
        ] {
            if on {
                again.push_str(flag);
            }
        }
        lines.push(format!("nothing written; to write it: {again} --yes"));
    }
    lines.join("\n") + "\n"
}

/// The servers of one source, most specific scope first (the first of a name wins).
fn discover(source: &str, home: &Path, project: &Path) -> Result<Vec<Found>, UsageError> {
    match source {
        "claude" => claude_code(home, project),
        "claude-desktop" => {
            let path = claude_desktop_path(home);
            require_one("Claude Desktop", &[&path])?;
            let label = format!("claude desktop ({})", path.display());
            Ok(servers_of(read_json(&path)?.get("mcpServers"), &label))
        }
        "cursor" => {
            let user = home.join(".cursor/mcp.json");
            let local = project.join(".cursor/mcp.json");
            require_one("Cursor", &[&user, &local])?;
            let mut found = Vec::new();
            for (path, scope) in [(&local, "project"), (&user, "user")] {
                if path.exists() {
                    let label = format!("cursor {scope} ({})", path.display());
                    found.extend(servers_of(read_json(path)?.get("mcpServers"), &label));
                }
            }
            Ok(found)
        }
        "codex" => {
            let path = home.join(".codex/config.toml");
            require_one("Codex", &[&path])?;
            codex(&path)
        }
        file => {
            let path = Path::new(file);
            if !path.is_file() {
                return Err(UsageError(format!(
                    "Unknown import source: '{file}' (claude, claude-desktop, cursor, codex, or the path of a config file)"
                )));
            }
            if path.extension().is_some_and(|e| e == "toml") {
                return codex(path);
            }
            let data = read_json(path)?;
            // VS Code's mcp.json calls them "servers".
            let servers = data.get("mcpServers").or_else(|| data.get("servers"));
            Ok(servers_of(servers, &path.display().to_string()))
        }
    }
}

/// An error naming where `client`'s config was looked for, when none of `paths` exists.
fn require_one(client: &str, paths: &[&Path]) -> Result<(), UsageError> {
    if paths.iter().any(|p| p.exists()) {
        return Ok(());
    }
    let looked: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    Err(UsageError(format!(
        "no {client} config found (looked for {})",
        looked.join(" and ")
    )))
}

fn claude_desktop_path(home: &Path) -> PathBuf {
    if cfg!(target_os = "macos") {
        home.join("Library/Application Support/Claude/claude_desktop_config.json")
    } else {
        std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .unwrap_or_else(|| home.join(".config"))
            .join("Claude/claude_desktop_config.json")
    }
}

/// Claude Code: this project's scope in `~/.claude.json`, then `./.mcp.json` (less the servers the
/// project disabled), then the user scope.
fn claude_code(home: &Path, project: &Path) -> Result<Vec<Found>, UsageError> {
    let claude_json = home.join(".claude.json");
    let mcp_json = project.join(".mcp.json");
    require_one("Claude Code", &[&claude_json, &mcp_json])?;
    let mut found = Vec::new();
    let mut data = Map::new();
    let mut disabled: Vec<String> = Vec::new();
    if claude_json.exists() {
        data = read_json(&claude_json)?;
        let target = project.canonicalize().unwrap_or_else(|_| project.into());
        let entry = data
            .get("projects")
            .and_then(Value::as_object)
            .and_then(|projects| {
                projects.iter().find_map(|(key, entry)| {
                    (Path::new(key).canonicalize().ok()? == target).then_some(entry)
                })
            });
        if let Some(entry) = entry {
            let label = format!("claude project scope ({})", claude_json.display());
            found.extend(servers_of(entry.get("mcpServers"), &label));
            disabled = entry
                .get("disabledMcpjsonServers")
                .and_then(Value::as_array)
                .map(|names| {
                    names
                        .iter()
                        .filter_map(|n| n.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
        }
    }
    if mcp_json.exists() {
        let label = format!("claude project file ({})", mcp_json.display());
        for mut raw in servers_of(read_json(&mcp_json)?.get("mcpServers"), &label) {
            if disabled.contains(&raw.name) {
                raw.disabled = Some("disabled in Claude Code for this project".into());
            }
            found.push(raw);
        }
    }
    let label = format!("claude user scope ({})", claude_json.display());
    found.extend(servers_of(data.get("mcpServers"), &label));
    Ok(found)
}

fn codex(path: &Path) -> Result<Vec<Found>, UsageError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| UsageError(format!("could not read {}: {e}", path.display())))?;
    let data: toml::Table = text
        .parse()
        .map_err(|e| UsageError(format!("could not read {}: {e}", path.display())))?;
    let servers = data
        .get("mcp_servers")
        .map(|v| serde_json::to_value(v).unwrap_or_default());
    let mut found = servers_of(servers.as_ref(), &format!("codex ({})", path.display()));
    for raw in &mut found {
        if raw.entry.get("enabled") == Some(&Value::Bool(false)) {
            raw.disabled = Some("disabled in Codex config".into());
        }
    }
    Ok(found)
}

fn read_json(path: &Path) -> Result<Map<String, Value>, UsageError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| UsageError(format!("could not read {}: {e}", path.display())))?;
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(UsageError(format!(
            "{} is not a JSON object",
            path.display()
        ))),
        Err(e) => Err(UsageError(format!(
            "could not read {}: {e}",
            path.display()
        ))),
    }
}

fn servers_of(servers: Option<&Value>, source: &str) -> Vec<Found> {
    let Some(servers) = servers.and_then(Value::as_object) else {
        return Vec::new();
    };
    servers
        .iter()
        .filter_map(|(name, entry)| {
            let entry = entry.as_object()?.clone();
            let disabled = (entry.get("disabled") == Some(&Value::Bool(true)))
                .then(|| "disabled in its client".to_string());
            Some(Found {
                name: name.clone(),
                source: source.to_string(),
                entry,
                disabled,
            })
        })
        .collect()
}

/// Keys the clients write that have a meaning here, or none worth a note.
const KNOWN_KEYS: &[&str] = &[
    "type",
    "transport",
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "http_headers",
    "env_http_headers",
    "bearer_token",
    "bearer_token_env_var",
    "enabled",
    "disabled",
];

fn convert(
    name: &str,
    raw: &Found,
    plaintext: bool,
    allow_loader_env: bool,
    secrets: &mut Secrets,
) -> Result<Planned, String> {
    refuse_references(&raw.entry, "")?;
    let entry = &raw.entry;
    let mut planned = Planned {
        name: name.to_string(),
        source: raw.source.clone(),
        table: Table::new(),
        summary: String::new(),
        notes: Vec::new(),
        next_steps: Vec::new(),
    };
    for key in entry.keys() {
        if !KNOWN_KEYS.contains(&key.as_str()) {
            planned.notes.push(format!(
                "dropped '{}' (no toolplane equivalent)",
                printable(key)
            ));
        }
    }
    let text = |key: &str| entry.get(key).and_then(Value::as_str).map(str::trim);
    let table = &mut planned.table;
    if let Some(url) = text("url").filter(|u| !u.is_empty()) {
        let transport = text("type").or(text("transport"));
        if matches!(transport, Some("sse")) {
            return Err(
                "its transport is SSE, which toolplane cannot connect to (streamable HTTP only)"
                    .into(),
            );
        }
        table["url"] = value(url);
        let mut headers = Map::new();
        for key in ["headers", "http_headers"] {
            if let Some(map) = entry.get(key).and_then(Value::as_object) {
                headers.extend(map.clone());
            }
        }
        // Codex: header name -> the name of the variable that holds its value. The source does not
        // choose which of the user's variables a server gets: each is a placeholder.
        let mut placed = Vec::new();
        if let Some(map) = entry.get("env_http_headers").and_then(Value::as_object) {
            for (header, var) in map {
                if let Some(var) = var.as_str().map(str::trim).filter(|v| !v.is_empty()) {
                    headers.remove(header);
                    let shown = printable(header);
                    placed.push((header.clone(), placeholder(name, header, &mut planned)));
                    let note = named_variable_note(&shown, var, &format!("headers.{shown}"));
                    planned.notes.push(note);
                }
            }
        }
        if let Some(var) = text("bearer_token_env_var").filter(|v| !v.is_empty()) {
            let reference = placeholder(name, "auth", &mut planned);
            planned.table["auth"] = value(reference);
            planned
                .notes
                .push(named_variable_note("bearer_token_env_var", var, "auth"));
        } else if let Some(token) = text("bearer_token").filter(|t| !t.is_empty()) {
            let token = Map::from_iter([("auth".to_string(), Value::String(token.into()))]);
            let inline = referenced(name, &token, true, plaintext, &mut planned, secrets)?;
            if let Some(auth) = inline.get("auth") {
                planned.table["auth"] = value(auth.clone());
            }
        }
        if !headers.is_empty() || !placed.is_empty() {
            // Every header of a remote server is taken for a credential: names do not tell.
            let mut inline = referenced(name, &headers, true, plaintext, &mut planned, secrets)?;
            for (header, reference) in placed {
                inline.insert(&header, reference.into());
            }
            planned.table["headers"] = value(inline);
        }
        planned.summary = format!("url={}", printable(&redact_urls(url)));
    } else if let Some(command) = text("command").filter(|c| !c.is_empty()) {
        table["command"] = value(command);
        let args: Vec<String> = match entry.get("args") {
            Some(Value::Array(items)) => items
                .iter()
                .map(|a| match a {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect(),
            Some(Value::String(one)) => vec![one.clone()],
            _ => Vec::new(),
        };
        if !args.is_empty() {
            table["args"] = value(args.iter().collect::<toml_edit::Array>());
        }
        if let Some(cwd) = text("cwd").filter(|c| !c.is_empty()) {
            table["cwd"] = value(cwd);
        }
        if let Some(env) = entry.get("env").and_then(Value::as_object) {
            let loaders: Vec<String> = env
                .keys()
                .filter(|key| loads_code(key))
                .map(|key| printable(key))
                .collect();
            if !loaders.is_empty() && !allow_loader_env {
                return Err(format!(
                    "its env sets {}, which make the command load code other than its own; \
                     import it with --allow-loader-env only if you trust the source",
                    loaders.join(", ")
                ));
            }
            let mut cleaned = Map::new();
            for (key, val) in env {
                match val {
                    Value::Null => planned
                        .notes
                        .push(format!("dropped env '{}' (null value)", printable(key))),
                    Value::String(_) => {
                        cleaned.insert(key.clone(), val.clone());
                    }
                    other => {
                        cleaned.insert(key.clone(), Value::String(other.to_string()));
                    }
                }
            }
            if !cleaned.is_empty() {
                let inline = referenced(name, &cleaned, false, plaintext, &mut planned, secrets)?;
                planned.table["env"] = value(inline);
            }
        }
        planned.summary = format!("command={}", printable(command));
    } else {
        return Err("entry has neither a command nor a url".into());
    }
    check_server(name, &planned.table).map_err(|UsageError(why)| why)?;
    Ok(planned)
}

/// Fails closed on a source value that already is a secret reference (see the module doc).
fn refuse_references(entry: &Map<String, Value>, at: &str) -> Result<(), String> {
    for (key, val) in entry {
        let location = if at.is_empty() {
            key.clone()
        } else {
            format!("{at}.{key}")
        };
        match val {
            Value::Object(inner) => refuse_references(inner, &location)?,
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let one = Map::from_iter([(i.to_string(), item.clone())]);
                    refuse_references(&one, &location)?;
                }
            }
            Value::String(s) if is_reference(s) => {
                let scheme = s.trim().split("://").next().unwrap_or_default();
                let scheme = scheme.to_ascii_lowercase();
                return Err(format!(
                    "refusing to import: {} already contains a toolplane secret reference \
                     ({scheme}://...); client configs never legitimately hold these — add the \
                     entry to toolplane.toml yourself if it is intentional",
                    printable(&location)
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether `text` is (or, once trimmed, would be taken for) a secret reference.
fn is_reference(text: &str) -> bool {
    let text = text.trim_start().to_ascii_lowercase();
    text.starts_with("env://") || text.starts_with("keyring://")
}

/// Writes the placeholder `env://TOOLPLANE_IMPORT_<SERVER>_<KEY>` for `key`, and the step that fills it.
fn placeholder(server: &str, key: &str, planned: &mut Planned) -> String {
    let var = format!("{PLACEHOLDER_PREFIX}{}", variable_name(server, key));
    planned.next_steps.push(format!(
        "export {var}=...  # the value of {} for {}",
        printable(key),
        printable(server)
    ));
    format!("env://{var}")
}

/// Why a variable the source named was not used.
fn named_variable_note(what: &str, var: &str, key: &str) -> String {
    let var = printable(var);
    format!(
        "{what}: the source names your variable {var}; wrote a placeholder instead (an imported \
         config does not choose which of your variables a server gets). To send {var}, set \
         {key} = \"env://{var}\" in toolplane.toml yourself"
    )
}

/// `values` as an inline table, each secret-looking one (every one, with `all_secret`) written as
/// `env://VAR` or `keyring://NAME` rather than copied.
fn referenced(
    server: &str,
    values: &Map<String, Value>,
    all_secret: bool,
    plaintext: bool,
    planned: &mut Planned,
    secrets: &mut Secrets,
) -> Result<InlineTable, String> {
    let mut table = InlineTable::new();
    for (key, val) in values {
        let text = val.as_str().unwrap_or_default();
        let secret = !plaintext && !text.is_empty() && (all_secret || looks_secret(key, text));
        if !secret {
            table.insert(key, text.into());
            continue;
        }
        let shown = printable(key);
        match host_variable_holding(key, text) {
            Some(var) => {
                table.insert(key, format!("env://{var}").into());
                planned.notes.push(format!(
                    "{shown}: wrote env://{var} instead of the literal value"
                ));
            }
            None => match secrets.name_for(server, key, text) {
                Ok((secret, true)) => {
                    table.insert(key, format!("keyring://{secret}").into());
                    planned.notes.push(format!(
                        "{shown}: moved to your OS keyring as '{secret}' (wrote keyring://{secret})"
                    ));
                }
                Ok((secret, false)) => {
                    table.insert(key, format!("keyring://{secret}").into());
                    planned.notes.push(format!(
                        "{shown}: reused existing keyring secret '{secret}' (same value already stored)"
                    ));
                }
                Err(why) => {
                    let reference = placeholder(server, key, planned);
                    planned.notes.push(format!(
                        "{shown}: wrote the placeholder {reference}; the literal value was not \
                         copied (no OS keyring: {why}): set it in the environment that runs toolplane"
                    ));
                    table.insert(key, reference.into());
                }
            },
        }
    }
    Ok(table)
}

/// As the original guesses: a key that names a credential, or a long token of letters and digits.
fn looks_secret(key: &str, text: &str) -> bool {
    let key = key.to_lowercase();
    let named = [
        "key",
        "token",
        "secret",
        "password",
        "credential",
        "auth",
        "cookie",
        "session",
        "bearer",
        "signature",
    ]
    .iter()
    .any(|hint| key.contains(hint));
    let token_like = text.len() >= 20
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.=+".contains(c))
        && text.chars().any(|c| c.is_ascii_alphabetic())
        && text.chars().any(|c| c.is_ascii_digit());
    named || token_like
}

/// The host variable that holds exactly `text`: `key` itself first, then any. Only the source's own
/// literal can match, so the server gets nothing the source did not already hold; short values (a
/// `1`, a `true`) are not matched.
fn host_variable_holding(key: &str, text: &str) -> Option<String> {
    if text.len() < 8 {
        return None;
    }
    if std::env::var(key).is_ok_and(|v| v == text) {
        return Some(key.to_string());
    }
    std::env::vars()
        .find(|(_, v)| v == text)
        .map(|(name, _)| name)
}

/// `SERVER_KEY`, upper case, other characters as `_`.
fn variable_name(server: &str, key: &str) -> String {
    format!("{server}_{key}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Runs of characters a server name cannot hold become `-`; `None` when nothing is left.
fn sanitize_name(name: &str) -> Option<String> {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_matches('-').to_string();
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sanitised_as_the_original() {
        assert_eq!(sanitize_name("my server!").as_deref(), Some("my-server"));
        assert_eq!(sanitize_name("@scope/pkg").as_deref(), Some("scope-pkg"));
        assert_eq!(sanitize_name("!!!"), None);
    }

    #[test]
    fn secrets_are_guessed_from_keys_and_values() {
        assert!(looks_secret("GITHUB_TOKEN", "x"));
        assert!(looks_secret("X", "sk1234567890abcdefghij"));
        assert!(!looks_secret("ROOT", "/home/user/projects/a-long-path-1"));
        assert!(!looks_secret("LOG_LEVEL", "debug"));
    }

    #[test]
    fn variable_names_are_upper_snake() {
        assert_eq!(variable_name("git-hub", "api.key"), "GIT_HUB_API_KEY");
    }
}
