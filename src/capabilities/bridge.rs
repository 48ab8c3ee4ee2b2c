//! The bridge: the only door from a snippet to the host. Every external call arrives here as a
//! capability name plus JSON params (text), and leaves as JSON text or a [`HostError`].

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;
use serde_json::value::RawValue;

use super::registry::{
    ARTIFACTS_LOAD, ARTIFACTS_SAVE, Capability, Invocation, RESULTS_LOAD, RESULTS_SAVE, Registry,
    invoke_capability, spawn_tool, wait_for,
};
use crate::audit::AuditLog;
use crate::canonical::to_canonical_json;
use crate::host_error::{BuiltinBase, HostError};
use crate::stores::{ArtifactStore, ResultStore};

/// How [`Bridge::submit`] started a call.
pub(crate) enum Submitted {
    /// The answer, now.
    Answered(Result<String, HostError>),
    /// An async tool, running: aborting the handle drops it.
    Pending(tokio::task::AbortHandle),
}

/// Dispatches calls from snippets: the store capabilities against this runtime's own stores first,
/// then the (possibly shared) registry.
#[derive(Debug, Clone)]
pub struct Bridge {
    results: Arc<ResultStore>,
    artifacts: Arc<ArtifactStore>,
    registry: Arc<Registry>,
    /// This runtime's `toolplane:cli/run`, when `[cli]` is on.
    cli: Option<Arc<Capability>>,
    /// The binaries `[cli] allow` names: `call_tool("git", …)` is told how to call one.
    cli_binaries: Arc<[String]>,
    /// `[audit]`'s log, when on.
    audit: Option<Arc<AuditLog>>,
    /// The run this bridge serves, for the log's `dispatch` events.
    run_id: Option<Arc<str>>,
    /// The client whose stores these are, for the log's `run_start` events ([`Bridge::for_client`]).
    client: Option<Arc<str>>,
}

#[derive(serde::Deserialize)]
struct SaveResultParams<'a> {
    #[serde(borrow)]
    value: Option<&'a RawValue>,
    #[serde(default)]
    label: Value,
}

/// The Python type name of a JSON value, for error texts.
pub(crate) fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

fn optional_str<'v>(value: &'v Value, what: &str) -> Result<Option<&'v str>, HostError> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        other => Err(HostError::value(format!(
            "{what} must be a string, got '{}'",
            json_type_name(other)
        ))),
    }
}

fn handle_param(params: &Value, kind: &str) -> Result<String, HostError> {
    match params.get("handle") {
        Some(Value::String(h)) => Ok(h.clone()),
        Some(other) => Err(HostError::value(format!(
            "unknown or expired {kind} handle: {other}"
        ))),
        None => Err(HostError::type_error(format!(
            "missing required parameter 'handle' (the {kind} handle to load)"
        ))),
    }
}

fn string_json(s: &str) -> String {
    to_canonical_json(&Value::String(s.to_string()))
}

impl Bridge {
    /// A bridge over this runtime's stores and a registry (which may be shared).
    pub fn new(
        results: Arc<ResultStore>,
        artifacts: Arc<ArtifactStore>,
        registry: Arc<Registry>,
    ) -> Self {
        Self {
            results,
            artifacts,
            registry,
            cli: None,
            cli_binaries: Arc::new([]),
            audit: None,
            run_id: None,
            client: None,
        }
    }

    /// This bridge with its runtime's `toolplane:cli/run` (`[cli]` on): this runtime's own, never
    /// found in a registry other runtimes may share with other policies.
    /// `binaries` are the ones the allowlist names.
    pub(crate) fn with_cli(mut self, cli: Option<Capability>, binaries: &[String]) -> Self {
        self.cli = cli.map(Arc::new);
        self.cli_binaries = binaries.into();
        self
    }

    /// A `LookupError` for a name the `[cli]` allowlist names teaches the call it meant.
    fn lookup_of_a_binary(&self, name: &str, error: HostError) -> HostError {
        if error.base == BuiltinBase::LookupError
            && self.cli.is_some()
            && self.cli_binaries.iter().any(|b| b == name)
        {
            return HostError::lookup(format!(
                "'{name}' is a CLI binary, not a capability \u{2014} call it as a flat async function. \
                 {}",
                crate::namespace::CLI_SHAPE_GUIDANCE
            ));
        }
        error
    }

    /// The runtime's own `toolplane:cli/run`, when `[cli]` is on.
    #[cfg(feature = "mcp")]
    pub(crate) fn cli_capability(&self) -> Option<&Arc<Capability>> {
        self.cli.as_ref()
    }

    /// The capabilities a call could reach by these canonical names (the runtime's own first, then the
    /// registry's, hidden ones included), in the order asked, and the names not found.
    #[cfg(feature = "mcp")]
    pub(crate) fn lookup(&self, names: &[String]) -> (Vec<Capability>, Vec<String>) {
        let mut missing = Vec::new();
        let found = names
            .iter()
            .filter_map(|name| {
                let found = (self.own_capability(name).map(|own| (**own).clone()))
                    .or_else(|| self.registry.get(name));
                if found.is_none() {
                    missing.push(name.clone());
                }
                found
            })
            .collect();
        (found, missing)
    }

    /// The runtime's own `toolplane:cli/run`, when `name` is it and `[cli]` is on.
    fn own_capability(&self, name: &str) -> Option<&Arc<Capability>> {
        self.cli
            .as_ref()
            .filter(|_| name == crate::namespace::CLI_RUN)
    }

    /// This bridge with an audit log: every host call of a run is a `dispatch` event
    /// ([`crate::audit`]).
    pub fn with_audit(mut self, audit: Option<Arc<AuditLog>>) -> Self {
        self.audit = audit;
        self
    }

    /// The audit log, when `[audit]` is on.
    pub fn audit(&self) -> Option<&Arc<AuditLog>> {
        self.audit.as_ref()
    }

    /// This bridge serving the run `run_id` (the `run_id` of its audit events).
    pub(crate) fn for_run(&self, run_id: &str) -> Self {
        Self {
            run_id: Some(run_id.into()),
            ..self.clone()
        }
    }

    pub(crate) fn run_id(&self) -> Option<&str> {
        self.run_id.as_deref()
    }

    /// This bridge over stores of its own, for the client `name`: the same capabilities, `[cli]`
    /// and audit log.
    pub(crate) fn for_client(
        &self,
        name: &str,
        results: Arc<ResultStore>,
        artifacts: Arc<ArtifactStore>,
    ) -> Self {
        Self {
            results,
            artifacts,
            client: Some(name.into()),
            ..self.clone()
        }
    }

    /// The client whose stores these are, when not the runtime's own.
    pub(crate) fn client(&self) -> Option<&str> {
        self.client.as_deref()
    }

    /// This runtime's result store.
    pub fn results(&self) -> &Arc<ResultStore> {
        &self.results
    }

    /// This runtime's artifact store.
    pub fn artifacts(&self) -> &Arc<ArtifactStore> {
        &self.artifacts
    }

    /// The registry.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    /// Starts one call as the snippet makes it. The store capabilities and blocking tools answer at
    /// once; an async tool is spawned and `on_done` gets its answer later.
    pub(crate) fn submit(
        &self,
        name: &str,
        params: &str,
        on_done: impl FnOnce(Result<String, HostError>) + Send + 'static,
    ) -> Submitted {
        if matches!(
            name,
            RESULTS_SAVE | RESULTS_LOAD | ARTIFACTS_SAVE | ARTIFACTS_LOAD
        ) {
            return Submitted::Answered(self.call(name, params));
        }
        let params = match parse_params(name, params) {
            Ok(params) => params,
            Err(e) => return Submitted::Answered(Err(e)),
        };
        let invocation = match self.own_capability(name) {
            Some(own) => invoke_capability(own, name, params),
            None => self.registry.invoke(name, params),
        };
        match invocation {
            Invocation::Ready(result) => Submitted::Answered(
                result
                    .map(|v| to_canonical_json(&v))
                    .map_err(|e| self.lookup_of_a_binary(name, e)),
            ),
            Invocation::Spawn(future, runtime) => {
                Submitted::Pending(spawn_tool(name, future, &runtime, move |result| {
                    on_done(result.map(|v| to_canonical_json(&v)));
                }))
            }
        }
    }

    /// Dispatches one call and waits for its answer. `params` is JSON text (an object, or `null` for
    /// none); the reply is JSON text.
    pub fn call(&self, name: &str, params: &str) -> Result<String, HostError> {
        match name {
            RESULTS_SAVE => self.save_result(params),
            RESULTS_LOAD => {
                let params = parse_params(name, params)?;
                let handle = handle_param(&params, "result")?;
                Ok(self.results.payload(&handle)?.to_string())
            }
            ARTIFACTS_SAVE => self.save_artifact(params),
            ARTIFACTS_LOAD => {
                let params = parse_params(name, params)?;
                let handle = handle_param(&params, "artifact")?;
                let info = self.artifacts.describe(&handle)?;
                let data = self.artifacts.load(&handle)?;
                let reply = serde_json::json!({
                    "data_b64": STANDARD.encode(&data),
                    "filename": info.filename,
                    "size_bytes": info.size_bytes,
                });
                Ok(to_canonical_json(&reply))
            }
            _ => {
                let params = parse_params(name, params)?;
                let value = match self.own_capability(name) {
                    Some(own) => wait_for(name, invoke_capability(own, name, params))?,
                    None => self
                        .registry
                        .call(name, params)
                        .map_err(|e| self.lookup_of_a_binary(name, e))?,
                };
                Ok(to_canonical_json(&value))
            }
        }
    }

    fn save_result(&self, params: &str) -> Result<String, HostError> {
        if !self.results.is_enabled() {
            // The store's own message (it may carry a custom reason).
            return self.results.save_json("null", None);
        }
        let parsed: SaveResultParams<'_> = serde_json::from_str(params).map_err(|e| {
            HostError::type_error(format!(
                "{RESULTS_SAVE} params must be an object {{value, label}}: {e}"
            ))
        })?;
        let label = optional_str(&parsed.label, "result label")?;
        let value = parsed.value.ok_or_else(|| {
            HostError::type_error(format!(
                "missing required parameter 'value' for {RESULTS_SAVE}"
            ))
        })?;
        let handle = self.results.save_json(value.get(), label)?;
        Ok(string_json(&handle))
    }

    fn save_artifact(&self, params: &str) -> Result<String, HostError> {
        if !self.artifacts.is_enabled() {
            return self.artifacts.save(&[], None, None);
        }
        let params = parse_params(ARTIFACTS_SAVE, params)?;
        let data = match params.get("data_b64") {
            Some(Value::String(s)) => STANDARD.decode(s).map_err(|e| {
                HostError::value(format!("artifact data_b64 is not valid base64: {e}"))
            })?,
            Some(other) => {
                return Err(HostError::value(format!(
                    "artifact data_b64 must be a base64 string, got '{}'",
                    json_type_name(other)
                )));
            }
            None => {
                return Err(HostError::type_error(format!(
                    "missing required parameter 'data_b64' for {ARTIFACTS_SAVE}"
                )));
            }
        };
        let label = optional_str(
            params.get("label").unwrap_or(&Value::Null),
            "artifact label",
        )?;
        let filename = match params.get("filename").unwrap_or(&Value::Null) {
            Value::Null => None,
            Value::String(s) => Some(s.as_str()),
            other => {
                return Err(HostError::value(format!(
                    "artifact filename must be a simple name like 'report.parquet' (letters, digits, dot, dash, underscore), got {}",
                    other
                )));
            }
        };
        let handle = self.artifacts.save(&data, filename, label)?;
        Ok(string_json(&handle))
    }
}

fn parse_params(name: &str, params: &str) -> Result<Value, HostError> {
    let value: Value = serde_json::from_str(params)
        .map_err(|e| HostError::type_error(format!("params for {name} are not JSON: {e}")))?;
    match value {
        Value::Null => Ok(Value::Object(Default::default())),
        Value::Object(_) => Ok(value),
        other => Err(HostError::type_error(format!(
            "params for {name} must be a dict, got '{}'",
            json_type_name(&other)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn store_calls_reach_the_runtimes_own_stores() {
        use crate::capabilities::Registry;
        use crate::stores::{ArtifactStore, ResultStore};
        use std::sync::Arc;
        let bridge = Bridge::new(
            Arc::new(ResultStore::new(&Default::default())),
            Arc::new(ArtifactStore::new(&Default::default())),
            Arc::new(Registry::new()),
        );
        let handle = bridge
            .call(
                "toolplane:results/save",
                r#"{"value": [1, 2], "label": null}"#,
            )
            .unwrap();
        let handle: String = serde_json::from_str(&handle).unwrap();
        let back = bridge
            .call(
                "toolplane:results/load",
                &format!(r#"{{"handle": "{handle}"}}"#),
            )
            .unwrap();
        assert_eq!(back, "[1, 2]");
    }

    use crate::config::{ArtifactsConfig, ResultsConfig};

    fn bridge() -> Bridge {
        Bridge::new(
            Arc::new(ResultStore::new(&ResultsConfig::default())),
            Arc::new(ArtifactStore::new(&ArtifactsConfig::default())),
            Arc::new(Registry::new()),
        )
    }

    #[test]
    fn payload_is_kept_verbatim_including_big_ints() {
        let b = bridge();
        let h: String = serde_json::from_str(
            &b.call(
                RESULTS_SAVE,
                r#"{"value": {"n": 123456789012345678901234567890}}"#,
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(
            b.call(RESULTS_LOAD, &format!(r#"{{"handle": "{h}"}}"#))
                .unwrap(),
            r#"{"n": 123456789012345678901234567890}"#
        );
    }

    #[test]
    fn label_type_is_checked() {
        let e = bridge()
            .call(RESULTS_SAVE, r#"{"value": 1, "label": 3}"#)
            .unwrap_err();
        assert_eq!(
            e,
            HostError::value("result label must be a string, got 'int'")
        );
    }

    #[test]
    fn artifact_round_trip_over_base64() {
        let b = bridge();
        let h: String = serde_json::from_str(
            &b.call(
                ARTIFACTS_SAVE,
                r#"{"data_b64": "AAEC/w==", "filename": "x.bin"}"#,
            )
            .unwrap(),
        )
        .unwrap();
        assert!(h.starts_with("art_"));
        let reply: Value = serde_json::from_str(
            &b.call(ARTIFACTS_LOAD, &format!(r#"{{"handle": "{h}"}}"#))
                .unwrap(),
        )
        .unwrap();
        assert_eq!(reply["data_b64"], "AAEC/w==");
        assert_eq!(reply["filename"], "x.bin");
        assert_eq!(reply["size_bytes"], 4);
    }

    #[test]
    fn bad_base64_and_types_are_value_errors() {
        let b = bridge();
        let e = b
            .call(ARTIFACTS_SAVE, r#"{"data_b64": "@@@"}"#)
            .unwrap_err();
        assert!(
            e.message
                .starts_with("artifact data_b64 is not valid base64"),
            "{e}"
        );
        let e = b.call(ARTIFACTS_SAVE, r#"{"data_b64": 5}"#).unwrap_err();
        assert_eq!(
            e.message,
            "artifact data_b64 must be a base64 string, got 'int'"
        );
        let e = b
            .call(ARTIFACTS_SAVE, r#"{"data_b64": "", "label": []}"#)
            .unwrap_err();
        assert_eq!(e.message, "artifact label must be a string, got 'list'");
    }

    #[test]
    fn unknown_capability_is_lookup_error() {
        let e = bridge().call("mcp:nope/tool", "{}").unwrap_err();
        assert_eq!(e.base, crate::capabilities::BuiltinBase::LookupError);
        assert!(e.message.starts_with("Unknown capability: mcp:nope/tool"));
    }

    #[test]
    fn disabled_store_message_wins_over_bad_params() {
        let results = ResultStore::new(&ResultsConfig {
            enabled: false,
            ..Default::default()
        });
        let b = Bridge::new(
            Arc::new(results),
            Arc::new(ArtifactStore::new(&Default::default())),
            Arc::new(Registry::new()),
        );
        assert_eq!(
            b.call(RESULTS_SAVE, "{}").unwrap_err().message,
            "results store is disabled"
        );
        assert_eq!(
            b.call(RESULTS_LOAD, r#"{"handle": "res_x"}"#)
                .unwrap_err()
                .message,
            "results store is disabled"
        );
    }
}
