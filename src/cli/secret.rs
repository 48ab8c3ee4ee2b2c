//! `toolplane secret set|rm|list`: secrets in the OS keyring, referenced from the config as
//! `keyring://NAME` (the original's commands and texts). A value never comes from argv (process lists
//! show it): from stdin, or a hidden prompt on a terminal; it is never printed.

use std::io::{IsTerminal as _, Read as _};
use std::process::ExitCode;

use clap::Subcommand;

use super::UsageError;
use crate::secrets::{Keyring, check_name, names, record_name};

#[derive(Subcommand, Debug)]
pub(super) enum SecretCommand {
    /// Store a secret (value read from stdin or an interactive prompt).
    Set {
        /// Secret name.
        name: String,
    },
    /// Delete a stored secret.
    Rm {
        /// Secret name.
        name: String,
    },
    /// List stored secret names (never values).
    List,
}

pub(super) fn main(command: SecretCommand) -> Result<ExitCode, UsageError> {
    match command {
        SecretCommand::Set { name } => set(&name),
        SecretCommand::Rm { name } => rm(&name),
        SecretCommand::List => {
            let names = names();
            if names.is_empty() {
                println!("No secrets stored. Add one with: toolplane secret set <name>");
            }
            for name in names {
                println!("{name}");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn keyring(doing: &str) -> Result<Keyring, UsageError> {
    Keyring::open().map_err(|why| {
        UsageError(format!(
            "no OS keyring is available ({why}); configure a keyring backend before {doing}"
        ))
    })
}

fn set(name: &str) -> Result<ExitCode, UsageError> {
    check_name(name).map_err(UsageError)?;
    let value = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("Value for secret '{name}': "))
            .map_err(|e| UsageError(format!("cannot read the value: {e}")))?
    } else {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| UsageError(format!("cannot read the value from stdin: {e}")))?;
        // Surrounding whitespace goes (a CRLF pipe's \r corrupted a credential); inner newlines stay,
        // for multi-line secrets such as PEM keys.
        text.trim().to_string()
    };
    if value.trim().is_empty() {
        return Err(UsageError("refusing to store an empty secret".into()));
    }
    keyring("storing secrets")?.set(name, &value).map_err(|why| {
        UsageError(format!(
            "the OS keyring backend refused the write ({why}); configure a keyring backend before \
             storing secrets"
        ))
    })?;
    if let Err(e) = record_name(name, true) {
        eprintln!("toolplane: stored, but ~/.toolplane/secret-names could not be updated: {e}");
    }
    println!(
        "Stored secret '{name}' in the OS keyring; reference it in toolplane.toml as keyring://{name}"
    );
    Ok(ExitCode::SUCCESS)
}

fn rm(name: &str) -> Result<ExitCode, UsageError> {
    check_name(name).map_err(UsageError)?;
    let deleted = keyring("deleting secrets")?
        .delete(name)
        .map_err(|why| UsageError(format!("the OS keyring backend failed ({why})")))?;
    if let Err(e) = record_name(name, false) {
        eprintln!("toolplane: ~/.toolplane/secret-names could not be updated: {e}");
    }
    if !deleted {
        return Err(UsageError(format!("no such secret: {name}")));
    }
    println!("Deleted secret '{name}'");
    Ok(ExitCode::SUCCESS)
}
