//! `toolplane serve mcp`: the code-mode MCP server, built on [rmcp] (the official Rust MCP SDK).
//!
//! Three tools — `execute_code`, `search_capabilities`, `get_capability_schemas` — and the resources
//! `toolplane://namespace`, `toolplane://results/{handle}` and `toolplane://artifacts/{handle}`. The
//! server is a thin shell over a [`Toolplane`] runtime: the stores it serves are the runtime's.
//!
//! Transport policy: stdio serves one client per process, which has the runtime's stores and session.
//! HTTP is multi-client: each client gets stores and a session of its own (each MCP session, or with
//! bearer tokens each principal), so a handle one saved is unknown to every other; with `[http]
//! per_client_stores = false` they are turned off instead (the result-store design's v1 fail-closed):
//! their templates are not advertised, and a snippet calling `save_result` gets "results store is
//! disabled".
//!
//! ```no_run
//! # async fn serve() -> std::io::Result<()> {
//! use toolplane::mcp::{McpServer, Transport, resolve_serve_config};
//! let config = resolve_serve_config(&toolplane::Config::default(), Transport::Stdio);
//! let server = McpServer::new(toolplane::Toolplane::new(config).unwrap(), Transport::Stdio);
//! eprintln!("{}", server.policy_line());
//! server.serve_stdio().await
//! # }
//! ```

mod clients;
mod http;
mod hybrid;
mod logging;
mod null_id;
mod oauth_resource;
mod text;

use std::net::SocketAddr;
use std::sync::Arc;

use base64::Engine as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
    JsonObject, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, Prompt, PromptMessage, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ResourceTemplate, Role,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::capabilities::{Detail, render_capabilities};
use crate::config::Config;
use crate::runtime::Toolplane;

pub use http::{DEFAULT_HTTP_PORT, MCP_PATH};

#[cfg(feature = "cli")]
pub(crate) use logging::forward_event;
use text::Live;

mod escalation;
mod skill;

/// URI of the namespace manifest.
pub const NAMESPACE_URI: &str = "toolplane://namespace";
/// URI prefix of saved results.
pub const RESULTS_URI_PREFIX: &str = "toolplane://results/";
/// URI prefix of saved artifacts.
pub const ARTIFACTS_URI_PREFIX: &str = "toolplane://artifacts/";

/// How clients reach the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transport {
    /// One client over stdin/stdout: stores and session on.
    Stdio,
    /// Streamable HTTP: many clients, so stores and session off.
    Http,
}

impl Transport {
    /// `stdio` or `http`.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        }
    }

    /// Whether one process serves one client (only then may the stores and a session be shared).
    pub fn is_single_client(self) -> bool {
        self == Transport::Stdio
    }
}

/// The config a server on `transport` must run with. Over stdio, the config as it is. On a
/// multi-client transport with `[http] per_client_stores = false`, the result store, the artifact
/// store and the session are disabled (the design's v1 fail-closed: a handle is the sole key, so a
/// shared store would let one client read another's data); with it (the default) they stay as
/// configured, and each client gets its own ([`McpServer::new`]). The input is not modified.
///
/// ```
/// use toolplane::mcp::{Transport, resolve_serve_config};
/// let mut config = toolplane::Config::default();
/// assert!(resolve_serve_config(&config, Transport::Http).results.enabled);
/// config.http.per_client_stores = false;
/// let http = resolve_serve_config(&config, Transport::Http);
/// assert!(!http.results.enabled && !http.artifacts.enabled && !http.session.enabled);
/// assert!(config.results.enabled);
/// assert!(resolve_serve_config(&config, Transport::Stdio).session.enabled);
/// ```
pub fn resolve_serve_config(config: &Config, transport: Transport) -> Config {
    let mut config = config.clone();
    if !transport.is_single_client() && !config.http.per_client_stores {
        config.results.enabled = false;
        config.artifacts.enabled = false;
        config.session.enabled = false;
    }
    config
}

/// The MCP server over one [`Toolplane`] runtime. Cheap to clone: clones share the runtime (the HTTP
/// transport makes one per client connection).
#[derive(Clone)]
pub struct McpServer {
    state: Arc<State>,
    /// Browser origins HTTP accepts besides the loopback ones (`--allow-origin`).
    allowed_origins: Arc<Vec<String>>,
    /// `Host` names HTTP accepts besides loopback ones and the bound address (`--allow-host`).
    allowed_hosts: Arc<Vec<String>>,
    /// The bearer tokens HTTP clients must present ([`McpServer::require_bearer_tokens`]).
    tokens: Arc<http::BearerTokens>,
    /// This client's logging level: each HTTP client gets its own ([`McpServer::for_new_client`]).
    log: Arc<logging::ClientLog>,
    /// This MCP session's stores and session, when each has its own and the client has no principal.
    slot: clients::SessionSlot,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("transport", &self.state.transport)
            .field("live", &self.state.live)
            .finish_non_exhaustive()
    }
}

struct State {
    runtime: Toolplane,
    /// Whose stores and session each request gets.
    clients: clients::Clients,
    /// Bounds parallel fresh runs, fairly between clients.
    fresh_slots: FreshSlots,
    transport: Transport,
    live: Live,
    tools: Vec<Tool>,
    /// `[hybrid] include` when hybrid re-export is on, else empty.
    hybrid: Vec<String>,
    /// Bumped when the capabilities change (MCP servers connected later): clients get
    /// `notifications/tools/list_changed` when hybrid tools may have come.
    capabilities_changed: tokio::sync::watch::Sender<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExecuteCodeArgs {
    code: String,
    #[serde(default)]
    inputs: Option<Map<String, Value>>,
    /// The Python original's backend choice: its names for our one backend run; others are an error.
    #[serde(default)]
    backend: Option<String>,
    /// The Python original's packages to install: none can be (an error when any are named).
    #[serde(default)]
    packages: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    #[serde(default)]
    query: Option<String>,
    /// Only capabilities with at least one of these tags.
    #[serde(default)]
    tags: Option<Vec<String>>,
    #[serde(default)]
    detail: Option<Detail>,
    #[serde(default)]
    limit: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SchemasArgs {
    names: Vec<String>,
    #[serde(default)]
    detail: Option<Detail>,
}

impl McpServer {
    /// A server over `runtime`. Over stdio the client has the runtime's stores and, with `[session]
    /// enabled`, one session. On a multi-client transport the runtime's own stores are disabled here,
    /// whatever its config said, so an embedder cannot serve them to every client by mistake; with
    /// `[http] per_client_stores` (the default) each client gets stores and a session of its own
    /// instead ([`Toolplane::client_scope`]).
    pub fn new(runtime: Toolplane, transport: Transport) -> Self {
        let config = runtime.config();
        let per_client = !transport.is_single_client() && config.http.per_client_stores;
        if !transport.is_single_client() {
            runtime.results().disable(crate::stores::RESULTS_DISABLED);
            runtime
                .artifacts()
                .disable(crate::stores::ARTIFACTS_DISABLED);
        }
        let session_on = config.session.enabled && (transport.is_single_client() || per_client);
        let live = Live {
            session: session_on,
            results: if per_client {
                config.results.enabled
            } else {
                runtime.results().is_enabled()
            },
            artifacts: if per_client {
                config.artifacts.enabled
            } else {
                runtime.artifacts().is_enabled()
            },
            // A grant is the process's: only where one process serves one client.
            cli_escalation: transport.is_single_client()
                && runtime.config().cli.mode == "allowlist",
        };
        let clients = if per_client {
            clients::Clients::per_client(session_on)
        } else {
            clients::Clients::shared(&runtime, session_on)
        };
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
        let hybrid = if runtime.config().hybrid.enabled {
            runtime.config().hybrid.include.clone()
        } else {
            Vec::new()
        };
        Self {
            state: Arc::new(State {
                tools: tools(
                    live,
                    // Only with `[cli]` on: without it the descriptions stay as they were.
                    runtime
                        .bridge()
                        .cli_capability()
                        .and_then(|_| text::unlisted_surfaces(&runtime, live)),
                ),
                hybrid,
                capabilities_changed: tokio::sync::watch::Sender::new(0),
                runtime,
                clients,
                fresh_slots: FreshSlots::new(workers),
                transport,
                live,
            }),
            allowed_origins: Arc::default(),
            allowed_hosts: Arc::default(),
            tokens: Arc::default(),
            log: Arc::default(),
            slot: Arc::default(),
        }
    }

    /// The server for another MCP session: the same runtime, a logging level and (when clients
    /// have their own) stores of its own.
    fn for_new_client(&self) -> Self {
        Self {
            log: Arc::default(),
            slot: Arc::default(),
            ..self.clone()
        }
    }

    /// The client a request comes from: its stores and session.
    fn client(&self, context: &RequestContext<RoleServer>) -> Arc<clients::Client> {
        let principal = context
            .extensions
            .get::<hyper::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<http::Principal>());
        self.state
            .clients
            .get(&self.state.runtime, principal.map(|p| &*p.0), &self.slot)
    }

    /// How many clients hold stores of their own now (1 when all share the runtime's).
    pub fn clients_with_stores(&self) -> usize {
        self.state.clients.live()
    }

    /// Browser origins the HTTP transport accepts besides loopback ones (`http://localhost:5173`,
    /// `https://[::1]`…), each exactly as a browser sends it (`https://app.example.com`); `"*"` accepts
    /// any. A request whose `Origin` is not accepted gets 403 (the spec's DNS-rebinding defence); one
    /// without an `Origin` (not from a browser) is served.
    ///
    /// ```
    /// use toolplane::mcp::{McpServer, Transport};
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let server = McpServer::new(runtime, Transport::Http).allow_origins(["https://app.example.com".to_string()]);
    /// # let _ = server;
    /// ```
    pub fn allow_origins(mut self, origins: impl IntoIterator<Item = String>) -> Self {
        self.allowed_origins = Arc::new(origins.into_iter().collect());
        self
    }

    /// `Host` names the HTTP transport accepts besides loopback ones and the address it is bound to:
    /// the names clients (or a proxy in front) use, e.g. `mcp.example.com` (any port) or
    /// `mcp.example.com:443`. A request naming another host gets 403 (the spec's DNS-rebinding
    /// defence).
    ///
    /// ```
    /// use toolplane::mcp::{McpServer, Transport};
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let server = McpServer::new(runtime, Transport::Http).allow_hosts(["mcp.example.com".to_string()]);
    /// # let _ = server;
    /// ```
    pub fn allow_hosts(mut self, hosts: impl IntoIterator<Item = String>) -> Self {
        self.allowed_hosts = Arc::new(hosts.into_iter().collect());
        self
    }

    /// Over HTTP, every request must carry `Authorization: Bearer <token>` with one of `tokens`
    /// (principal, token); anything else gets 401 with a `WWW-Authenticate` challenge. Tokens are
    /// compared in constant time; a principal may have several (rotation). None (the default): no
    /// client authentication.
    ///
    /// ```
    /// use toolplane::mcp::{McpServer, Transport};
    /// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
    /// let server = McpServer::new(runtime, Transport::Http)
    ///     .require_bearer_tokens([("alice".to_string(), "a-long-random-token".to_string())]);
    /// assert_eq!(server.authenticated_principals(), 1);
    /// ```
    pub fn require_bearer_tokens(
        mut self,
        tokens: impl IntoIterator<Item = (String, String)>,
    ) -> Self {
        self.tokens = Arc::new(http::BearerTokens::new(tokens));
        self
    }

    /// How many principals [`McpServer::require_bearer_tokens`] accepts (0: no bearer tokens).
    pub fn authenticated_principals(&self) -> usize {
        self.tokens.principals()
    }

    /// How HTTP clients authenticate, as the policy line says it: `bearer(N)` for N principals'
    /// tokens, `oauth(ISSUER)` for `[http.oauth]`, both joined by `+`, or `none`.
    pub fn client_auth(&self) -> String {
        let mut ways = Vec::new();
        if !self.tokens.is_empty() {
            ways.push(format!("bearer({})", self.tokens.principals()));
        }
        if let Some(oauth) = &self.state.runtime.config().http.oauth {
            ways.push(format!("oauth({})", oauth.issuer));
        }
        if ways.is_empty() {
            "none".into()
        } else {
            ways.join("+")
        }
    }

    /// Says that the runtime's capabilities changed (MCP servers connected after the server started):
    /// with `[hybrid]` on, every client gets `notifications/tools/list_changed`, and its next
    /// `tools/list` has the re-exported tools the change brought.
    pub fn capabilities_changed(&self) {
        self.state.capabilities_changed.send_modify(|n| *n += 1);
    }

    /// With `[hybrid]` on and nothing matched (yet): the warning for the operator, as the original's.
    pub fn hybrid_warning(&self) -> Option<String> {
        (!self.state.hybrid.is_empty() && self.hybrid_tools().is_empty()).then(|| {
            format!(
                "toolplane: warning — hybrid.include matched no capabilities ({:?}); no tools were \
                 re-exported. Check the patterns against canonical names (search_capabilities lists \
                 them).",
                self.state.hybrid
            )
        })
    }

    fn hybrid_tools(&self) -> Vec<(Tool, String)> {
        if self.state.hybrid.is_empty() {
            return Vec::new();
        }
        hybrid::tools(self.state.runtime.bridge().registry(), &self.state.hybrid)
    }

    /// Calls the capability behind a hybrid tool, through the bridge (audited as a snippet's call).
    async fn call_hybrid(
        &self,
        capability: &str,
        arguments: Option<JsonObject>,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let bridge = self.state.runtime.bridge();
        let params = Value::Object(arguments.unwrap_or_default()).to_string();
        let started = std::time::Instant::now();
        let (tx, rx) = tokio::sync::oneshot::channel();
        let reply = match bridge.submit(capability, &params, move |reply| {
            let _ = tx.send(reply);
        }) {
            crate::capabilities::Submitted::Answered(reply) => reply,
            crate::capabilities::Submitted::Pending(call) => tokio::select! {
                reply = rx => reply.unwrap_or_else(|_| Err(crate::capabilities::HostError::runtime(format!("{capability} was dropped")))),
                () = abandoned(context) => {
                    call.abort();
                    Err(crate::capabilities::HostError::runtime(format!("{capability} was cancelled by the client")))
                }
            },
        };
        if let Some(log) = bridge.audit() {
            let error = reply.as_ref().err().map(|e| e.base.python_name());
            crate::audit::dispatched(log, None, capability, started, error, None);
        }
        match reply {
            Ok(text) => {
                let value: Value =
                    serde_json::from_str(&text).unwrap_or(Value::String(text.clone()));
                let mut result = match value {
                    Value::Object(_) => CallToolResult::structured(value),
                    _ => CallToolResult::success(vec![]),
                };
                result.content = vec![ContentBlock::text(text)];
                result
            }
            Err(e) => CallToolResult::error(vec![ContentBlock::text(format!(
                "{}: {}",
                e.base.python_name(),
                e.message
            ))]),
        }
    }

    /// The runtime this server runs snippets in.
    pub fn runtime(&self) -> &Toolplane {
        &self.state.runtime
    }

    /// The one line `serve mcp` prints to stderr at start, e.g.
    /// `Toolplane MCP policy: backend=rustpython isolation=process session=on results=on artifacts=on transport=stdio`.
    /// Over HTTP it goes on with whose stores clients get (`client_stores=per-mcp-session`, or
    /// `per-principal` with bearer tokens, or `off`) and the `[http]` limits.
    pub fn policy_line(&self) -> String {
        let on = |b: bool| if b { "on" } else { "off" };
        let live = self.state.live;
        let mut line = format!(
            "Toolplane MCP policy: backend={} isolation={} session={} results={} artifacts={} transport={}",
            crate::execution::BACKEND_NAME,
            self.state.runtime.isolation().as_str(),
            on(live.session),
            on(live.results),
            on(live.artifacts),
            self.state.transport.as_str(),
        );
        if !self.state.transport.is_single_client() {
            let http = &self.state.runtime.config().http;
            let anonymous = self.tokens.is_empty() && http.oauth.is_none();
            let stores = match (self.state.clients.is_per_client(), anonymous) {
                (false, _) => "off",
                (true, true) => "per-mcp-session",
                (true, false) => "per-principal",
            };
            line.push_str(&format!(
                " client_stores={stores} max_sessions={} idle_expiry={}s",
                http.max_sessions, http.idle_expiry_seconds
            ));
        }
        line
    }

    /// The `toolplane://namespace` manifest (markdown).
    pub fn namespace_manifest(&self) -> String {
        text::namespace_manifest(&self.state.runtime, self.state.live)
    }

    /// Removes the artifact directories now, the runtime's and every client's, and ends the
    /// principals' sessions (the server is shutting down).
    pub fn shutdown(&self) {
        self.state.clients.close_all();
        self.state.runtime.artifacts().close();
    }

    /// Serves one client over stdin/stdout until stdin closes or the process gets SIGTERM or SIGINT,
    /// then removes the artifact directory.
    pub async fn serve_stdio(self) -> std::io::Result<()> {
        let (stdin, stdout) = rmcp::transport::io::stdio_pipes();
        let running = self
            .clone()
            .serve((stdin, null_id::NullIdWriter::new(stdout)))
            .await
            .map_err(|e| std::io::Error::other(format!("MCP initialisation failed: {e}")))?;
        let _forwarding = logging::forward_to(running.peer().clone(), self.log.clone());
        let outcome = tokio::select! {
            quit = running.waiting() => quit.map(|_| ()).map_err(std::io::Error::other),
            signal = shutdown_signal() => signal,
        };
        self.shutdown();
        outcome
    }

    /// Serves streamable HTTP at `http://ADDR/mcp` on `listener` until SIGTERM or SIGINT.
    pub async fn serve_http(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        let origins = self.allowed_origins.clone();
        let tokens = self.tokens.clone();
        let outcome = http::serve(self.clone(), listener, origins, tokens, shutdown_signal()).await;
        self.shutdown();
        outcome
    }

    /// Binds `addr` for [`McpServer::serve_http`].
    pub async fn bind_http(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
        tokio::net::TcpListener::bind(addr).await
    }

    /// Runs a snippet; `cancelled` (the client's `notifications/cancelled`) stops it as its time
    /// limit would, and the next call is served at once. The reply to a cancelled request is dropped
    /// by rmcp, as the spec asks.
    async fn execute_code(
        &self,
        args: ExecuteCodeArgs,
        context: &RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        if let Some(refused) = refused_backend_or_packages(&args) {
            return run_result(&refused);
        }
        let cancel = crate::cancel::CancelToken::new();
        let _stop_on_cancel = StopOnCancel(tokio::spawn({
            let cancel = cancel.clone();
            let abandoned = abandoned(context);
            async move {
                abandoned.await;
                cancel.cancel();
            }
        }));
        let cancelled = abandoned(context);
        tokio::pin!(cancelled);
        let _ask = self.state.live.cli_escalation.then(|| {
            self.state
                .runtime
                .ask_about_refused_binaries(escalation::ask_through(context.peer.clone()))
        });
        let not_run = || McpError::internal_error(crate::cancel::CANCELLED_MESSAGE, None);
        // The run blocks this worker thread (block_in_place moves the runtime's other tasks off it):
        // no hand-off to a blocking-pool thread and back, which costs two thread wake-ups per run.
        let client = self.client(context);
        let outcome = match &client.session {
            Some(session) => {
                let session = tokio::select! {
                    session = session.lock() => session,
                    () = &mut cancelled => return Err(not_run()),
                };
                tokio::task::block_in_place(|| {
                    session.execute_cancellable(&args.code, args.inputs, &cancel)
                })
            }
            None => {
                let _slot = tokio::select! {
                    slot = self.state.fresh_slots.acquire(client_of(context)) => {
                        slot.map_err(|e| McpError::internal_error(e.to_string(), None))?
                    }
                    () = &mut cancelled => return Err(not_run()),
                };
                tokio::task::block_in_place(|| {
                    client.execute_fresh(&self.state.runtime, &args.code, args.inputs, &cancel)
                })
            }
        };
        match outcome {
            Ok(result) => {
                self.log.run_finished(&context.peer, &result).await;
                run_result(&result)
            }
            // The snippet never ran: the caller's inputs are wrong.
            Err(error) => Ok(CallToolResult::error(vec![ContentBlock::text(
                error.to_string(),
            )])),
        }
    }

    fn search(&self, args: SearchArgs) -> CallToolResult {
        let text = text::search_text(
            &self.state.runtime,
            self.state.live,
            args.query.as_deref().unwrap_or(""),
            args.tags.as_deref().unwrap_or_default(),
            args.detail.unwrap_or(Detail::Brief),
            args.limit,
        );
        self.receipt("search_capabilities", &text);
        CallToolResult::success(vec![ContentBlock::text(text)])
    }

    /// What a discovery tool showed the agent, in the audit log (a hash and a length).
    fn receipt(&self, surface: &str, text: &str) {
        if let Some(log) = self.state.runtime.bridge().audit() {
            crate::audit::discovery(log, surface, text);
        }
    }

    fn schemas(&self, args: SchemasArgs) -> CallToolResult {
        let (found, missing) = self.state.runtime.bridge().lookup(&args.names);
        let detail = args.detail.unwrap_or(Detail::Detailed);
        let text = render_capabilities(&found, detail, &missing, text::RESERVED);
        self.receipt("get_capability_schemas", &text);
        CallToolResult::success(vec![ContentBlock::text(text)])
    }

    /// A resource, the stores' from the caller's own (`client`).
    fn read(&self, uri: &str, client: &clients::Client) -> Result<ReadResourceResult, McpError> {
        let runtime = &self.state.runtime;
        let store_error = |e: crate::capabilities::HostError| {
            McpError::resource_not_found(e.message, Some(json!({ "uri": uri })))
        };
        let contents = if uri == NAMESPACE_URI {
            ResourceContents::text(self.namespace_manifest(), uri).with_mime_type("text/markdown")
        } else if uri == skill::SKILL_URI {
            ResourceContents::text(skill::SKILL_MD, uri).with_mime_type("text/markdown")
        } else if uri == skill::MANIFEST_URI {
            ResourceContents::text(skill::manifest(), uri).with_mime_type("application/json")
        } else if let Some(handle) = uri.strip_prefix(RESULTS_URI_PREFIX) {
            let payload = client
                .results(runtime)
                .payload(handle)
                .map_err(store_error)?;
            ResourceContents::text(&*payload, uri).with_mime_type("application/json")
        } else if let Some(handle) = uri.strip_prefix(ARTIFACTS_URI_PREFIX) {
            let bytes = client
                .artifacts(runtime)
                .load(handle)
                .map_err(store_error)?;
            ResourceContents::blob(base64::engine::general_purpose::STANDARD.encode(bytes), uri)
                .with_mime_type("application/octet-stream")
        } else {
            return Err(McpError::resource_not_found(
                format!(
                    "unknown resource {uri}: this server serves {NAMESPACE_URI}, {}, {}{}{}",
                    skill::SKILL_URI,
                    skill::MANIFEST_URI,
                    if self.state.live.results {
                        ", toolplane://results/{handle}"
                    } else {
                        ""
                    },
                    if self.state.live.artifacts {
                        ", toolplane://artifacts/{handle}"
                    } else {
                        ""
                    },
                ),
                None,
            ));
        };
        Ok(ReadResourceResult::new(vec![contents]))
    }
}

/// A run's result as `execute_code` answers it: the text content is the result serialised once, its
/// value exactly as the sandbox wrote it; structuredContent is a serde_json::Value, exact with the
/// `exact-numbers` feature (the CLI's default build).
fn run_result(result: &crate::execution::ExecutionResult) -> Result<CallToolResult, McpError> {
    let text =
        serde_json::to_string(result).map_err(|e| McpError::internal_error(e.to_string(), None))?;
    let value =
        serde_json::to_value(result).map_err(|e| McpError::internal_error(e.to_string(), None))?;
    let mut reply = CallToolResult::structured(value);
    reply.content = vec![ContentBlock::text(text)];
    Ok(reply)
}

/// The result the Python original gives for a `backend` it does not have, and for `packages` on a
/// backend that cannot install any; `None` when the run may go ahead.
fn refused_backend_or_packages(
    args: &ExecuteCodeArgs,
) -> Option<crate::execution::ExecutionResult> {
    if let Some(backend) = &args.backend
        && !crate::config::BACKEND_NAMES.contains(&backend.as_str())
    {
        let mut valid: Vec<&str> = crate::config::BACKEND_NAMES.to_vec();
        valid.sort_unstable();
        return Some(crate::execution::ExecutionResult::failed(
            "BackendNotFoundError",
            format!(
                "Unknown backend '{backend}'. Valid backends: {} (one sandboxed RustPython backend under two names).",
                valid.join(", ")
            ),
            0.0,
        ));
    }
    if args.packages.as_ref().is_some_and(|p| !p.is_empty()) {
        return Some(crate::execution::ExecutionResult::failed(
            "BackendCapabilityError",
            "backend 'rustpython' cannot install or import third-party packages; snippets import only the \
             allowed standard-library modules (toolplane://namespace lists them)",
            0.0,
        ));
    }
    None
}

/// A tool's arguments, or what is wrong with them for a tool error a model can read and correct (the
/// spec: input validation errors are tool execution errors, not protocol errors).
fn parse_args<T: for<'de> Deserialize<'de>>(
    tool: &str,
    arguments: Option<JsonObject>,
    shape: &str,
) -> Result<T, String> {
    serde_json::from_value(Value::Object(arguments.unwrap_or_default()))
        .map_err(|e| format!("invalid arguments for {tool}: {e}; call it as {shape}"))
}

fn invalid_arguments(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

fn object_schema(schema: Value) -> Arc<JsonObject> {
    Arc::new(schema.as_object().cloned().unwrap_or_default())
}

const EXECUTE_SHAPE: &str = "execute_code(code: str, inputs: object | null = null)";
const SEARCH_SHAPE: &str = "search_capabilities(query: str = \"\", tags: list[str] | null = null, detail: \
                            \"brief\" | \"detailed\" | \"full\" = \"brief\", limit: int | null = null)";
const SCHEMAS_SHAPE: &str = "get_capability_schemas(names: list[str], detail: \"brief\" | \"detailed\" | \"full\" = \"detailed\")";

/// The three tools. With `[cli]` on, the descriptions name its bindings (`cli`): they are not in the
/// registry, and a model looking for a binary's tool must still find them.
fn tools(live: Live, cli: Option<String>) -> Vec<Tool> {
    let described = |text: String| match &cli {
        Some(cli) => format!("{text}\n\n{cli}"),
        None => text,
    };
    vec![
        Tool::new(
            "execute_code",
            described(text::execute_code_description(live)),
            object_schema(json!({
                "type": "object",
                "properties": {
                    "code": {"type": "string", "description": "The Python snippet. `await` every host function; `return` a JSON value."},
                    "inputs": {"type": ["object", "null"], "description": "Globals for the snippet, as a JSON object.", "default": null},
                },
                "required": ["code"],
            })),
        ),
        Tool::new(
            "search_capabilities",
            described(text::SEARCH_DESCRIPTION.to_string()),
            object_schema(json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Words to look for; empty lists everything.", "default": ""},
                    "tags": {"type": ["array", "null"], "items": {"type": "string"}, "description": "Only capabilities with one of these tags.", "default": null},
                    "detail": {"enum": ["brief", "detailed", "full"], "description": "brief: one line each; detailed: markdown with parameters; full: JSON schemas.", "default": "brief"},
                    "limit": {"type": ["integer", "null"], "minimum": 0, "description": "At most this many hits.", "default": null},
                },
            })),
        ),
        Tool::new(
            "get_capability_schemas",
            text::SCHEMAS_DESCRIPTION,
            object_schema(json!({
                "type": "object",
                "properties": {
                    "names": {"type": "array", "items": {"type": "string"}, "description": "Canonical capability names."},
                    "detail": {"enum": ["brief", "detailed", "full"], "description": "brief: one line each; detailed: markdown with parameters; full: JSON schemas.", "default": "detailed"},
                },
                "required": ["names"],
            })),
        ),
    ]
}

impl ServerHandler for McpServer {
    #[allow(deprecated)] // logging: see `logging.rs`
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_logging();
        let capabilities = if self.state.hybrid.is_empty() {
            capabilities.build()
        } else {
            capabilities.enable_tool_list_changed().build()
        };
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("Toolplane", env!("CARGO_PKG_VERSION")))
            .with_instructions(text::instructions(self.state.live))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let mut tools = self.state.tools.clone();
        tools.extend(self.hybrid_tools().into_iter().map(|(tool, _)| tool));
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.state
            .tools
            .iter()
            .find(|t| t.name == name)
            .cloned()
            .or_else(|| {
                self.hybrid_tools()
                    .into_iter()
                    .map(|(tool, _)| tool)
                    .find(|t| t.name == name)
            })
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        if self.state.hybrid.is_empty() {
            return;
        }
        // Until the client goes: each change of the capabilities may have brought hybrid tools.
        let mut changes = self.state.capabilities_changed.subscribe();
        let peer = context.peer;
        tokio::spawn(async move {
            while changes.changed().await.is_ok() {
                if peer.notify_tool_list_changed().await.is_err() {
                    break;
                }
            }
        });
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let result = match &*request.name {
            "execute_code" => match parse_args("execute_code", request.arguments, EXECUTE_SHAPE) {
                Ok(args) => self.execute_code(args, &context).await?,
                Err(invalid) => invalid_arguments(invalid),
            },
            "search_capabilities" => {
                match parse_args("search_capabilities", request.arguments, SEARCH_SHAPE) {
                    Ok(args) => self.search(args),
                    Err(invalid) => invalid_arguments(invalid),
                }
            }
            "get_capability_schemas" => {
                match parse_args("get_capability_schemas", request.arguments, SCHEMAS_SHAPE) {
                    Ok(args) => self.schemas(args),
                    Err(invalid) => invalid_arguments(invalid),
                }
            }
            other => match self
                .hybrid_tools()
                .into_iter()
                .find(|(t, _)| t.name == other)
            {
                Some((_, capability)) => {
                    self.call_hybrid(&capability, request.arguments, &context)
                        .await
                }
                None => {
                    return Err(McpError::invalid_params(
                        format!(
                            "unknown tool {other:?}: the tools are execute_code, search_capabilities \
                             and get_capability_schemas"
                        ),
                        None,
                    ));
                }
            },
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult::with_all_items(vec![
            Resource::new(NAMESPACE_URI, "namespace")
                .with_title("Toolplane snippet namespace")
                .with_description(
                    "Everything a snippet can call: capabilities with call shapes, call_tool, the stores, \
                     the session.",
                )
                .with_mime_type("text/markdown"),
            Resource::new(skill::SKILL_URI, format!("{}/SKILL.md", skill::NAME))
                .with_description(skill::description())
                .with_mime_type("text/markdown"),
            Resource::new(skill::MANIFEST_URI, format!("{}/_manifest", skill::NAME))
                .with_description(format!("File listing for {}", skill::NAME))
                .with_mime_type("application/json"),
        ]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        let mut templates = Vec::new();
        if self.state.live.results {
            templates.push(
                ResourceTemplate::new("toolplane://results/{handle}", "result")
                    .with_description(
                        "A value saved with save_result, as its stored canonical JSON.",
                    )
                    .with_mime_type("application/json"),
            );
        }
        if self.state.live.artifacts {
            templates.push(
                ResourceTemplate::new("toolplane://artifacts/{handle}", "artifact")
                    .with_description("Bytes saved with save_artifact.")
                    .with_mime_type("application/octet-stream"),
            );
        }
        Ok(ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        self.read(&request.uri, &self.client(&context))
            .map(Into::into)
    }

    #[allow(deprecated)] // rmcp deprecates logging (see `logging.rs`)
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.log.set(request.level);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, McpError> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            CODE_MODE_PROMPT,
            Some(CODE_MODE_DESCRIPTION),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, McpError> {
        if request.name != CODE_MODE_PROMPT {
            return Err(McpError::invalid_params(
                format!(
                    "unknown prompt {:?}: this server has one prompt, {CODE_MODE_PROMPT}",
                    request.name
                ),
                None,
            ));
        }
        let text = format!(
            "{}\n\n{}",
            text::instructions(self.state.live),
            self.namespace_manifest()
        );
        let result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(CODE_MODE_DESCRIPTION);
        Ok(result.into())
    }

    /// A request rmcp could not read as its method's type arrives here: for a method of the spec
    /// (`tools/call` without `name`, `resources/read` without `uri`) that is -32602 with what is
    /// wrong, as JSON-RPC asks; only other methods are -32601.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, McpError> {
        let params = request.params.clone().unwrap_or(Value::Null);
        let problem = |e: serde_json::Error| {
            McpError::invalid_params(format!("invalid params for {}: {e}", request.method), None)
        };
        let invalid = match request.method.as_str() {
            "tools/call" => serde_json::from_value::<CallToolRequestParams>(params)
                .err()
                .map(problem),
            "resources/read" => serde_json::from_value::<ReadResourceRequestParams>(params)
                .err()
                .map(problem),
            "prompts/get" => serde_json::from_value::<GetPromptRequestParams>(params)
                .err()
                .map(problem),
            method if SPEC_METHODS.contains(&method) => Some(McpError::invalid_params(
                format!("invalid params for {method}"),
                None,
            )),
            _ => None,
        };
        Err(invalid.unwrap_or_else(|| {
            McpError::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("method not found: {}", request.method),
                None,
            )
        }))
    }
}

/// The one prompt: how to use this server, with the namespace manifest.
const CODE_MODE_PROMPT: &str = "code_mode";
const CODE_MODE_DESCRIPTION: &str = "How to work with this code-mode server: find capabilities with \
search_capabilities, then run one Python snippet with execute_code that calls them. Includes the namespace \
manifest.";

/// The client-to-server request methods of the MCP spec (2025-11-25) with params.
const SPEC_METHODS: &[&str] = &[
    "initialize",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "tools/call",
    "tools/list",
    "tasks/get",
    "tasks/result",
    "tasks/list",
    "tasks/cancel",
];

/// Resolves when the request's client cancelled it (`notifications/cancelled`) or, over HTTP, hung up
/// before its answer was sent.
fn abandoned(context: &RequestContext<RoleServer>) -> impl Future<Output = ()> + Send + 'static {
    let cancelled = context.ct.clone();
    let gone = context
        .extensions
        .get::<hyper::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<http::ClientGone>())
        .cloned();
    async move {
        match gone {
            Some(gone) => tokio::select! {
                () = cancelled.cancelled() => {}
                () = gone.wait() => {}
            },
            None => cancelled.cancelled().await,
        }
    }
}

/// Which client a request came from, for [`FreshSlots`]: its HTTP session, if any.
fn client_of(context: &RequestContext<RoleServer>) -> Option<String> {
    let parts = context.extensions.get::<hyper::http::request::Parts>()?;
    let id = parts.headers.get("mcp-session-id")?.to_str().ok()?;
    Some(id.to_string())
}

/// The slots fresh runs take: at most `workers` runs at once, and each client at most `workers - 1`
/// of them (at least one), waiting for its own turn before it joins the shared queue, so one client's
/// burst cannot queue ahead of everyone else or hold every slot.
struct FreshSlots {
    shared: tokio::sync::Semaphore,
    per_client: usize,
    clients: std::sync::Mutex<std::collections::HashMap<String, Arc<tokio::sync::Semaphore>>>,
}

/// A run's slot: its client's and the shared one, given back when dropped.
struct FreshSlot<'a> {
    _shared: tokio::sync::SemaphorePermit<'a>,
    _client: Option<ClientPermit<'a>>,
}

/// One client's permit; its semaphore leaves the table with its last run.
struct ClientPermit<'a> {
    slots: &'a FreshSlots,
    client: String,
    permit: Option<tokio::sync::OwnedSemaphorePermit>,
}

impl Drop for ClientPermit<'_> {
    fn drop(&mut self) {
        drop(self.permit.take());
        let mut clients = self.slots.lock();
        if clients
            .get(&self.client)
            .is_some_and(|s| Arc::strong_count(s) == 1)
        {
            clients.remove(&self.client);
        }
    }
}

impl FreshSlots {
    fn new(workers: usize) -> Self {
        Self {
            shared: tokio::sync::Semaphore::new(workers),
            per_client: workers.saturating_sub(1).max(1),
            clients: Default::default(),
        }
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, Arc<tokio::sync::Semaphore>>>
    {
        self.clients.lock().unwrap_or_else(|e| e.into_inner())
    }

    async fn acquire(
        &self,
        client: Option<String>,
    ) -> Result<FreshSlot<'_>, tokio::sync::AcquireError> {
        let client = match client {
            None => None,
            Some(client) => {
                let mut permit = ClientPermit {
                    slots: self,
                    client,
                    permit: None,
                };
                let own = self
                    .lock()
                    .entry(permit.client.clone())
                    .or_insert_with(|| Arc::new(tokio::sync::Semaphore::new(self.per_client)))
                    .clone();
                permit.permit = Some(own.acquire_owned().await?);
                Some(permit)
            }
        };
        Ok(FreshSlot {
            _shared: self.shared.acquire().await?,
            _client: client,
        })
    }
}

/// Ends the task that turns a request's cancellation into its run's cancel, when the run is over.
struct StopOnCancel(tokio::task::JoinHandle<()>);

impl Drop for StopOnCancel {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Resolves on SIGTERM or SIGINT.
async fn shutdown_signal() -> std::io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    tokio::select! {
        _ = term.recv() => {},
        _ = interrupt.recv() => {},
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grant is the process's: only a server with one client (stdio) asks the person, and only when
    /// an allowlist has something to escalate past.
    #[test]
    fn only_a_single_client_server_with_an_allowlist_asks_about_binaries() {
        let asks = |cli: &str, transport: Transport| {
            let config = Config::from_toml_str(cli).unwrap();
            let runtime = Toolplane::new(config).unwrap();
            McpServer::new(runtime, transport).state.live.cli_escalation
        };
        let allowlist = "[cli]\nmode = \"allowlist\"\nallow = [\"echo\"]\n";
        assert!(asks(allowlist, Transport::Stdio));
        assert!(!asks(allowlist, Transport::Http));
        assert!(!asks("[cli]\nmode = \"ambient\"\n", Transport::Stdio));
        assert!(!asks("", Transport::Stdio));
    }
}
