//! The artifact store: bytes in a private temp dir, addressed by unguessable `art_` handles.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::clock::{Clock, MonotonicClock};
use super::handle::new_handle;
use super::ledger::{Caps, Ledger, Wording};
use crate::canonical::py_repr;
use crate::config::ArtifactsConfig;
use crate::host_error::HostError;

/// The filename used when a snippet gives none.
pub const DEFAULT_ARTIFACT_FILENAME: &str = "artifact.bin";
static WORDING: Wording = Wording {
    store: "artifact store",
    entries: "artifacts",
    over_total_hint: "save a smaller file",
};

/// The message every call gets once the store is disabled.
pub const ARTIFACTS_DISABLED: &str = "artifact store is disabled";

/// What the store knows of one artifact; also the shape listed in `ExecutionResult.artifacts`
/// (plus its `uri`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ArtifactInfo {
    /// The `art_` handle.
    pub handle: String,
    /// The validated filename.
    pub filename: String,
    /// The number of bytes.
    pub size_bytes: usize,
    /// The label given at save time (metadata only).
    pub label: Option<String>,
}

#[derive(Debug)]
struct Entry {
    info: ArtifactInfo,
    path: PathBuf,
}

impl Entry {
    /// Removes the entry's directory (its file with it).
    fn remove_files(self) {
        if let Some(dir) = self.path.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

#[derive(Debug)]
struct Inner {
    /// The private temp dir, made at the first save.
    root: Option<tempfile::TempDir>,
    ledger: Ledger<Entry>,
}

/// The artifact store of one runtime. Files live at `<private temp dir>/<handle>/<filename>`; the
/// directory is created on the first save and removed when the store is dropped or closed.
///
/// ```
/// use toolplane::stores::ArtifactStore;
/// let store = ArtifactStore::new(&Default::default());
/// let h = store.save(b"\x00\x01", Some("a.bin"), None).unwrap();
/// assert_eq!(store.load(&h).unwrap(), b"\x00\x01");
/// assert_eq!(store.describe(&h).unwrap().filename, "a.bin");
/// ```
#[derive(Debug)]
pub struct ArtifactStore {
    /// The entries, in this process; on Redis, only whether the store is enabled.
    inner: Mutex<Inner>,
    /// The entries on Redis (`[stores] url`), when there.
    #[cfg(feature = "redis")]
    redis: Option<super::redis::RedisLedger>,
}

/// The longest artifact filename, in bytes (the usual file-system limit on one path component).
pub const MAX_FILENAME_BYTES: usize = 255;

/// Whether `name` is a simple filename: `^[A-Za-z0-9][A-Za-z0-9._-]*$`, at most
/// [`MAX_FILENAME_BYTES`] bytes.
pub fn is_valid_filename(name: &str) -> bool {
    name.len() <= MAX_FILENAME_BYTES && has_simple_shape(name)
}

/// `^[A-Za-z0-9][A-Za-z0-9._-]*$`, whatever the length.
fn has_simple_shape(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphanumeric)
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The store's root: created `0700` whatever the umask (the mode is given to `mkdir` itself, so it
/// is never wider, not even for a moment).
fn private_dir_builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix("toolplane-artifacts-");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
    builder
}

/// One artifact's directory, `0700` from its creation.
fn create_private_dir(dir: &std::path::Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// One artifact's bytes, in a new file that is `0600` from its creation.
fn write_private_file(path: &std::path::Path, data: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(data)
}

impl ArtifactStore {
    /// A store with the caps of `config` and the real clock.
    pub fn new(config: &ArtifactsConfig) -> Self {
        Self::with_clock(config, Arc::new(MonotonicClock::new()))
    }

    /// A store with the caps of `config` and the given clock.
    pub fn with_clock(config: &ArtifactsConfig, clock: Arc<dyn Clock>) -> Self {
        let caps = Caps {
            max_entries: config.max_entries,
            max_total_bytes: config.max_total_bytes,
            max_entry_bytes: config.max_entry_bytes,
            ttl_seconds: config.ttl_seconds,
        };
        let disabled = (!config.enabled).then(|| ARTIFACTS_DISABLED.to_string());
        Self {
            inner: Mutex::new(Inner {
                root: None,
                ledger: Ledger::new(caps, clock, disabled),
            }),
            #[cfg(feature = "redis")]
            redis: None,
        }
    }

    /// A store whose artifacts are on Redis, in `scope` (a client's, or a runtime's own): nothing on
    /// this host's disk.
    #[cfg(feature = "redis")]
    pub(crate) fn on_redis(
        config: &ArtifactsConfig,
        stores: &Arc<super::redis::RedisStores>,
        scope: &str,
    ) -> Self {
        let mut store = Self::new(config);
        let caps = store.lock().ledger.caps();
        store.redis = Some(stores.ledger(scope, "art", caps, &WORDING));
        store
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether saves and loads are allowed.
    pub fn is_enabled(&self) -> bool {
        self.lock().ledger.is_enabled()
    }

    /// Removes every artifact and makes every later call fail with `reason`.
    pub fn disable(&self, reason: &str) {
        let mut inner = self.lock();
        Self::clear(&mut inner);
        inner.ledger.disable(reason, drop);
    }

    /// Removes the scratch directory and forgets every artifact; the store stays usable.
    pub fn close(&self) {
        Self::clear(&mut self.lock());
    }

    /// Drops every entry and the directory that holds their files.
    fn clear(inner: &mut Inner) {
        inner.ledger.clear(drop);
        if let Some(root) = inner.root.take() {
            let _ = root.close();
        }
    }

    /// The scratch directory, if one has been created.
    pub fn root_dir(&self) -> Option<PathBuf> {
        self.lock().root.as_ref().map(|r| r.path().to_path_buf())
    }

    /// Saves `data` under a new handle. Checks run in the reference's order: enabled, filename, size,
    /// entry count, total bytes. The label's bytes count with the data's, as for results (labels are
    /// host memory too; the Python original does not count them).
    pub fn save(
        &self,
        data: &[u8],
        filename: Option<&str>,
        label: Option<&str>,
    ) -> Result<String, HostError> {
        let mut inner = self.lock();
        inner.ledger.check_enabled()?;
        let filename = filename.unwrap_or(DEFAULT_ARTIFACT_FILENAME);
        if filename.len() > MAX_FILENAME_BYTES && has_simple_shape(filename) {
            return Err(HostError::value(format!(
                "artifact filename is {} bytes long, over the limit of {MAX_FILENAME_BYTES} bytes; use a shorter name",
                filename.len()
            )));
        }
        if !is_valid_filename(filename) {
            return Err(HostError::value(format!(
                "artifact filename must be a simple name like 'report.parquet' (letters, digits, dot, dash, underscore), got {}",
                py_repr(filename)
            )));
        }
        let size = data.len();
        let label_bytes = label.map_or(0, str::len);
        let counted = size + label_bytes;
        let too_large = |limit| {
            let with_label = if label_bytes > 0 {
                format!(" with its {label_bytes}-byte label")
            } else {
                String::new()
            };
            format!(
                "artifact is {counted} bytes{with_label}, over the per-artifact limit of {limit} bytes; save a smaller file"
            )
        };
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            drop(inner);
            let handle = new_handle("art_");
            let size_text = size.to_string();
            let mut fields: Vec<(&str, &[u8])> = vec![
                ("data", data),
                ("filename", filename.as_bytes()),
                ("size_bytes", size_text.as_bytes()),
            ];
            if let Some(label) = label {
                fields.push(("label", label.as_bytes()));
            }
            redis.save(&handle, counted, &fields, too_large)?;
            return Ok(handle);
        }
        inner.ledger.purge(Entry::remove_files);
        inner.ledger.admit(counted, &WORDING, too_large)?;
        let root = match &inner.root {
            Some(root) if root.path().is_dir() => root.path().to_path_buf(),
            _ => {
                // Created lazily; re-created if something removed it under us.
                let dir = private_dir_builder().tempdir().map_err(|e| {
                    // The kind only: the message would show the snippet a host path.
                    HostError::value(format!(
                        "artifact store could not create its directory on the host ({}); \
                             nothing was saved",
                        e.kind()
                    ))
                })?;
                let path = dir.path().to_path_buf();
                inner.root = Some(dir);
                path
            }
        };
        let handle = new_handle("art_");
        let dir = root.join(&handle);
        let path = dir.join(filename);
        let written = create_private_dir(&dir).and_then(|()| write_private_file(&path, data));
        if let Err(e) = written {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(HostError::value(format!(
                "artifact store could not write {size} bytes on the host ({}); nothing was saved",
                e.kind()
            )));
        }
        let info = ArtifactInfo {
            handle: handle.clone(),
            filename: filename.to_string(),
            size_bytes: size,
            label: label.map(str::to_string),
        };
        inner
            .ledger
            .insert(handle.clone(), Entry { info, path }, counted);
        Ok(handle)
    }

    fn entry_path(&self, handle: &str) -> Result<(PathBuf, ArtifactInfo), HostError> {
        let mut inner = self.lock();
        inner.ledger.check_enabled()?;
        inner.ledger.purge(Entry::remove_files);
        inner
            .ledger
            .get(handle)
            .map(|e| (e.path.clone(), e.info.clone()))
            .ok_or_else(|| unknown_handle(handle))
    }

    /// The entry of `handle` on Redis: its bytes and metadata.
    #[cfg(feature = "redis")]
    fn on_redis_entry(
        &self,
        redis: &super::redis::RedisLedger,
        handle: &str,
    ) -> Result<(Vec<u8>, ArtifactInfo), HostError> {
        self.lock().ledger.check_enabled()?;
        let mut stored = redis.get(handle)?.ok_or_else(|| unknown_handle(handle))?;
        let data = stored.fields.remove("data").unwrap_or_default();
        let info = stored_info(handle.to_string(), &stored);
        Ok((data, info))
    }

    /// The bytes of `handle`.
    pub fn load(&self, handle: &str) -> Result<Vec<u8>, HostError> {
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            return self.on_redis_entry(redis, handle).map(|(data, _)| data);
        }
        let (path, _) = self.entry_path(handle)?;
        std::fs::read(&path).map_err(|e| {
            HostError::value(format!(
                "artifact {} could not be read from disk: {e}",
                py_repr(handle)
            ))
        })
    }

    /// The metadata of `handle`.
    pub fn describe(&self, handle: &str) -> Result<ArtifactInfo, HostError> {
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            return self.on_redis_entry(redis, handle).map(|(_, info)| info);
        }
        self.entry_path(handle).map(|(_, info)| info)
    }

    /// The live handles, oldest first.
    pub fn handles(&self) -> Vec<String> {
        #[cfg(feature = "redis")]
        if self.redis.is_some() {
            return self.list().into_iter().map(|info| info.handle).collect();
        }
        let mut inner = self.lock();
        inner.ledger.purge(Entry::remove_files);
        inner
            .ledger
            .in_order()
            .map(|(h, ..)| h.to_string())
            .collect()
    }

    /// The live artifacts, oldest first.
    pub fn list(&self) -> Vec<ArtifactInfo> {
        self.list_with_age()
            .into_iter()
            .map(|(info, _)| info)
            .collect()
    }

    /// The live artifacts, oldest first, each with its age in seconds.
    pub fn list_with_age(&self) -> Vec<(ArtifactInfo, f64)> {
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            if !self.is_enabled() {
                return Vec::new();
            }
            // A Redis that does not answer lists nothing (a save or load says why).
            return redis
                .list(&["filename", "size_bytes", "label"])
                .unwrap_or_default()
                .into_iter()
                .map(|(handle, stored)| {
                    let age = stored.age_seconds;
                    (stored_info(handle, &stored), age)
                })
                .collect();
        }
        let mut inner = self.lock();
        inner.ledger.purge(Entry::remove_files);
        inner
            .ledger
            .in_order()
            .map(|(_, e, _, age)| (e.info.clone(), age))
            .collect()
    }
}

fn unknown_handle(handle: &str) -> HostError {
    HostError::value(format!(
        "unknown or expired artifact handle: {}",
        py_repr(handle)
    ))
}

/// An artifact's metadata as Redis holds it.
#[cfg(feature = "redis")]
fn stored_info(handle: String, stored: &super::redis::Stored) -> ArtifactInfo {
    ArtifactInfo {
        handle,
        filename: stored
            .text("filename")
            .unwrap_or_else(|| DEFAULT_ARTIFACT_FILENAME.into()),
        size_bytes: stored
            .text("size_bytes")
            .and_then(|s| s.parse().ok())
            .unwrap_or(0),
        label: stored.text("label"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_filename_is_simple_and_short() {
        assert!(is_valid_filename("report.csv"));
        assert!(!is_valid_filename("../escape.bin"));
        assert!(!is_valid_filename(&"a".repeat(256)));
    }
}
