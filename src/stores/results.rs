//! The result store: JSON values in host memory, addressed by unguessable `res_` handles.

use std::sync::{Arc, Mutex};

use super::clock::{Clock, MonotonicClock};
use super::handle::new_handle;
use super::ledger::{Caps, Ledger, Wording};
use crate::canonical::py_repr;
use crate::config::ResultsConfig;
use crate::host_error::HostError;

/// What the store knows of one saved result (without its payload).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ResultInfo {
    /// The `res_` handle.
    pub handle: String,
    /// The label given at save time (metadata only, never a lookup key).
    pub label: Option<String>,
    /// Payload bytes plus label bytes: what counts against the caps.
    pub size_bytes: usize,
    /// Seconds since the entry was saved.
    pub age_seconds: f64,
}

#[derive(Debug)]
struct Entry {
    label: Option<String>,
    payload: Arc<str>,
}

/// The result store of one runtime: canonical JSON payloads with caps and a lazy TTL, in memory only.
///
/// Errors are [`HostError`]s with the `ValueError` base, so a snippet catches every store error as
/// `ValueError`.
///
/// ```
/// use toolplane::stores::ResultStore;
/// let store = ResultStore::new(&Default::default());
/// let handle = store.save_json("{\"a\": 1}", Some("demo")).unwrap();
/// assert_eq!(&*store.payload(&handle).unwrap(), "{\"a\": 1}");
/// ```
#[derive(Debug)]
pub struct ResultStore {
    /// The entries, in this process; on Redis, only whether the store is enabled.
    ledger: Mutex<Ledger<Entry>>,
    /// The entries on Redis (`[stores] url`), when there.
    #[cfg(feature = "redis")]
    redis: Option<super::redis::RedisLedger>,
}

static WORDING: Wording = Wording {
    store: "result store",
    entries: "entries",
    over_total_hint: "save a smaller projection or re-use an existing handle",
};

/// The message every call gets once the store is disabled.
pub const RESULTS_DISABLED: &str = "results store is disabled";

impl ResultStore {
    /// A store with the caps of `config` and the real clock.
    pub fn new(config: &ResultsConfig) -> Self {
        Self::with_clock(config, Arc::new(MonotonicClock::new()))
    }

    /// A store with the caps of `config` and the given clock (tests use [`super::ManualClock`]).
    pub fn with_clock(config: &ResultsConfig, clock: Arc<dyn Clock>) -> Self {
        let caps = Caps {
            max_entries: config.max_entries,
            max_total_bytes: config.max_total_bytes,
            max_entry_bytes: config.max_entry_bytes,
            ttl_seconds: config.ttl_seconds,
        };
        let disabled = (!config.enabled).then(|| RESULTS_DISABLED.to_string());
        Self {
            ledger: Mutex::new(Ledger::new(caps, clock, disabled)),
            #[cfg(feature = "redis")]
            redis: None,
        }
    }

    /// A store whose entries are on Redis, in `scope` (a client's, or a runtime's own).
    #[cfg(feature = "redis")]
    pub(crate) fn on_redis(
        config: &ResultsConfig,
        stores: &std::sync::Arc<super::redis::RedisStores>,
        scope: &str,
    ) -> Self {
        let mut store = Self::new(config);
        let caps = store.lock().caps();
        store.redis = Some(stores.ledger(scope, "res", caps, &WORDING));
        store
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ledger<Entry>> {
        self.ledger.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether saves and loads are allowed.
    pub fn is_enabled(&self) -> bool {
        self.lock().is_enabled()
    }

    /// Clears every entry and makes every later call fail with `reason`.
    pub fn disable(&self, reason: &str) {
        self.lock().disable(reason, drop);
    }

    /// Saves an already canonical JSON payload (the exact text that `load` and the MCP resource serve).
    ///
    /// The caller guarantees `payload` is valid JSON; the sandbox produces it with Python's
    /// `json.dumps` rules. Checks run in the reference's order: enabled, size (payload + label bytes),
    /// entry count, total bytes.
    pub fn save_json(&self, payload: &str, label: Option<&str>) -> Result<String, HostError> {
        let mut ledger = self.lock();
        ledger.check_enabled()?;
        let size = payload.len() + label.map_or(0, str::len);
        let too_large = |limit| {
            format!(
                "result is {size} bytes, over the per-entry limit of {limit} bytes; save a smaller projection"
            )
        };
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            drop(ledger);
            let handle = new_handle("res_");
            let mut fields: Vec<(&str, &[u8])> = vec![("data", payload.as_bytes())];
            if let Some(label) = label {
                fields.push(("label", label.as_bytes()));
            }
            redis.save(&handle, size, &fields, too_large)?;
            return Ok(handle);
        }
        ledger.purge(drop);
        ledger.admit(size, &WORDING, too_large)?;
        let handle = new_handle("res_");
        let entry = Entry {
            label: label.map(str::to_string),
            payload: Arc::from(payload),
        };
        ledger.insert(handle.clone(), entry, size);
        Ok(handle)
    }

    /// Saves a JSON value, serialised with the same canonical rules as values saved from a snippet.
    ///
    /// ```
    /// use toolplane::stores::ResultStore;
    /// let store = ResultStore::new(&Default::default());
    /// let h = store.save(&serde_json::json!({"rows": [1, 2]}), None).unwrap();
    /// assert_eq!(&*store.payload(&h).unwrap(), "{\"rows\": [1, 2]}");
    /// ```
    pub fn save(
        &self,
        value: &serde_json::Value,
        label: Option<&str>,
    ) -> Result<String, HostError> {
        self.lock().check_enabled()?;
        // serde_json values cannot hold NaN or infinities, so every Value has a canonical form.
        self.save_json(&crate::canonical::to_canonical_json(value), label)
    }

    /// The stored canonical JSON text of `handle`, verbatim.
    pub fn payload(&self, handle: &str) -> Result<Arc<str>, HostError> {
        let mut ledger = self.lock();
        ledger.check_enabled()?;
        let unknown = || {
            HostError::value(format!(
                "unknown or expired result handle: {}",
                py_repr(handle)
            ))
        };
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            drop(ledger);
            let mut stored = redis.get(handle)?.ok_or_else(unknown)?;
            let data = stored.fields.remove("data").unwrap_or_default();
            // Saved from a &str: valid UTF-8, taken without a copy.
            let text = String::from_utf8(data)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            return Ok(Arc::from(text));
        }
        ledger.purge(drop);
        ledger
            .get(handle)
            .map(|e| e.payload.clone())
            .ok_or_else(unknown)
    }

    /// The stored value of `handle`, parsed (exact with the default `exact-numbers` feature; without
    /// it, integers beyond 64 bits become floats here while the payload text keeps them).
    pub fn load(&self, handle: &str) -> Result<serde_json::Value, HostError> {
        let payload = self.payload(handle)?;
        serde_json::from_str(&payload)
            .map_err(|e| HostError::runtime(format!("stored payload is not JSON: {e}")))
    }

    /// The live entries, oldest first (expired ones are purged first).
    pub fn list(&self) -> Vec<ResultInfo> {
        let mut ledger = self.lock();
        if !ledger.is_enabled() {
            return Vec::new();
        }
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            drop(ledger);
            // A Redis that does not answer lists nothing (a save or load says why).
            return redis
                .list(&["label"])
                .unwrap_or_default()
                .into_iter()
                .map(|(handle, stored)| ResultInfo {
                    handle,
                    label: stored.text("label"),
                    size_bytes: stored.size,
                    age_seconds: stored.age_seconds,
                })
                .collect();
        }
        ledger.purge(drop);
        ledger
            .in_order()
            .map(|(handle, e, size, age)| ResultInfo {
                handle: handle.to_string(),
                label: e.label.clone(),
                size_bytes: size,
                age_seconds: age,
            })
            .collect()
    }

    /// The bytes currently counted against `max_total_bytes`.
    pub fn total_bytes(&self) -> usize {
        #[cfg(feature = "redis")]
        if let Some(redis) = &self.redis {
            return redis.total().unwrap_or(0);
        }
        self.lock().total()
    }
}

/// The reference's text for a value that cannot be saved as JSON.
pub fn non_json_message(top_type: &str, detail: &str) -> String {
    format!(
        "value of type '{top_type}' is not JSON-serializable ({detail}); save a JSON-shaped projection instead, \
         or serialize to bytes and use save_artifact for files and binary data"
    )
}
