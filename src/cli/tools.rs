//! `toolplane cli allow|deny|list`: the `[cli]` policy of a config, edited in place (comments kept) as
//! the original edits it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use toml_edit::{Array, DocumentMut, Item, Table, value};

use super::UsageError;
use super::mcp::{ConfigEdit, read_document, write_atomic};

#[derive(Subcommand, Debug)]
pub(super) enum CliCommand {
    /// Allow CLI binaries by switching the config to allowlist mode.
    Allow {
        /// CLI binary name(s) to add to the allowlist.
        #[arg(required = true)]
        binaries: Vec<String>,
        /// Path to a toolplane TOML config file.
        #[arg(long, default_value = "toolplane.toml")]
        config: PathBuf,
    },
    /// Remove CLI binaries from the allowlist.
    Deny {
        /// CLI binary name(s) to remove from the allowlist.
        #[arg(required = true)]
        binaries: Vec<String>,
        /// Path to a toolplane TOML config file.
        #[arg(long, default_value = "toolplane.toml")]
        config: PathBuf,
    },
    /// Show the CLI policy mode and allowlist, and where each allowed binary is found on PATH.
    List {
        /// Path to a toolplane TOML config file.
        #[arg(long, default_value = "toolplane.toml")]
        config: PathBuf,
    },
}

pub(super) fn main(command: CliCommand) -> Result<ExitCode, UsageError> {
    match command {
        CliCommand::Allow { binaries, config } => allow(&config, &binaries),
        CliCommand::Deny { binaries, config } => deny(&config, &binaries),
        CliCommand::List { config } => list(&config),
    }
}

/// `[cli]`'s `allow` as strings (absent: empty).
fn allowed(cli: &Table) -> Result<Vec<String>, UsageError> {
    let not_strings = || UsageError("Config key 'cli.allow' must be an array of strings".into());
    match cli.get("allow") {
        None => Ok(Vec::new()),
        Some(item) => item
            .as_array()
            .ok_or_else(not_strings)?
            .iter()
            .map(|v| v.as_str().map(str::to_string).ok_or_else(not_strings))
            .collect(),
    }
}

fn cli_table(document: &mut DocumentMut) -> Result<&mut Table, UsageError> {
    document
        .entry("cli")
        .or_insert_with(|| Item::Table(Table::new()))
        .as_table_mut()
        .ok_or_else(|| UsageError("Config key 'cli' must be a TOML table".into()))
}

/// Writes `document` to the edited file, after checking it as the loader will.
fn write_checked(edit: &ConfigEdit, document: &DocumentMut) -> Result<(), UsageError> {
    let text = document.to_string();
    crate::config::Config::from_toml_str(&text)?;
    write_atomic(edit.path(), &text)
}

fn allow(config: &Path, binaries: &[String]) -> Result<ExitCode, UsageError> {
    for binary in binaries {
        if !crate::config::is_plain_name(binary) {
            return Err(UsageError(format!(
                "Invalid CLI binary name: {binary:?} (a name found on PATH: no '/', spaces or shell syntax)"
            )));
        }
    }
    let edit = ConfigEdit::begin(config)?;
    let mut document = read_document(edit.path())?;
    let cli = cli_table(&mut document)?;
    let mut merged = allowed(cli)?;
    for binary in binaries {
        if !merged.contains(binary) {
            merged.push(binary.clone());
        }
    }
    cli.insert("mode", value("allowlist"));
    cli.insert("allow", value(merged.iter().collect::<Array>()));
    write_checked(&edit, &document)?;
    println!(
        "Allowed CLI binaries in {}: {} (mode=allowlist)",
        config.display(),
        merged.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}

fn deny(config: &Path, binaries: &[String]) -> Result<ExitCode, UsageError> {
    let edit = ConfigEdit::begin(config)?;
    let mut document = read_document(edit.path())?;
    let cli = cli_table(&mut document)?;
    let current = allowed(cli)?;
    let unknown: Vec<&str> = binaries
        .iter()
        .filter(|b| !current.contains(b))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        let shown = if current.is_empty() {
            "(empty)".to_string()
        } else {
            current.join(", ")
        };
        let mut message = format!(
            "not in the allowlist: {}; currently allowed: {shown}",
            unknown.join(", ")
        );
        let mode = cli.get("mode").and_then(Item::as_str).unwrap_or("disabled");
        if mode != "allowlist" {
            message.push_str(&format!(
                "; note: cli mode is '{mode}' and deny only applies in allowlist mode \u{2014} set one \
                 with: toolplane cli allow <binary>"
            ));
        }
        return Err(UsageError(message));
    }
    let remaining: Vec<String> = current
        .into_iter()
        .filter(|b| !binaries.contains(b))
        .collect();
    if remaining.is_empty() {
        cli.insert("mode", value("disabled"));
        cli.remove("allow");
    } else {
        cli.insert("allow", value(remaining.iter().collect::<Array>()));
    }
    write_checked(&edit, &document)?;
    let mut removed: Vec<&str> = Vec::new();
    for binary in binaries {
        if !removed.contains(&binary.as_str()) {
            removed.push(binary);
        }
    }
    if remaining.is_empty() {
        println!(
            "Denied {} in {}; the allowlist is now empty, so cli mode is set to disabled \u{2014} \
             re-enable with: toolplane cli allow <binary>",
            removed.join(", "),
            config.display()
        );
    } else {
        println!(
            "Denied {} in {}; still allowed: {}",
            removed.join(", "),
            config.display(),
            remaining.join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn list(config: &Path) -> Result<ExitCode, UsageError> {
    let config = crate::config::Config::load(config)?;
    if config.cli.mode != "allowlist" {
        println!("cli: {}", config.cli.mode);
        return Ok(ExitCode::SUCCESS);
    }
    println!("cli: allowlist [{}]", config.cli.allow.join(", "));
    let path = std::env::var_os("PATH");
    for binary in &config.cli.allow {
        match crate::commands::find_on_path(binary, path.as_deref()) {
            Some(found) => println!("  {binary}: {}", found.display()),
            None => println!("  {binary}: not found on PATH"),
        }
    }
    Ok(ExitCode::SUCCESS)
}
