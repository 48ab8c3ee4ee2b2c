//! `Toolplane`: one runtime owns its stores, its bridge and its sandbox engine; `execute` runs a
//! snippet in a fresh VM.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::cancel::{CancelOnDrop, CancelToken};
use crate::capabilities::{Bridge, Registry};
use crate::config::Isolation;
use crate::config::{Config, Limits};
use crate::engine::{Engine, RunRequest, Workers};
use crate::error::Error;
use crate::execution::{ArtifactRef, ExecutionResult};
use crate::stores::{ArtifactInfo, ArtifactStore, ResultStore};
use crate::vm::{Bindings, RunLimits, RunSpec};

use crate::namespace::RESERVED_NAMES;

/// A run's inputs: names bound as globals for that run only. Give `None`, a `serde_json::Map`, or a
/// `serde_json::Value` that is an object (`json!({"h": handle})`) or `null`.
///
/// ```
/// use serde_json::json;
/// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
/// assert_eq!(runtime.execute("return 1", None).unwrap().value.get(), "1");
/// assert_eq!(runtime.execute("return a + b", json!({"a": 1, "b": 2})).unwrap().value.get(), "3");
/// assert!(runtime.execute("return 1", json!([1])).is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs(Result<Option<Map<String, Value>>, &'static str>);

impl Default for Inputs {
    fn default() -> Self {
        Self(Ok(None))
    }
}

impl Inputs {
    fn into_map(self) -> Result<Option<Map<String, Value>>, Error> {
        self.0.map_err(Error::InputsNotAnObject)
    }
}

impl From<Option<Map<String, Value>>> for Inputs {
    fn from(inputs: Option<Map<String, Value>>) -> Self {
        Self(Ok(inputs))
    }
}

impl From<Map<String, Value>> for Inputs {
    fn from(inputs: Map<String, Value>) -> Self {
        Self(Ok(Some(inputs)))
    }
}

impl From<Value> for Inputs {
    fn from(inputs: Value) -> Self {
        Self(match inputs {
            Value::Object(map) => Ok(Some(map)),
            Value::Null => Ok(None),
            Value::Bool(_) => Err("a boolean"),
            Value::Number(_) => Err("a number"),
            Value::String(_) => Err("a string"),
            Value::Array(_) => Err("an array"),
        })
    }
}

/// A toolplane runtime: runs snippets in a sandbox whose only door is its bridge.
///
/// ```
/// use toolplane::{Config, Toolplane};
/// let runtime = Toolplane::new(Config::default()).unwrap();
/// let first = runtime.execute("return await save_result({'rows': [1, 2, 3]})", None).unwrap();
/// let handle: String = first.value_as().unwrap();
/// let inputs = serde_json::json!({"h": handle});
/// let second = runtime.execute("rows = await load_result(h)\nreturn sum(rows['rows'])", inputs).unwrap();
/// assert_eq!(second.value.get(), "6");
/// ```
#[derive(Debug)]
pub struct Toolplane {
    config: Config,
    bridge: Bridge,
    workers: Workers,
    engine: Arc<Engine>,
    /// The `[cli]` commands running now, killed with the runtime.
    commands: crate::commands::Commands,
    #[cfg(feature = "mcp")]
    mcp_servers: Vec<crate::mcp_client::ServerStatus>,
    /// `[stores] url`'s Redis, when set: every store of this runtime (and its clients') is there.
    #[cfg(feature = "redis")]
    redis: Option<Arc<crate::stores::redis::RedisStores>>,
}

impl Toolplane {
    /// A runtime with its own registry (holding only the store capabilities). Errors: an invalid
    /// config (what [`Config::validate`] refuses).
    pub fn new(config: Config) -> Result<Self, Error> {
        Self::with_registry(config, Arc::new(Registry::new()))
    }

    /// A runtime over a registry that may be shared with other runtimes; its stores are its own.
    /// Errors: an invalid config.
    pub fn with_registry(config: Config, registry: Arc<Registry>) -> Result<Self, Error> {
        Self::assemble(config, registry, Workers::new())
    }

    fn assemble(config: Config, registry: Arc<Registry>, workers: Workers) -> Result<Self, Error> {
        config.check()?;
        if effective_isolation(&config) == Isolation::Process {
            crate::engine::worker_executable(config.toolplane.worker_path.as_deref())
                .map_err(Error::NoWorker)?;
        }
        #[cfg(feature = "mcp")]
        let mcp_servers = connect_mcp_servers(&config, &registry)?;
        #[cfg(not(feature = "mcp"))]
        refuse_mcp_servers(&config)?;
        #[cfg(feature = "redis")]
        let redis = connect_redis(&config)?;
        #[cfg(not(feature = "redis"))]
        refuse_redis(&config)?;
        let (results, artifacts) = make_stores(
            &config,
            #[cfg(feature = "redis")]
            redis.as_ref(),
            &crate::stores::new_handle("runtime-"),
        );
        let engine = workers.engine(
            effective_isolation(&config),
            config.toolplane.worker_path.as_deref(),
            config.limits.max_recursion_depth,
            false,
        );
        let commands = crate::commands::Commands::default();
        let audit = crate::audit::AuditLog::from_config(&config.audit).map(Arc::new);
        Ok(Self {
            bridge: Bridge::new(results, artifacts, registry)
                .with_cli(
                    crate::commands::capability(&config, &commands, audit.clone()),
                    &config.cli.allow,
                )
                .with_audit(audit),
            config,
            workers,
            engine: Arc::new(engine),
            commands,
            #[cfg(feature = "mcp")]
            mcp_servers,
            #[cfg(feature = "redis")]
            redis,
        })
    }

    /// What became of each `[mcp.servers.*]` of the config: connected (with its tool count) or
    /// skipped (with why). Their tools are capabilities `mcp:<server>/<tool>`.
    #[cfg(feature = "mcp")]
    pub fn mcp_servers(&self) -> &[crate::mcp_client::ServerStatus] {
        &self.mcp_servers
    }

    /// A builder: config, isolation, tools, registry, then [`ToolplaneBuilder::build`].
    ///
    /// ```
    /// use toolplane::{Capability, Isolation, Limits, Toolplane};
    /// let runtime = Toolplane::builder()
    ///     .isolation(Isolation::InProcess)
    ///     .limits(Limits::default().with_timeout(std::time::Duration::from_secs(5)))
    ///     .tool(Capability::new("math/double", |p| Ok(serde_json::json!(p["x"].as_i64().unwrap_or(0) * 2))).alias("double"))
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(runtime.execute("return await double(x=21)", None).unwrap().value.get(), "42");
    /// ```
    pub fn builder() -> ToolplaneBuilder {
        ToolplaneBuilder::default()
    }

    /// A runtime from a `toolplane.toml`.
    pub fn from_config_file(path: impl AsRef<Path>) -> Result<Self, Error> {
        Self::new(Config::load(path.as_ref())?)
    }

    /// The config this runtime was built from.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The stores and registry, for the MCP server and the CLI.
    #[cfg(feature = "mcp")]
    pub(crate) fn bridge(&self) -> &Bridge {
        &self.bridge
    }

    /// The capabilities snippets may call: the builder's tools, the config's MCP servers' tools, and
    /// any registered later (runs see a capability from the run after it is registered).
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// runtime.registry().register(toolplane::Capability::new("x/echo", |p| Ok(p)).alias("echo")).unwrap();
    /// assert_eq!(runtime.execute("return await echo(a=1)", None).unwrap().value.get(), r#"{"a": 1}"#);
    /// ```
    pub fn registry(&self) -> &Arc<Registry> {
        self.bridge.registry()
    }

    /// This runtime's result store.
    pub fn results(&self) -> &Arc<ResultStore> {
        self.bridge.results()
    }

    /// This runtime's artifact store.
    pub fn artifacts(&self) -> &Arc<ArtifactStore> {
        self.bridge.artifacts()
    }

    /// Cleans up now, for a process about to exit without dropping the runtime (a signal handler's
    /// thread): removes the artifact directory and stops the worker processes, killing runs in flight.
    /// The runtime stays usable: a later run starts new workers, and the artifact store starts empty.
    /// Workers shared with other runtimes ([`ToolplaneBuilder::workers`]) stop for them too.
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// runtime.execute("await save_artifact(b'x')", None).unwrap();
    /// let dir = runtime.artifacts().root_dir().unwrap();
    /// runtime.shutdown();
    /// assert!(!dir.exists());
    /// ```
    pub fn shutdown(&self) {
        self.artifacts().close();
        self.workers.stop_workers();
        self.commands.live.kill_all();
    }

    /// Asks the person, through `ask`, to allow a binary the `[cli]` allowlist refuses, until the
    /// guard is dropped (the MCP server, for the run of one request). Grants hold for the life of the
    /// runtime.
    #[cfg(feature = "mcp")]
    pub(crate) fn ask_about_refused_binaries(
        &self,
        ask: crate::commands::AskPerson,
    ) -> crate::commands::AskGuard {
        self.commands.ask_with(ask)
    }

    /// Kills the `[cli]` commands still running (with what they started): a run that ended at its
    /// limit has its calls aborted in the background, and a process about to exit must not leave
    /// them behind. Dropping the runtime does the same.
    #[cfg(feature = "cli")]
    pub(crate) fn end_commands(&self) {
        self.commands.live.kill_all();
    }

    /// The canonical JSON text saved under `handle` (what the MCP resource serves). Errors:
    /// [`Error::Store`].
    pub fn result_payload(&self, handle: &str) -> Result<Arc<str>, Error> {
        Ok(self.results().payload(handle)?)
    }

    /// The bytes and metadata saved under an artifact handle. Errors: [`Error::Store`].
    pub fn artifact(&self, handle: &str) -> Result<(ArtifactInfo, Vec<u8>), Error> {
        let info = self.artifacts().describe(handle)?;
        Ok((info, self.artifacts().load(handle)?))
    }

    /// Where this runtime's snippets run: `[toolplane] isolation`; when absent, process isolation on
    /// Linux and in process elsewhere.
    pub fn isolation(&self) -> Isolation {
        effective_isolation(&self.config)
    }

    /// Starts the sandbox machinery now (with process isolation, the zygote and its first worker), so
    /// that the first run does not pay for it. A long-lived host (the MCP server) calls this at start;
    /// an `Err` says why runs would fail.
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// runtime.prestart().unwrap(); // in-process: nothing to start
    /// ```
    pub fn prestart(&self) -> Result<(), Error> {
        self.engine.prestart().map_err(Error::SandboxStart)
    }

    /// Runs a snippet in a fresh VM. `inputs` become globals. Errors in the snippet are in the result;
    /// `Err` is only for inputs that collide with the runtime's bindings.
    pub fn execute(&self, code: &str, inputs: impl Into<Inputs>) -> Result<ExecutionResult, Error> {
        self.execute_cancellable(code, inputs, &CancelToken::new())
    }

    /// [`Toolplane::execute`], stopped early when `cancel` is cancelled (from another thread): the
    /// result is then a `CancelledError`. See [`CancelToken`].
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let cancel = toolplane::CancelToken::new();
    /// cancel.cancel();
    /// let result = runtime.execute_cancellable("return 1", None, &cancel).unwrap();
    /// assert_eq!(result.error.unwrap().error_type, "CancelledError");
    /// ```
    pub fn execute_cancellable(
        &self,
        code: &str,
        inputs: impl Into<Inputs>,
        cancel: &CancelToken,
    ) -> Result<ExecutionResult, Error> {
        execute_fresh(
            &self.engine,
            &self.bridge,
            &self.config,
            code,
            inputs,
            cancel,
        )
    }

    /// [`Toolplane::execute`] for async code: the run goes to tokio's blocking pool, so the executor's
    /// threads are never blocked. Must be called inside a tokio runtime. Dropping the future cancels
    /// the run (see [`CancelToken`]), so `tokio::time::timeout` or a `select!` stops it.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let result = runtime.execute_async("return 6 * 7", None).await.unwrap();
    /// assert_eq!(result.value.get(), "42");
    /// # }
    /// ```
    pub async fn execute_async(
        &self,
        code: &str,
        inputs: impl Into<Inputs>,
    ) -> Result<ExecutionResult, Error> {
        let inputs = inputs.into().into_map()?;
        execute_on_blocking_pool(
            &self.engine,
            &self.bridge,
            &self.config,
            false,
            code,
            inputs,
        )
        .await
    }

    /// A persistent session: one VM whose variables survive across its runs, sharing this runtime's
    /// stores. Sessions never share a VM with each other.
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let session = runtime.session();
    /// session.execute("x = 41", None).unwrap();
    /// assert_eq!(session.execute("x + 1", None).unwrap().value.get(), "42");
    /// ```
    pub fn session(&self) -> Session {
        Session::new(&self.workers, &self.bridge, &self.config)
    }

    /// Stores of its own for the client `name`, over this runtime's capabilities, `[cli]`, audit
    /// log and workers: what a host serving several clients gives each, so that a handle one saves
    /// is "unknown or expired" to every other. The stores have the config's caps, each its own;
    /// the artifact directory goes with the scope. `name` appears in the audit log's `run_start`.
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let (alice, bob) = (runtime.client_scope("alice"), runtime.client_scope("bob"));
    /// let saved = alice.execute("return await save_result([1, 2])", None).unwrap();
    /// let handle: String = saved.value_as().unwrap();
    /// assert!(alice.results().load(&handle).is_ok());
    /// let stolen = bob.execute("return await load_result(h)", serde_json::json!({"h": handle})).unwrap();
    /// assert_eq!(stolen.error.unwrap().error_type, "ValueError");
    /// ```
    pub fn client_scope(&self, name: &str) -> ClientScope {
        let (results, artifacts) = make_stores(
            &self.config,
            #[cfg(feature = "redis")]
            self.redis.as_ref(),
            name,
        );
        ClientScope {
            bridge: self.bridge.for_client(name, results, artifacts),
            config: self.config.clone(),
            engine: self.engine.clone(),
            workers: self.workers.clone(),
        }
    }
}

/// One client's stores over a runtime's capabilities and workers: see [`Toolplane::client_scope`].
/// Fresh runs share the runtime's workers; [`ClientScope::session`] makes a session with these
/// stores. Dropping the scope removes its artifact directory.
#[derive(Debug)]
pub struct ClientScope {
    bridge: Bridge,
    config: Config,
    engine: Arc<Engine>,
    workers: Workers,
}

impl ClientScope {
    /// The client's name, as given to [`Toolplane::client_scope`].
    pub fn name(&self) -> &str {
        self.bridge.client().unwrap_or_default()
    }

    /// This client's result store.
    pub fn results(&self) -> &Arc<ResultStore> {
        self.bridge.results()
    }

    /// This client's artifact store.
    pub fn artifacts(&self) -> &Arc<ArtifactStore> {
        self.bridge.artifacts()
    }

    /// [`Toolplane::execute`] with this client's stores.
    pub fn execute(&self, code: &str, inputs: impl Into<Inputs>) -> Result<ExecutionResult, Error> {
        self.execute_cancellable(code, inputs, &CancelToken::new())
    }

    /// [`Toolplane::execute_cancellable`] with this client's stores.
    pub fn execute_cancellable(
        &self,
        code: &str,
        inputs: impl Into<Inputs>,
        cancel: &CancelToken,
    ) -> Result<ExecutionResult, Error> {
        execute_fresh(
            &self.engine,
            &self.bridge,
            &self.config,
            code,
            inputs,
            cancel,
        )
    }

    /// A persistent session of its own with this client's stores (see [`Toolplane::session`]).
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let alice = runtime.client_scope("alice");
    /// let session = alice.session();
    /// session.execute("h = await save_result('mine')", None).unwrap();
    /// assert_eq!(alice.results().list().len(), 1);
    /// assert!(runtime.results().list().is_empty());
    /// ```
    pub fn session(&self) -> Session {
        Session::new(&self.workers, &self.bridge, &self.config)
    }
}

impl Drop for ClientScope {
    fn drop(&mut self) {
        self.artifacts().close();
    }
}

/// A persistent session (see [`Toolplane::session`]). Top-level `return` ends a run and keeps the
/// state; without it the value of a trailing expression is the run's value. A failed run keeps what
/// ran before the error; `await reset_session()` (or [`Session::reset`]) clears the namespace after the
/// run. Per-run `inputs` are visible during that run only and removed afterwards, unless the snippet
/// rebinds them.
#[derive(Debug)]
pub struct Session {
    bridge: Bridge,
    config: Config,
    engine: Arc<Engine>,
}

impl Session {
    fn new(workers: &Workers, bridge: &Bridge, config: &Config) -> Self {
        Self {
            bridge: bridge.clone(),
            config: config.clone(),
            engine: Arc::new(workers.engine(
                effective_isolation(config),
                config.toolplane.worker_path.as_deref(),
                config.limits.max_recursion_depth,
                true,
            )),
        }
    }

    /// Runs a snippet in this session's VM.
    pub fn execute(&self, code: &str, inputs: impl Into<Inputs>) -> Result<ExecutionResult, Error> {
        self.execute_cancellable(code, inputs, &CancelToken::new())
    }

    /// [`Session::execute`], stopped early when `cancel` is cancelled: the result is a
    /// `CancelledError`, and with process isolation the session's variables are rolled back to their
    /// state before the run (in process they may be partially updated, as after a time limit).
    ///
    /// ```
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let session = runtime.session();
    /// let cancel = toolplane::CancelToken::new();
    /// let stopper = cancel.clone();
    /// std::thread::spawn(move || {
    ///     std::thread::sleep(std::time::Duration::from_millis(200));
    ///     stopper.cancel();
    /// });
    /// let result = session.execute_cancellable("while True: pass", None, &cancel).unwrap();
    /// assert_eq!(result.error.unwrap().error_type, "CancelledError");
    /// assert!(session.execute("return 1", None).unwrap().ok());
    /// ```
    pub fn execute_cancellable(
        &self,
        code: &str,
        inputs: impl Into<Inputs>,
        cancel: &CancelToken,
    ) -> Result<ExecutionResult, Error> {
        let inputs = inputs.into().into_map()?;
        execute_on(
            &self.engine,
            &self.bridge,
            &self.config,
            true,
            code,
            inputs,
            cancel,
        )
    }

    /// [`Session::execute`] for async code (see [`Toolplane::execute_async`]). Runs of one session
    /// still take turns. Dropping the future cancels the run.
    pub async fn execute_async(
        &self,
        code: &str,
        inputs: impl Into<Inputs>,
    ) -> Result<ExecutionResult, Error> {
        let inputs = inputs.into().into_map()?;
        execute_on_blocking_pool(&self.engine, &self.bridge, &self.config, true, code, inputs).await
    }

    /// Clears the session's variables now; saved results and artifacts are unaffected.
    pub fn reset(&self) {
        self.engine.reset_session();
    }
}

/// Builds a [`Toolplane`]: see [`Toolplane::builder`].
#[derive(Debug, Default)]
pub struct ToolplaneBuilder {
    config: Option<Config>,
    isolation: Option<Isolation>,
    registry: Option<Arc<Registry>>,
    tools: Vec<crate::capabilities::Capability>,
    workers: Option<Workers>,
    limits: Option<Limits>,
}

impl ToolplaneBuilder {
    /// The config (default: [`Config::default`]).
    pub fn config(mut self, config: Config) -> Self {
        self.config = Some(config);
        self
    }

    /// The config from a `toolplane.toml`.
    pub fn config_file(self, path: impl AsRef<Path>) -> Result<Self, Error> {
        Ok(self.config(Config::load(path.as_ref())?))
    }

    /// Where snippets run (overrides the config's `[toolplane] isolation`).
    pub fn isolation(mut self, isolation: Isolation) -> Self {
        self.isolation = Some(isolation);
        self
    }

    /// Every limit at once, over the config's (`[limits]` and `[session] max_memory_mb`). Checked
    /// when the runtime is built.
    ///
    /// ```
    /// use std::time::Duration;
    /// use toolplane::{Isolation, Limits, Toolplane};
    /// let runtime = Toolplane::builder()
    ///     .isolation(Isolation::InProcess)
    ///     .limits(Limits::default().with_timeout(Duration::from_millis(200)))
    ///     .build()
    ///     .unwrap();
    /// let slow = runtime.execute("while True:\n    pass", None).unwrap();
    /// assert_eq!(slow.error.unwrap().error_type, "TimeoutError");
    /// ```
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// A registry to use (and share with other runtimes); tools given to [`Self::tool`] are added to it.
    pub fn registry(mut self, registry: Arc<Registry>) -> Self {
        self.registry = Some(registry);
        self
    }

    /// A host capability for snippets to call.
    pub fn tool(mut self, capability: crate::capabilities::Capability) -> Self {
        self.tools.push(capability);
        self
    }

    /// Worker processes to share with the other runtimes built with them (default: the runtime's
    /// own). See [`Workers`].
    pub fn workers(mut self, workers: &Workers) -> Self {
        self.workers = Some(workers.clone());
        self
    }

    /// The runtime. Errors: an invalid config, or a tool whose canonical name is taken.
    pub fn build(self) -> Result<Toolplane, Error> {
        let mut config = self.config.unwrap_or_default();
        if let Some(isolation) = self.isolation {
            config.toolplane.isolation = Some(isolation);
        }
        if let Some(limits) = self.limits {
            config.limits = limits;
        }
        let registry = self.registry.unwrap_or_default();
        for tool in self.tools {
            registry.register(tool)?;
        }
        Toolplane::assemble(config, registry, self.workers.unwrap_or_default())
    }
}

fn bindings(
    bridge: &Bridge,
    config: &Config,
    inputs: &Map<String, Value>,
) -> Result<Bindings, Error> {
    let capabilities = bridge.registry().bindable();
    // `[cli]`'s names: `cli`, `cli_run` and the allowed binaries no capability alias takes.
    let cli = crate::commands::bound_names(config, |name| {
        capabilities.iter().any(|(alias, ..)| alias == name)
    });
    let cli_taken = |name: &str| {
        cli.as_ref().is_some_and(|names| {
            crate::commands::ROOT_NAMES.contains(&name) || names.iter().any(|n| n == name)
        })
    };
    let mut collisions: Vec<&str> = inputs
        .keys()
        .map(String::as_str)
        .filter(|name| {
            RESERVED_NAMES.contains(name)
                || capabilities.iter().any(|(alias, ..)| alias == name)
                || cli_taken(name)
        })
        .collect();
    if !collisions.is_empty() {
        collisions.sort_unstable();
        return Err(Error::NamespaceCollision(collisions.join(", ")));
    }
    // An alias never takes call_tool or reset_session, nor `cli` and `cli_run` when they are bound.
    let capabilities = capabilities
        .into_iter()
        .filter(|(alias, ..)| {
            let alias = alias.as_str();
            let cli_root = cli.is_some() && crate::commands::ROOT_NAMES.contains(&alias);
            !(RESERVED_NAMES.contains(&alias) || cli_root)
        })
        .collect();
    Ok(Bindings { capabilities, cli })
}

/// Connects the config's `[mcp.servers.*]` and registers their tools (each server bounded by
/// `[mcp] discovery_timeout_seconds`); a warning event (`tracing`) for each server that is skipped.
#[cfg(feature = "mcp")]
fn connect_mcp_servers(
    config: &Config,
    registry: &Arc<Registry>,
) -> Result<Vec<crate::mcp_client::ServerStatus>, Error> {
    if config.mcp.servers.is_empty() {
        return Ok(Vec::new());
    }
    let statuses = crate::mcp_client::connect_servers_blocking(&config.mcp, registry);
    for status in &statuses {
        if let (crate::mcp_client::ServerStatus::Unavailable { name, .. }, Some(warning)) =
            (status, status.warning())
        {
            tracing::warn!(server = name.as_str(), "{warning}");
        }
    }
    Ok(statuses)
}

#[cfg(not(feature = "mcp"))]
fn refuse_mcp_servers(config: &Config) -> Result<(), Error> {
    if config.mcp.servers.is_empty() {
        return Ok(());
    }
    Err(Error::Config(crate::error::ConfigError::about(
        "mcp.servers",
        "[mcp.servers.*] needs toolplane built with its `mcp` feature (the default)",
    )))
}

/// A result store and an artifact store for `scope`: in this process, or on `[stores] url`'s Redis
/// under the scope's name (the same name reaches the same entries from every replica).
fn make_stores(
    config: &Config,
    #[cfg(feature = "redis")] redis: Option<&Arc<crate::stores::redis::RedisStores>>,
    #[cfg_attr(not(feature = "redis"), allow(unused_variables))] scope: &str,
) -> (Arc<ResultStore>, Arc<ArtifactStore>) {
    #[cfg(feature = "redis")]
    if let Some(redis) = redis {
        return (
            Arc::new(ResultStore::on_redis(&config.results, redis, scope)),
            Arc::new(ArtifactStore::on_redis(&config.artifacts, redis, scope)),
        );
    }
    (
        Arc::new(ResultStore::new(&config.results)),
        Arc::new(ArtifactStore::new(&config.artifacts)),
    )
}

/// `[stores] url`'s Redis, connected (its secret reference read first), or `None` for the
/// in-process stores. Errors: the URL cannot be read or Redis does not answer.
#[cfg(feature = "redis")]
fn connect_redis(config: &Config) -> Result<Option<Arc<crate::stores::redis::RedisStores>>, Error> {
    let url = config.stores.url.trim();
    if url.is_empty() {
        return Ok(None);
    }
    let refused = |why: String| Error::Config(crate::error::ConfigError::about("stores.url", why));
    let url = resolve_store_url(url).map_err(&refused)?;
    crate::stores::redis::RedisStores::connect(&url, &config.stores.prefix)
        .map(Some)
        .map_err(|why| refused(format!("stores.url: cannot use the store on Redis: {why}")))
}

/// The URL a `[stores] url` names: itself, or the value of the `env://` or `keyring://` it refers
/// to.
#[cfg(feature = "redis")]
fn resolve_store_url(url: &str) -> Result<String, String> {
    #[cfg(feature = "mcp")]
    {
        let named = std::collections::BTreeMap::from([(String::new(), url.to_string())]);
        crate::mcp_client::resolve_secrets("stores.url", &named)
            .map(|mut resolved| resolved.pop().map(|(_, url)| url).unwrap_or_default())
    }
    #[cfg(not(feature = "mcp"))]
    match url.strip_prefix("env://") {
        Some(var) => std::env::var(var)
            .map_err(|_| format!("stores.url references env://{var} but it is not set")),
        None if url.starts_with("keyring://") => {
            Err("stores.url: keyring:// needs toolplane built with its `mcp` feature".into())
        }
        None => Ok(url.to_string()),
    }
}

#[cfg(not(feature = "redis"))]
fn refuse_redis(config: &Config) -> Result<(), Error> {
    if config.stores.url.trim().is_empty() {
        return Ok(());
    }
    Err(Error::Config(crate::error::ConfigError::about(
        "stores.url",
        "[stores] url needs toolplane built with its `redis` feature (part of `cli`)",
    )))
}

/// The error of a snippet over `[limits] max_snippet_bytes`.
pub(crate) fn snippet_too_large(size: usize, limit: usize) -> String {
    format!(
        "the snippet is {size} bytes, over the limit of {limit} bytes ([limits] max_snippet_bytes); \
         send less code and keep data in the stores or inputs"
    )
}

/// `[toolplane] isolation`, or the safe engine when absent: process isolation where it runs (Linux),
/// in process elsewhere.
fn effective_isolation(config: &Config) -> Isolation {
    config
        .toolplane
        .isolation
        .unwrap_or_else(Isolation::default_here)
}

/// [`execute_on`] on tokio's blocking pool, so an async caller's executor thread never blocks.
async fn execute_on_blocking_pool(
    engine: &Arc<Engine>,
    bridge: &Bridge,
    config: &Config,
    session: bool,
    code: &str,
    inputs: Option<Map<String, Value>>,
) -> Result<ExecutionResult, Error> {
    let (engine, bridge, config, code) = (
        engine.clone(),
        bridge.clone(),
        config.clone(),
        code.to_string(),
    );
    let cancel = CancelToken::new();
    // Dropping this future (a select, a timeout, an aborted task) cancels the run.
    let cancel_on_drop = CancelOnDrop::new(cancel.clone());
    let outcome = tokio::task::spawn_blocking(move || {
        execute_on(&engine, &bridge, &config, session, &code, inputs, &cancel)
    })
    .await;
    cancel_on_drop.disarm();
    outcome.map_err(Error::Async)?
}

/// A fresh run on `engine` with `bridge`'s stores: what [`Toolplane`] and [`ClientScope`] both do.
fn execute_fresh(
    engine: &Engine,
    bridge: &Bridge,
    config: &Config,
    code: &str,
    inputs: impl Into<Inputs>,
    cancel: &CancelToken,
) -> Result<ExecutionResult, Error> {
    let inputs = inputs.into().into_map()?;
    execute_on(engine, bridge, config, false, code, inputs, cancel)
}

fn execute_on(
    engine: &Engine,
    bridge: &Bridge,
    config: &Config,
    session: bool,
    code: &str,
    inputs: Option<Map<String, Value>>,
    cancel: &CancelToken,
) -> Result<ExecutionResult, Error> {
    let inputs = inputs.unwrap_or_default();
    let bindings = bindings(bridge, config, &inputs)?;
    if cancel.is_cancelled() {
        return Ok(ExecutionResult::failed(
            crate::cancel::CANCELLED_ERROR,
            format!(
                "{}; the run did not start",
                crate::cancel::CANCELLED_MESSAGE
            ),
            0.0,
        ));
    }
    // After the bindings check (a collision is an `Err` whatever the size), before anything is sent.
    if code.len() > config.limits.max_snippet_bytes {
        return Ok(ExecutionResult::failed(
            "ValueError",
            snippet_too_large(code.len(), config.limits.max_snippet_bytes),
            0.0,
        ));
    }
    let limits = RunLimits {
        timeout: Duration::from_secs_f64(config.limits.timeout_seconds),
        max_output_bytes: config.limits.max_output_bytes,
        recursion_limit: config.limits.max_recursion_depth,
        max_pending_calls: config.limits.max_pending_calls,
        // A session's cap is cumulative over its runs ([session] max_memory_mb).
        max_memory_mb: if session {
            config.limits.session_max_memory_mb
        } else {
            config.limits.max_memory_mb
        },
    };
    let audited = bridge
        .audit()
        .map(|log| log.start_run(code, bridge.client()));
    let run_bridge = match &audited {
        Some(run) => bridge.for_run(&run.run_id),
        None => bridge.clone(),
    };
    let reply = engine.run(RunRequest {
        spec: RunSpec {
            code: code.to_string(),
            inputs,
            bindings,
            limits,
            results_enabled: bridge.results().is_enabled(),
            artifacts_enabled: bridge.artifacts().is_enabled(),
        },
        bridge: run_bridge,
        cancel: cancel.clone(),
    });
    let mut result = reply.result;
    result.artifacts = reply
        .saved_artifacts
        .iter()
        .filter_map(|handle| bridge.artifacts().describe(handle).ok())
        .map(|info| ArtifactRef {
            uri: format!("toolplane://artifacts/{}", info.handle),
            handle: info.handle,
            filename: info.filename,
            size_bytes: info.size_bytes,
            label: info.label,
        })
        .collect();
    if let Some(run) = audited {
        run.end(
            result.error.as_ref().map(|e| e.error_type.as_str()),
            result.artifacts.len(),
        );
    }
    Ok(result)
}

impl Drop for Toolplane {
    fn drop(&mut self) {
        // The artifact directory is the privacy boundary's disk side: remove it with the runtime.
        self.artifacts().close();
        self.commands.live.kill_all();
    }
}
