//! The capability registry: canonical names, flat Python aliases, schemas, hidden entries.
//!
//! A registry can be shared by several runtimes; it never holds a store. The four store capabilities
//! are registered hidden and discovery-only: the bridge resolves them against its own runtime's stores.

use std::sync::{Arc, RwLock};

use serde_json::{Value, json};

use super::error::HostError;

/// A host function callable from a snippet: JSON params in, JSON value out.
pub type ToolHandler = Arc<dyn Fn(Value) -> Result<Value, HostError> + Send + Sync>;

/// Canonical names of the store capabilities, dispatched by the bridge.
pub const RESULTS_SAVE: &str = "toolplane:results/save";
/// See [`RESULTS_SAVE`].
pub const RESULTS_LOAD: &str = "toolplane:results/load";
/// See [`RESULTS_SAVE`].
pub const ARTIFACTS_SAVE: &str = "toolplane:artifacts/save";
/// See [`RESULTS_SAVE`].
pub const ARTIFACTS_LOAD: &str = "toolplane:artifacts/load";

/// One registered capability.
///
/// ```
/// use toolplane::Capability;
/// let cap = Capability::new("orders/get", |p| Ok(p))
///     .alias("orders_get")
///     .description("Fetch one order")
///     .schema(serde_json::json!({"type": "object", "properties": {"id": {"type": "integer"}}}));
/// assert_eq!(cap.python_alias(), Some("orders_get"));
/// ```
#[derive(Clone)]
pub struct Capability {
    /// The canonical name, e.g. `orders/get` or `mcp:server/tool`.
    pub name: String,
    alias: Option<String>,
    /// What it does, for search and the manifest.
    pub description: String,
    /// JSON Schema of the params object.
    pub params_schema: Value,
    /// Free-form tags for search.
    pub tags: Vec<String>,
    /// Hidden from discovery (search, list, manifest, flat aliases) but callable by canonical name.
    pub hidden: bool,
    pub(crate) handler: Option<ToolHandler>,
}

impl std::fmt::Debug for Capability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Capability")
            .field("name", &self.name)
            .field("alias", &self.alias)
            .field("hidden", &self.hidden)
            .finish_non_exhaustive()
    }
}

impl Capability {
    /// A capability with a handler; its alias defaults to the name with every non-identifier
    /// character replaced by `_` (`orders/get` → `orders_get`).
    pub fn new(
        name: impl Into<String>,
        handler: impl Fn(Value) -> Result<Value, HostError> + Send + Sync + 'static,
    ) -> Self {
        let name = name.into();
        Self {
            alias: Some(default_alias(&name)),
            name,
            description: String::new(),
            params_schema: json!({"type": "object"}),
            tags: Vec::new(),
            hidden: false,
            handler: Some(Arc::new(handler)),
        }
    }

    fn discovery_only(name: &str, description: &str, schema: Value) -> Self {
        Self {
            name: name.to_string(),
            alias: None,
            description: description.to_string(),
            params_schema: schema,
            tags: vec!["toolplane".into()],
            hidden: true,
            handler: None,
        }
    }

    /// Sets the flat Python name (must be an identifier to be bound).
    pub fn alias(mut self, alias: impl Into<String>) -> Self {
        self.alias = Some(alias.into());
        self
    }
    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }
    /// Sets the JSON Schema of the params.
    pub fn schema(mut self, schema: Value) -> Self {
        self.params_schema = schema;
        self
    }
    /// Adds a tag.
    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.tags.push(tag.into());
        self
    }
    /// Hides it from discovery.
    pub fn hidden(mut self, hidden: bool) -> Self {
        self.hidden = hidden;
        self
    }
    /// The flat Python name, if it is a valid identifier.
    pub fn python_alias(&self) -> Option<&str> {
        self.alias.as_deref().filter(|a| is_identifier(a))
    }
}

fn default_alias(name: &str) -> String {
    let tail = name.rsplit_once(':').map_or(name, |(_, t)| t);
    tail.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Whether `s` is a Python identifier (ASCII subset) and not a keyword.
pub fn is_identifier(s: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
        "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
        "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
        "try", "while", "with", "yield",
    ];
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&s)
}

/// An error registering a capability.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RegistryError {
    /// The canonical name is taken.
    #[error("Capability already registered: {0}")]
    Duplicate(String),
}

/// The set of capabilities a runtime (or several) can call.
///
/// ```
/// use toolplane::{Capability, Registry};
/// let registry = Registry::new();
/// registry.register(Capability::new("echo", |p| Ok(p))).unwrap();
/// assert!(registry.register(Capability::new("echo", |p| Ok(p))).is_err());
/// assert!(registry.get("toolplane:results/save").unwrap().hidden);
/// ```
#[derive(Debug)]
pub struct Registry {
    entries: RwLock<Vec<Capability>>,
}

impl Default for Registry {
    fn default() -> Self {
        Self::new()
    }
}

impl Registry {
    /// A registry holding only the hidden store capabilities.
    pub fn new() -> Self {
        let handle = json!({"type": "object", "properties": {"handle": {"type": "string"}}, "required": ["handle"]});
        let entries = vec![
            Capability::discovery_only(
                RESULTS_SAVE,
                "Save a JSON value to the host's result store; returns a res_ handle. Read it back with load_result \
                 or as the MCP resource toolplane://results/<handle>.",
                json!({"type": "object", "properties": {"value": {}, "label": {"type": ["string", "null"]}}, "required": ["value"]}),
            ),
            Capability::discovery_only(
                RESULTS_LOAD,
                "Load a saved JSON value by its res_ handle.",
                handle.clone(),
            ),
            Capability::discovery_only(
                ARTIFACTS_SAVE,
                "Save bytes (base64 in data_b64) to the host's artifact store; returns an art_ handle, readable as \
                 toolplane://artifacts/<handle>.",
                json!({"type": "object", "properties": {"data_b64": {"type": "string"}, "filename": {"type": ["string", "null"]},
                       "label": {"type": ["string", "null"]}}, "required": ["data_b64"]}),
            ),
            Capability::discovery_only(
                ARTIFACTS_LOAD,
                "Load saved bytes by their art_ handle; returns {data_b64, filename, size_bytes}.",
                handle,
            ),
        ];
        Self {
            entries: RwLock::new(entries),
        }
    }

    /// Adds a capability; a taken canonical name is an error.
    pub fn register(&self, capability: Capability) -> Result<(), RegistryError> {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if entries.iter().any(|c| c.name == capability.name) {
            return Err(RegistryError::Duplicate(capability.name));
        }
        entries.push(capability);
        Ok(())
    }

    /// The capability with this canonical name (hidden ones included).
    pub fn get(&self, name: &str) -> Option<Capability> {
        self.entries
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|c| c.name == name)
            .cloned()
    }

    /// Every capability that is not hidden, in registration order.
    pub fn visible(&self) -> Vec<Capability> {
        self.entries
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|c| !c.hidden)
            .cloned()
            .collect()
    }

    /// Flat Python name → canonical name, for the visible capabilities with identifier aliases.
    pub fn callable_namespace(&self) -> Vec<(String, String)> {
        let mut seen = std::collections::HashSet::new();
        self.visible()
            .iter()
            .filter_map(|c| c.python_alias().map(|a| (a.to_string(), c.name.clone())))
            .filter(|(a, _)| seen.insert(a.clone()))
            .collect()
    }

    /// Calls a registered capability's handler. Discovery-only entries refuse.
    pub fn call(&self, name: &str, params: Value) -> Result<Value, HostError> {
        let capability = self.get(name).ok_or_else(|| unknown_capability(name))?;
        let Some(handler) = capability.handler else {
            return Err(HostError::runtime(
                if name.starts_with("toolplane:artifacts/") {
                    "artifact capabilities are dispatched by the runtime bridge, not the registry"
                } else {
                    "result capabilities are dispatched by the runtime bridge, not the registry"
                },
            ));
        };
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(params))) {
            Ok(result) => result,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".into());
                Err(HostError::runtime(format!(
                    "capability {name} failed inside the host (it panicked: {what})"
                )))
            }
        }
    }
}

/// The `LookupError` for a name nobody registered.
pub fn unknown_capability(name: &str) -> HostError {
    HostError::lookup(format!(
        "Unknown capability: {name}. Capability names are canonical (e.g. 'orders/get'); list them with \
         search_capabilities or the toolplane://namespace resource."
    ))
}
