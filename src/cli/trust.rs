//! Trust for the project config the CLI finds on its own (`./toolplane.toml`): a cloned repository's
//! file is someone else's input, and some of its settings start programs, send the user's environment
//! variables or write files (`[mcp.servers.*]`, `worker_path`, `audit.path`). As direnv treats `.envrc`
//! and editors treat workspace files, those settings are ignored (with a message saying how to use
//! them) until the user trusts that file's content: `toolplane trust` records its SHA-256 with its
//! path in the user's config directory, and a changed file needs trust again. A config named with
//! `--config` is the user's choice and is used as it is; toolplane's own edits of a trusted file
//! (`mcp add`, `remove`, `import --yes`) keep it trusted.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sha2::Digest as _;

use super::{UsageError, printable};
use crate::config::Config;

/// The file (in the user's config directory) that lists trusted configs, one `SHA256 PATH` per line.
const STORE_NAME: &str = "trusted-configs";

#[derive(clap::Args, Debug)]
pub(crate) struct TrustArgs {
    /// The config to trust (default: ./toolplane.toml).
    #[arg(default_value = "toolplane.toml", value_name = "CONFIG")]
    config: PathBuf,
    /// Withdraw the trust instead.
    #[arg(long)]
    remove: bool,
}

/// `toolplane trust [CONFIG] [--remove]`: shows what the file will start and records its content.
pub(crate) fn main(args: TrustArgs) -> Result<ExitCode, UsageError> {
    let path = &args.config;
    let (canonical, digest) = fingerprint(path)?;
    let mut entries = read_store()?;
    entries.retain(|(_, p)| *p != canonical);
    if args.remove {
        write_store(&entries)?;
        println!("{} is no longer trusted", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let config = Config::load(path)?;
    let settings = gated_settings(&config);
    entries.push((digest.clone(), canonical));
    write_store(&entries)?;
    println!(
        "trusted {} (sha256 {}): a change to it needs `toolplane trust` again",
        path.display(),
        &digest[..12]
    );
    if settings.is_empty() {
        println!("it starts no programs, sends no environment variables and writes no files");
    } else {
        println!("it may:");
        for line in settings {
            println!("  {line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Applies trust to a config the CLI found on its own: an untrusted one loses its gated settings, and
/// stderr says which and how to trust the file.
pub(super) fn gate(config: &mut Config, path: &Path) {
    if gated_settings(config).is_empty() || is_trusted(path) {
        return;
    }
    let mut ignored = Vec::new();
    if !config.mcp.servers.is_empty() {
        let names: Vec<&str> = config.mcp.servers.keys().map(String::as_str).collect();
        ignored.push(format!("[mcp.servers] ({})", names.join(", ")));
        config.mcp.servers.clear();
    }
    if config.toolplane.worker_path.take().is_some() {
        ignored.push("toolplane.worker_path".to_string());
    }
    if config.audit.path.take().is_some() {
        ignored.push("audit.path".to_string());
    }
    if config.cli.mode != "disabled" {
        ignored.push(format!("[cli] (mode = {:?})", config.cli.mode));
        config.cli = crate::config::CliConfig::default();
    }
    let _ = writeln!(
        std::io::stderr(),
        "toolplane: {} is not trusted, so its {} {} ignored: settings that start programs, send your \
         environment variables or write files. Review the file, then run `toolplane trust` to use \
         them (a changed file needs trust again), or name a config with --config.",
        printable(&path.display().to_string()),
        ignored.join(", "),
        if ignored.len() == 1 { "is" } else { "are" }
    );
}

/// Whether `path`'s current content was trusted.
pub(super) fn is_trusted(path: &Path) -> bool {
    let Ok((canonical, digest)) = fingerprint(path) else {
        return false;
    };
    read_store().is_ok_and(|entries| entries.contains(&(digest, canonical)))
}

/// Whether the config at `path` needs no trust (absent, or nothing gated) or has it: what an edit by
/// toolplane carries over to the file it writes.
pub(super) fn trusted_or_harmless(path: &Path) -> bool {
    if !path.exists() {
        return true;
    }
    match Config::load(path) {
        Ok(config) => gated_settings(&config).is_empty() || is_trusted(path),
        Err(_) => is_trusted(path),
    }
}

/// Records `path`'s current content as trusted (after toolplane's own edit of a trusted file).
pub(super) fn record(path: &Path) -> Result<(), UsageError> {
    let (canonical, digest) = fingerprint(path)?;
    let mut entries = read_store()?;
    entries.retain(|(_, p)| *p != canonical);
    entries.push((digest, canonical));
    write_store(&entries)
}

/// What a config does that needs trust, one line each.
fn gated_settings(config: &Config) -> Vec<String> {
    let mut lines = Vec::new();
    for (name, server) in &config.mcp.servers {
        let mut line = format!("start MCP server {name}: ");
        if let Some(command) = &server.command {
            line.push_str(command);
            for arg in &server.args {
                line.push(' ');
                line.push_str(arg);
            }
            if let Some(cwd) = &server.cwd {
                line.push_str(&format!(" (in {})", cwd.display()));
            }
            let env: Vec<String> = server.env.iter().map(|(k, v)| format!("{k}={v}")).collect();
            if !env.is_empty() {
                line.push_str(&format!(" with {}", env.join(" ")));
            }
        } else if let Some(url) = &server.url {
            line.push_str(&format!(
                "connect to {}",
                crate::mcp_client::redact_urls(url)
            ));
            let sent: Vec<String> = server
                .headers
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .chain(server.auth.iter().map(|auth| format!("auth={auth}")))
                .collect();
            if !sent.is_empty() {
                line.push_str(&format!(" sending {}", sent.join(" ")));
            }
        }
        lines.push(printable(&line));
    }
    if let Some(worker) = &config.toolplane.worker_path {
        lines.push(printable(&format!(
            "run {} as the sandbox worker (toolplane.worker_path)",
            worker.display()
        )));
    }
    if let Some(audit) = &config.audit.path {
        lines.push(printable(&format!(
            "append the audit log to {audit} (audit.path)"
        )));
    }
    match config.cli.mode.as_str() {
        "allowlist" => lines.push(printable(&format!(
            "let snippets run {} ([cli] allowlist)",
            config.cli.allow.join(", ")
        ))),
        "ambient" => lines.push("let snippets run any program on PATH ([cli] ambient)".to_string()),
        _ => {}
    }
    lines
}

/// The canonical path of `path` and the SHA-256 of its bytes.
fn fingerprint(path: &Path) -> Result<(PathBuf, String), UsageError> {
    let cannot = |e: std::io::Error| UsageError(format!("cannot read {}: {e}", path.display()));
    let canonical = path.canonicalize().map_err(cannot)?;
    if canonical.to_string_lossy().contains('\n') {
        return Err(UsageError(format!(
            "{}: a config whose path holds a line break cannot be trusted",
            printable(&canonical.display().to_string())
        )));
    }
    let bytes = std::fs::read(&canonical).map_err(cannot)?;
    let digest = sha2::Sha256::digest(&bytes);
    let hex = digest.iter().map(|b| format!("{b:02x}")).collect();
    Ok((canonical, hex))
}

/// `$XDG_CONFIG_HOME/toolplane/trusted-configs`, else `~/.config/toolplane/trusted-configs`.
fn store_path() -> Result<PathBuf, UsageError> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))
        .ok_or_else(|| {
            UsageError("HOME is not set: cannot find the trusted-configs list".into())
        })?;
    Ok(base.join("toolplane").join(STORE_NAME))
}

fn read_store() -> Result<Vec<(String, PathBuf)>, UsageError> {
    let path = store_path()?;
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(UsageError(format!("cannot read {}: {e}", path.display()))),
    };
    Ok(text
        .lines()
        .filter_map(|line| {
            let (digest, path) = line.split_once(' ')?;
            Some((digest.to_string(), PathBuf::from(path)))
        })
        .collect())
}

/// Rewrites the list in one rename, private to the user (0600 in a 0700 directory).
fn write_store(entries: &[(String, PathBuf)]) -> Result<(), UsageError> {
    let path = store_path()?;
    let cannot = |e: std::io::Error| UsageError(format!("cannot write {}: {e}", path.display()));
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(cannot)?;
    let mut file = tempfile::Builder::new()
        .prefix(".trusted-configs.")
        .tempfile_in(dir)
        .map_err(cannot)?;
    for (digest, trusted) in entries {
        writeln!(file, "{digest} {}", trusted.display()).map_err(cannot)?;
    }
    file.persist(&path).map_err(|e| cannot(e.error))?;
    Ok(())
}
