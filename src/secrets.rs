//! Secrets in the OS keyring: `keyring://NAME` in `[mcp.servers.*]` values, and `toolplane secret
//! set|rm|list`. Each is the entry (service `toolplane`, user NAME) of the platform's store, through
//! keyring-core and its maintained stores: the Secret Service over D-Bus when a session bus answers (a
//! desktop's GNOME Keyring or KWallet), macOS's Keychain, Windows' Credential Manager; on Linux without a
//! Secret Service (servers, containers, CI) the kernel's persistent keyring of the user (keyutils): in
//! memory only, kept while the user's processes use it and for a few days after
//! (`/proc/sys/kernel/keys/persistent_keyring_expiry`), gone at reboot.
//!
//! `TOOLPLANE_KEYRING=secret-service|kernel` chooses the backend instead. Values are never logged or
//! printed; `secret list` shows the names `toolplane secret set` recorded in `~/.toolplane/secret-names`
//! (the original's index: most stores cannot list their entries).

use std::path::PathBuf;
use std::sync::Arc;

/// The keyring service every entry is under (the original's).
pub(crate) const SERVICE: &str = "toolplane";

/// The environment variable that picks the backend.
pub(crate) const BACKEND_VARIABLE: &str = "TOOLPLANE_KEYRING";

/// The OS keyring, opened on one backend.
pub(crate) struct Keyring {
    backend: Backend,
}

enum Backend {
    /// A keyring-core store: the Secret Service, the Keychain, the Credential Manager.
    Store(Arc<keyring_core::CredentialStore>, &'static str),
    /// The kernel's persistent keyring of this user.
    #[cfg(target_os = "linux")]
    Kernel(linux_keyutils::KeyRing),
}

impl Keyring {
    /// The platform's keyring, or why there is none (the reasons of each backend tried).
    pub(crate) fn open() -> Result<Self, String> {
        let chosen = std::env::var(BACKEND_VARIABLE).ok();
        let mut reasons = Vec::new();
        if chosen
            .as_deref()
            .is_none_or(|c| c == "secret-service" || c == "native")
        {
            match platform_store() {
                Ok(backend) => return Ok(Self { backend }),
                Err(why) => reasons.push(why),
            }
        }
        #[cfg(target_os = "linux")]
        if chosen.as_deref().is_none_or(|c| c == "kernel") {
            match linux_keyutils::KeyRing::get_persistent(
                linux_keyutils::KeyRingIdentifier::Session,
            ) {
                Ok(ring) => {
                    return Ok(Self {
                        backend: Backend::Kernel(ring),
                    });
                }
                Err(e) => reasons.push(format!("the kernel keyring: {e:?}")),
            }
        }
        if let Some(chosen) = chosen
            && !matches!(chosen.as_str(), "secret-service" | "native" | "kernel")
        {
            reasons.push(format!(
                "{BACKEND_VARIABLE}={chosen} is not a backend (secret-service, kernel)"
            ));
        }
        Err(reasons.join("; "))
    }

    /// Which store the keyring is, for `toolplane doctor`.
    pub(crate) fn backend(&self) -> &'static str {
        match &self.backend {
            Backend::Store(_, name) => name,
            #[cfg(target_os = "linux")]
            Backend::Kernel(_) => {
                "Linux kernel keyring (the user's persistent keyring: in memory, until reboot)"
            }
        }
    }

    /// The secret stored under `name`, if any.
    pub(crate) fn get(&self, name: &str) -> Result<Option<String>, String> {
        match &self.backend {
            Backend::Store(store, _) => match entry(store, name)?.get_password() {
                Ok(value) => Ok(Some(value)),
                Err(keyring_core::Error::NoEntry) => Ok(None),
                Err(e) => Err(e.to_string()),
            },
            #[cfg(target_os = "linux")]
            Backend::Kernel(ring) => match ring.search(&kernel_description(name)) {
                Ok(key) => {
                    let bytes = key.read_to_vec().map_err(|e| format!("{e:?}"))?;
                    String::from_utf8(bytes)
                        .map(Some)
                        .map_err(|_| "the stored value is not UTF-8".to_string())
                }
                Err(e) if gone(&e) => Ok(None),
                Err(e) => Err(format!("{e:?}")),
            },
        }
    }

    /// Stores `value` under `name`, replacing what was there.
    pub(crate) fn set(&self, name: &str, value: &str) -> Result<(), String> {
        match &self.backend {
            Backend::Store(store, _) => entry(store, name)?
                .set_password(value)
                .map_err(|e| e.to_string()),
            #[cfg(target_os = "linux")]
            Backend::Kernel(ring) => ring
                .add_key(&kernel_description(name), value.as_bytes())
                .map(|_| ())
                .map_err(|e| format!("{e:?}")),
        }
    }

    /// Deletes the secret under `name`: `false` when there was none.
    pub(crate) fn delete(&self, name: &str) -> Result<bool, String> {
        match &self.backend {
            Backend::Store(store, _) => match entry(store, name)?.delete_credential() {
                Ok(()) => Ok(true),
                Err(keyring_core::Error::NoEntry) => Ok(false),
                Err(e) => Err(e.to_string()),
            },
            #[cfg(target_os = "linux")]
            Backend::Kernel(ring) => match ring.search(&kernel_description(name)) {
                Ok(key) => key
                    .invalidate()
                    .map(|()| true)
                    .map_err(|e| format!("{e:?}")),
                Err(e) if gone(&e) => Ok(false),
                Err(e) => Err(format!("{e:?}")),
            },
        }
    }
}

fn entry(
    store: &Arc<keyring_core::CredentialStore>,
    name: &str,
) -> Result<keyring_core::Entry, String> {
    keyring_core::Entry::new_in_store(store, SERVICE, name).map_err(|e| e.to_string())
}

/// A key deleted (invalidated keys linger until the kernel collects them) or never stored.
#[cfg(target_os = "linux")]
fn gone(error: &linux_keyutils::KeyError) -> bool {
    use linux_keyutils::KeyError::{KeyDoesNotExist, KeyExpired, KeyRevoked};
    matches!(error, KeyDoesNotExist | KeyRevoked | KeyExpired)
}

#[cfg(target_os = "linux")]
fn kernel_description(name: &str) -> String {
    format!("{SERVICE}:{name}")
}

/// The platform's own store (the Secret Service on Linux and the BSDs).
fn platform_store() -> Result<Backend, String> {
    #[cfg(target_os = "linux")]
    {
        zbus_secret_service_keyring_store::Store::new()
            .map(|store| {
                Backend::Store(
                    store,
                    "Secret Service (org.freedesktop.secrets over the D-Bus session bus)",
                )
            })
            .map_err(|e| format!("the Secret Service: {e}"))
    }
    #[cfg(target_os = "macos")]
    {
        apple_native_keyring_store::keychain::Store::new()
            .map(|store| Backend::Store(store, "macOS Keychain"))
            .map_err(|e| format!("the Keychain: {e}"))
    }
    #[cfg(windows)]
    {
        windows_native_keyring_store::Store::new()
            .map(|store| Backend::Store(store, "Windows Credential Manager"))
            .map_err(|e| format!("the Credential Manager: {e}"))
    }
    #[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
    {
        Err("no keyring store is built for this platform".to_string())
    }
}

pub(crate) use crate::config::check_secret_name as check_name;

/// The value of `keyring://NAME`, or the original's error: what is missing and the command that
/// stores it.
pub(crate) fn resolve(name: &str) -> Result<String, String> {
    let keyring = Keyring::open().map_err(|why| {
        format!(
            "config references keyring://{name} but no OS keyring is available ({why}); store \
             secrets in one, or switch the reference to env://"
        )
    })?;
    match keyring.get(name) {
        Ok(Some(value)) => Ok(value),
        Ok(None) => Err(format!(
            "config references keyring://{name} but no such secret is stored \u{2014} run: \
             toolplane secret set {name}"
        )),
        Err(why) => Err(format!(
            "config references keyring://{name} but the OS keyring backend failed ({why}); \
             configure a keyring backend or switch the reference to env://"
        )),
    }
}

/// `~/.toolplane/secret-names`: the names `secret set` stored, one per line.
fn names_index() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .map(|home| PathBuf::from(home).join(".toolplane/secret-names"))
}

/// The names `toolplane secret set` stored (sorted).
pub(crate) fn names() -> Vec<String> {
    let Some(path) = names_index() else {
        return Vec::new();
    };
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut names: Vec<String> = text
        .lines()
        .filter(|line| check_name(line).is_ok())
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Records `name` in the index (`add`) or removes it.
pub(crate) fn record_name(name: &str, add: bool) -> std::io::Result<()> {
    use std::io::Write as _;
    let Some(path) = names_index() else {
        return Ok(());
    };
    let mut names = names();
    names.retain(|n| n != name);
    if add {
        names.push(name.to_string());
        names.sort();
    }
    let dir = path.parent().expect("a file in ~/.toolplane");
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::Builder::new()
        .prefix(".secret-names")
        .tempfile_in(dir)?;
    for name in &names {
        writeln!(file, "{name}")?;
    }
    // A temporary file is created 0600: the index holds names only, but nobody else's business.
    file.persist(&path).map_err(|e| e.error)?;
    Ok(())
}
