//! The capability registry: canonical names, flat Python aliases, schemas, hidden entries.
//!
//! A registry can be shared by several runtimes; it never holds a store. The four store capabilities
//! are registered hidden and discovery-only: the bridge resolves them against its own runtime's stores.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock, RwLock};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::host_error::HostError;

/// A host function callable from a snippet: JSON params in, JSON value out.
pub type ToolHandler = Arc<dyn Fn(Value) -> Result<Value, HostError> + Send + Sync>;

/// What an async host tool returns.
pub type ToolFuture = Pin<Box<dyn Future<Output = Result<Value, HostError>> + Send>>;

type AsyncToolHandler = Arc<dyn Fn(Value) -> ToolFuture + Send + Sync>;

/// How a capability answers.
#[derive(Clone)]
pub(crate) enum Handler {
    /// Runs on the calling thread, at once: the cheapest call.
    Blocking(ToolHandler),
    /// A future spawned on `runtime` when the snippet makes the call, so calls made before their
    /// awaits overlap.
    Async {
        tool: AsyncToolHandler,
        runtime: tokio::runtime::Handle,
    },
}

/// A call started by [`Registry::invoke`].
pub(crate) enum Invocation {
    /// A blocking tool's answer.
    Ready(Result<Value, HostError>),
    /// An async tool's future, to spawn.
    Spawn(ToolFuture, tokio::runtime::Handle),
}

/// The runtime async tools run on: the caller's multi-threaded tokio runtime when they are registered
/// inside one, else a small runtime of toolplane's own. A current-thread runtime is never used: its
/// only thread may be the one blocked in `execute`, waiting for the tool.
fn tool_runtime() -> tokio::runtime::Handle {
    if let Ok(current) = tokio::runtime::Handle::try_current()
        && current.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread
    {
        return current;
    }
    own_runtime()
}

/// Toolplane's own small multi-threaded runtime, for the life of the process (async tools registered
/// outside a runtime, and the connections to MCP servers).
pub(crate) fn own_runtime() -> tokio::runtime::Handle {
    static OWN: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    OWN.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("toolplane-tools")
            .enable_all()
            .build()
            .expect("cannot start the async tool runtime")
    })
    .handle()
    .clone()
}

/// The JSON Schema of `T`'s fields, for a typed tool's parameters.
fn schema_of<T: schemars::JsonSchema>() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(T)).unwrap_or_else(|_| json!({}));
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
    }
    schema
}

/// Parses a typed tool's params; a mismatch is a `TypeError` (the registry appends the call shape).
fn typed_args<A: DeserializeOwned>(name: &str, params: Value) -> Result<A, HostError> {
    serde_json::from_value(params)
        .map_err(|e| HostError::type_error(format!("bad arguments for {name}: {e}")))
}

fn typed_reply<R: Serialize>(name: &str, value: R) -> Result<Value, HostError> {
    serde_json::to_value(value)
        .map_err(|e| HostError::runtime(format!("{name} returned a value that is not JSON: {e}")))
}

pub use crate::namespace::{ARTIFACTS_LOAD, ARTIFACTS_SAVE, RESULTS_LOAD, RESULTS_SAVE};

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
    /// JSON Schema of the value it returns, when known (an MCP tool's `outputSchema`): shown in
    /// `get_capability_schemas` ("Returns", `outputSchema`), as the original's `returns`.
    pub returns: Option<Value>,
    /// Free-form tags for search.
    pub tags: Vec<String>,
    /// Hidden from discovery (search, list, manifest, flat aliases) but callable by canonical name.
    pub hidden: bool,
    pub(crate) handler: Option<Handler>,
    /// The call shape, computed once when registered (the positional-argument error shows it).
    pub(crate) shape: Option<Arc<str>>,
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
            handler: Some(Handler::Blocking(Arc::new(handler))),
            returns: None,
            shape: None,
        }
    }

    /// An async capability: `handler` returns a future, spawned on a tokio runtime when the snippet
    /// makes the call (the caller's multi-threaded runtime if this is called inside one, else one of
    /// toolplane's own). Calls made before they are awaited run concurrently:
    /// `fs = [fetch(id=i) for i in ids]; rows = [await f for f in fs]`.
    ///
    /// ```
    /// use toolplane::{Capability, Config, Registry, Toolplane};
    /// let registry = std::sync::Arc::new(Registry::new());
    /// registry.register(Capability::new_async("slow/double", |p| async move {
    ///     tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    ///     Ok(serde_json::json!(p["x"].as_i64().unwrap_or(0) * 2))
    /// }).alias("double")).unwrap();
    /// let runtime = Toolplane::with_registry(Config::default(), registry).unwrap();
    /// let r = runtime.execute("fs = [double(x=i) for i in range(3)]\nreturn [await f for f in fs]", None).unwrap();
    /// assert_eq!(r.value_json(), serde_json::json!([0, 2, 4]));
    /// ```
    pub fn new_async<F, Fut>(name: impl Into<String>, handler: F) -> Self
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, HostError>> + Send + 'static,
    {
        let mut capability = Self::new(name, |_| Ok(Value::Null));
        capability.handler = Some(Handler::Async {
            tool: Arc::new(move |params| Box::pin(handler(params))),
            runtime: tool_runtime(),
        });
        capability
    }

    /// A capability over typed arguments: `A` is deserialised from the keyword arguments (a mismatch is
    /// a `TypeError` in the snippet showing the call shape), the result serialised back. The parameter
    /// schema is derived from `A` with `schemars`.
    ///
    /// ```
    /// use toolplane::{Capability, Config, Registry, HostError, Toolplane};
    /// #[derive(serde::Deserialize, toolplane::schemars::JsonSchema)]
    /// #[schemars(crate = "toolplane::schemars")]
    /// struct GetOrder { id: u32 }
    /// let get = Capability::typed("orders/get", |args: GetOrder| {
    ///     if args.id == 0 { return Err(HostError::value("no order 0")); }
    ///     Ok(serde_json::json!({"id": args.id, "total": 9.5}))
    /// });
    /// assert_eq!(get.params_schema["required"], serde_json::json!(["id"]));
    /// let registry = std::sync::Arc::new(Registry::new());
    /// registry.register(get).unwrap();
    /// let runtime = Toolplane::with_registry(Config::default(), registry).unwrap();
    /// assert_eq!(runtime.execute("return (await orders_get(id=3))['total']", None).unwrap().value.get(), "9.5");
    /// let bad = runtime.execute("return await orders_get(id='x')", None).unwrap();
    /// assert_eq!(bad.error.unwrap().error_type, "TypeError");
    /// ```
    pub fn typed<A, R, F>(name: impl Into<String>, handler: F) -> Self
    where
        A: DeserializeOwned + schemars::JsonSchema,
        R: Serialize,
        F: Fn(A) -> Result<R, HostError> + Send + Sync + 'static,
    {
        let name = name.into();
        let label = name.clone();
        Self::new(name, move |params| {
            typed_reply(&label, handler(typed_args(&label, params)?)?)
        })
        .schema(schema_of::<A>())
    }

    /// [`Capability::typed`] for an async handler (see [`Capability::new_async`]).
    pub fn typed_async<A, R, F, Fut>(name: impl Into<String>, handler: F) -> Self
    where
        A: DeserializeOwned + schemars::JsonSchema,
        R: Serialize,
        F: Fn(A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, HostError>> + Send + 'static,
    {
        let name = name.into();
        let label = name.clone();
        let handler = Arc::new(handler);
        Self::new_async(name, move |params| {
            let label = label.clone();
            let handler = handler.clone();
            async move {
                let args = typed_args(&label, params)?;
                typed_reply(&label, handler(args).await?)
            }
        })
        .schema(schema_of::<A>())
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
            returns: None,
            shape: None,
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
    /// Sets the JSON Schema of the value it returns.
    ///
    /// ```
    /// let cap = toolplane::Capability::new("orders/total", |_| Ok(serde_json::json!({"total": 3})))
    ///     .returns(serde_json::json!({"type": "object", "properties": {"total": {"type": "integer"}}}));
    /// assert!(cap.returns.is_some());
    /// ```
    pub fn returns(mut self, schema: Value) -> Self {
        self.returns = Some(schema);
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

/// Whether `alias` is a name every snippet already has: an external, a store binding, a builtin.
pub(crate) fn alias_is_taken_by_python(alias: &str) -> bool {
    crate::namespace::RESERVED_NAMES.contains(&alias)
        || crate::namespace::STORE_SUGAR.contains(&alias)
        || PYTHON_BUILTINS.contains(&alias)
}

/// The names of Python's `builtins` module a snippet sees.
const PYTHON_BUILTINS: &[&str] = &[
    "abs",
    "aiter",
    "all",
    "anext",
    "any",
    "ascii",
    "bin",
    "bool",
    "breakpoint",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "classmethod",
    "compile",
    "complex",
    "copyright",
    "credits",
    "delattr",
    "dict",
    "dir",
    "divmod",
    "enumerate",
    "eval",
    "exec",
    "exit",
    "filter",
    "float",
    "format",
    "frozenset",
    "getattr",
    "globals",
    "hasattr",
    "hash",
    "help",
    "hex",
    "id",
    "input",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "license",
    "list",
    "locals",
    "map",
    "max",
    "memoryview",
    "min",
    "next",
    "object",
    "oct",
    "open",
    "ord",
    "pow",
    "print",
    "property",
    "quit",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "setattr",
    "slice",
    "sorted",
    "staticmethod",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
    "Ellipsis",
    "NotImplemented",
    "BaseException",
    "Exception",
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BufferError",
    "EOFError",
    "ImportError",
    "IndexError",
    "KeyError",
    "KeyboardInterrupt",
    "LookupError",
    "MemoryError",
    "NameError",
    "OSError",
    "RuntimeError",
    "StopIteration",
    "StopAsyncIteration",
    "SyntaxError",
    "SystemError",
    "SystemExit",
    "TypeError",
    "ValueError",
    "ZeroDivisionError",
    "Warning",
    "TimeoutError",
    "PermissionError",
    "ConnectionError",
    "FileNotFoundError",
    "NotImplementedError",
    "RecursionError",
    "UnicodeError",
    "BaseExceptionGroup",
    "ExceptionGroup",
];

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
    /// Shared so that a call takes a reference, not a copy of the schema and description.
    entries: RwLock<Vec<Arc<Capability>>>,
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
            entries: RwLock::new(entries.into_iter().map(Arc::new).collect()),
        }
    }

    /// Adds a capability. Errors: [`Error::DuplicateCapability`](crate::Error::DuplicateCapability)
    /// when its canonical name is taken.
    pub fn register(&self, mut capability: Capability) -> Result<(), crate::error::Error> {
        capability.shape =
            Some(super::call_shape(&capability, crate::namespace::RESERVED_NAMES).into());
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if entries.iter().any(|c| c.name == capability.name) {
            return Err(crate::error::Error::DuplicateCapability(capability.name));
        }
        entries.push(Arc::new(capability));
        Ok(())
    }

    fn find(&self, name: &str) -> Option<Arc<Capability>> {
        self.entries
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|c| c.name == name)
            .cloned()
    }

    /// The capability with this canonical name (hidden ones included).
    pub fn get(&self, name: &str) -> Option<Capability> {
        self.find(name).map(|c| (*c).clone())
    }

    /// Every capability that is not hidden, in registration order.
    pub fn visible(&self) -> Vec<Capability> {
        self.entries
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|c| !c.hidden)
            .map(|c| (**c).clone())
            .collect()
    }

    /// Flat Python name → canonical name, for the visible capabilities with identifier aliases.
    pub fn callable_namespace(&self) -> Vec<(String, String)> {
        self.bindable()
            .into_iter()
            .map(|(alias, name, _)| (alias, name))
            .collect()
    }

    /// Flat name, canonical name and call shape of each bindable capability (as
    /// [`Registry::callable_namespace`]).
    ///
    /// An alias is bound only when it is nobody else's: not an external or store binding
    /// ([`crate::namespace::RESERVED_NAMES`], [`crate::namespace::STORE_SUGAR`]), not a Python builtin,
    /// and not the alias of another visible capability (then neither is bound, whatever the order of
    /// registration). The canonical names always work through `call_tool`.
    pub(crate) fn bindable(&self) -> Vec<(String, String, Arc<str>)> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        let mut count: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for alias in entries
            .iter()
            .filter(|c| !c.hidden)
            .filter_map(|c| c.python_alias())
        {
            *count.entry(alias).or_default() += 1;
        }
        entries
            .iter()
            .filter(|c| !c.hidden)
            .filter_map(|c| {
                let alias = c.python_alias()?;
                (count[alias] == 1 && !alias_is_taken_by_python(alias)).then(|| {
                    (
                        alias.to_string(),
                        c.name.clone(),
                        c.shape.clone().unwrap_or_else(|| "".into()),
                    )
                })
            })
            .collect()
    }

    /// The canonical names of the visible capabilities whose alias is `alias`, for a warning about a
    /// collision.
    #[cfg(feature = "mcp")]
    pub(crate) fn alias_holders(&self, alias: &str) -> Vec<String> {
        self.entries
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|c| !c.hidden && c.python_alias() == Some(alias))
            .map(|c| c.name.clone())
            .collect()
    }

    /// Starts a call: a blocking tool answers now (a panic becomes a `RuntimeError`), an async one
    /// hands back its future. A `TypeError` from the tool gets the capability's call shape appended.
    pub(crate) fn invoke(&self, name: &str, params: Value) -> Invocation {
        let Some(capability) = self.find(name) else {
            return Invocation::Ready(Err(unknown_capability(name)));
        };
        invoke_capability(&capability, name, params)
    }

    /// Calls a registered capability's handler and waits for its answer (an async tool runs on its
    /// runtime meanwhile). Discovery-only entries refuse.
    pub fn call(&self, name: &str, params: Value) -> Result<Value, HostError> {
        wait_for(name, self.invoke(name, params))
    }
}

/// Waits for a call started by [`invoke_capability`].
pub(crate) fn wait_for(name: &str, invocation: Invocation) -> Result<Value, HostError> {
    match invocation {
        Invocation::Ready(result) => result,
        Invocation::Spawn(future, runtime) => {
            let (tx, rx) = std::sync::mpsc::sync_channel(1);
            let _ = spawn_tool(name, future, &runtime, move |result| {
                let _ = tx.send(result);
            });
            rx.recv()
                .unwrap_or_else(|_| Err(HostError::runtime(format!("{name} was dropped"))))
        }
    }
}

/// Starts a call of `capability` (registered as `name`): answered at once, or a future to spawn.
pub(crate) fn invoke_capability(
    capability: &Arc<Capability>,
    name: &str,
    params: Value,
) -> Invocation {
    {
        match &capability.handler {
            None => Invocation::Ready(Err(HostError::runtime(
                if name.starts_with("toolplane:artifacts/") {
                    "artifact capabilities are dispatched by the runtime bridge, not the registry"
                } else {
                    "result capabilities are dispatched by the runtime bridge, not the registry"
                },
            ))),
            Some(Handler::Blocking(handler)) => {
                let outcome =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(params)));
                Invocation::Ready(match outcome {
                    Ok(result) => result.map_err(|e| with_call_shape(e, capability)),
                    Err(panic) => Err(panicked(name, panic_text(panic.as_ref()))),
                })
            }
            Some(Handler::Async { tool, runtime }) => {
                let future = tool(params);
                let shown = capability.clone();
                Invocation::Spawn(
                    Box::pin(async move { future.await.map_err(|e| with_call_shape(e, &shown)) }),
                    runtime.clone(),
                )
            }
        }
    }
}

/// Runs an async tool's future on `runtime`; `on_done` gets its answer, or a `RuntimeError` if it
/// panicked.
/// Spawns an async tool's future; `on_done` gets its answer. Aborting the returned handle drops the
/// future (its run ended: an MCP client's call future then sends `notifications/cancelled`).
pub(crate) fn spawn_tool(
    name: &str,
    future: ToolFuture,
    runtime: &tokio::runtime::Handle,
    on_done: impl FnOnce(Result<Value, HostError>) + Send + 'static,
) -> tokio::task::AbortHandle {
    let name = name.to_string();
    let task = runtime.spawn(future);
    let abort = task.abort_handle();
    runtime.spawn(async move {
        on_done(match task.await {
            Ok(result) => result,
            Err(e) if e.is_panic() => Err(panicked(&name, panic_text(e.into_panic().as_ref()))),
            Err(_) => Err(HostError::runtime(format!(
                "{name} was cancelled: its run ended, or its runtime is shutting down"
            ))),
        });
    });
    abort
}

fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into())
}

fn panicked(name: &str, what: String) -> HostError {
    HostError::runtime(format!(
        "capability {name} failed inside the host (it panicked: {what})"
    ))
}

/// A tool's `TypeError` (bad arguments) tells the snippet how to call it (the shape cached at
/// registration).
fn with_call_shape(error: HostError, capability: &Capability) -> HostError {
    match &capability.shape {
        Some(shape) if error.base == super::BuiltinBase::TypeError => {
            HostError::type_error(format!("{}; call it as {shape}", error.message))
        }
        _ => error,
    }
}

/// The longest capability name a call may give, in bytes: longer ones are unknown without a lookup
/// (and without being copied: the name is a snippet's data).
pub const MAX_CAPABILITY_NAME_BYTES: usize = 512;

/// How many characters of a long name an error quotes.
const NAME_PREVIEW_CHARS: usize = 100;

/// The `LookupError` for a name nobody registered.
pub fn unknown_capability(name: &str) -> HostError {
    let shown = if name.len() > NAME_PREVIEW_CHARS {
        let preview: String = name.chars().take(NAME_PREVIEW_CHARS).collect();
        format!("{preview}… ({} bytes)", name.len())
    } else {
        name.to_string()
    };
    unknown_capability_shown(&shown)
}

/// The `LookupError` for a name too long to hold, given its characters (only the first are read) and
/// its size.
pub(crate) fn unknown_long_capability(
    chars: impl Iterator<Item = char>,
    bytes: usize,
) -> HostError {
    let preview: String = chars.take(NAME_PREVIEW_CHARS).collect();
    unknown_capability_shown(&format!("{preview}… ({bytes} bytes)"))
}

fn unknown_capability_shown(shown: &str) -> HostError {
    HostError::lookup(format!(
        "Unknown capability: {shown}. Capability names are canonical (e.g. 'orders/get'); list them with \
         search_capabilities or the toolplane://namespace resource."
    ))
}
