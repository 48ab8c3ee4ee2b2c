//! The MCP client: the `[mcp.servers.*]` of a config (downstream MCP servers) connected with rmcp's
//! client, each tool registered as a capability `mcp:<server>/<tool>` (alias `<server>_<tool>`). A source
//! of capabilities beside the host's own tools: a snippet reaches a server only through the bridge, like
//! every capability. Needs the capabilities, the config and the audit log, and the engine room for the
//! jail a stdio server runs in; never the MCP server (`crate::mcp`) or the runtime.
//!
//! ```no_run
//! use std::sync::Arc;
//! let config = toolplane::Config::from_toml_str(
//!     "[mcp.servers.time]\ncommand = \"uvx\"\nargs = [\"mcp-server-time\"]\n",
//! )
//! .unwrap();
//! let registry = Arc::new(toolplane::Registry::new());
//! for status in toolplane::mcp_client::connect_servers_blocking(&config.mcp, &registry) {
//!     if let Some(warning) = status.warning() {
//!         eprintln!("{warning}");
//!     }
//! }
//! ```

mod in_order;
pub(crate) mod oauth;
mod reply_bounds;

use std::collections::BTreeMap;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, Tool};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Map, Value};
use tokio::io::AsyncBufReadExt;

use crate::capabilities::{Capability, HostError, Registry};
use crate::config::{McpConfig, McpServerConfig};

/// The largest message a server may send, its JSON text: a reply whose text a server also sends as
/// `structuredContent` counts twice, so rmcp's default (16 MiB) would drop a 10 MB tool reply.
const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// A connected server: rmcp's client and, for a stdio server, its process (killed when this is dropped,
/// after rmcp has closed its stdin).
struct Client {
    service: RunningService<RoleClient, ()>,
    _process: Option<tokio::process::Child>,
    /// Dropped after the process: ends what the server started.
    _group: Option<ServerGroup>,
}

impl std::ops::Deref for Client {
    type Target = RunningService<RoleClient, ()>;

    fn deref(&self) -> &Self::Target {
        &self.service
    }
}

/// What connecting one configured server came to.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerStatus {
    /// Connected; this many tools registered.
    Connected {
        /// The server's name in the config.
        name: String,
        /// How many of its tools became capabilities.
        tools: usize,
    },
    /// Skipped: why (one line, without secrets).
    Unavailable {
        /// The server's name in the config.
        name: String,
        /// What went wrong.
        reason: String,
    },
}

impl ServerStatus {
    /// What is said of a server that was skipped: `MCP server 'x' unavailable: …` (the CLI prints it
    /// after `toolplane: `).
    pub fn warning(&self) -> Option<String> {
        match self {
            ServerStatus::Unavailable { name, reason } => Some(format!(
                "MCP server '{name}' unavailable: {}",
                printable(reason)
            )),
            ServerStatus::Connected { .. } => None,
        }
    }
}

/// The environment a stdio server starts with before its configured `env`: not the host's whole one,
/// which may hold other servers' secrets.
const BASE_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TERM",
    "TMPDIR",
    "TZ",
    "SYSTEMROOT",
];

/// The variable through which a toolplane that starts stdio servers tells them which `[mcp.servers]`
/// started them: a toolplane among them (`toolplane serve mcp`) whose own servers are one of those
/// does not start them again — a config that names toolplane itself would otherwise start an endless
/// chain of processes.
pub(crate) const CHAIN_VAR: &str = "TOOLPLANE_MCP_CHAIN";

/// The chain to hand to this process's stdio servers (the inherited one plus these servers'
/// fingerprint), or why these servers must not be started: an ancestor started the same ones.
fn loop_guard(servers: &BTreeMap<String, McpServerConfig>) -> Result<String, String> {
    let fingerprint =
        crate::audit::short_sha256(&serde_json::to_string(servers).unwrap_or_default());
    let inherited = std::env::var(CHAIN_VAR).unwrap_or_default();
    let links: Vec<&str> = inherited.split(',').filter(|l| !l.is_empty()).collect();
    if links.contains(&fingerprint.as_str()) {
        return Err(format!(
            "not started: this toolplane is itself an MCP server of a toolplane with the same \
             [mcp.servers] (a loop; {CHAIN_VAR})"
        ));
    }
    if links.len() >= MAX_CHAIN {
        return Err(format!(
            "not started: {} toolplanes deep, each an MCP server of the last ({CHAIN_VAR})",
            links.len() + 1
        ));
    }
    // The variable is the server's to keep or drop (a wrapper script may unset it); its ancestors and
    // the jails it runs in are not. Ancestors are counted by name, which a non-dumpable one still
    // shows; a jail shows only the ancestors inside it, and each jail above counts as one.
    #[cfg(target_os = "linux")]
    let jails = crate::engine::server_jail::depth();
    #[cfg(not(target_os = "linux"))]
    let jails = 0;
    let levels = ancestors_named_like_this_process() + jails;
    if levels >= MAX_CHAIN {
        return Err(format!(
            "not started: {levels} levels of servers above it (processes named like this one, and \
             server jails), each starting the next (an MCP server loop)"
        ));
    }
    Ok(links
        .into_iter()
        .chain([fingerprint.as_str()])
        .collect::<Vec<_>>()
        .join(","))
}

/// How many ancestors of this process have its name (`/proc/PID/comm`), up to the first that cannot
/// be read or `MAX_CHAIN + 1`; 0 where there is no `/proc`.
fn ancestors_named_like_this_process() -> usize {
    fn parent_and_name(pid: &str) -> Option<(String, String)> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // "PID (comm) STATE PPID ...": comm may hold spaces and parentheses; it ends at the last ')'.
        let (head, tail) = stat.rsplit_once(')')?;
        let name = head.split_once('(')?.1.to_string();
        let parent = tail.split_whitespace().nth(1)?.to_string();
        Some((parent, name))
    }
    let Some((mut pid, own)) = parent_and_name("self") else {
        return 0;
    };
    let mut same = 0;
    while pid != "0" && pid != "1" && same <= MAX_CHAIN {
        let Some((parent, name)) = parent_and_name(&pid) else {
            break;
        };
        if name == own {
            same += 1;
        }
        pid = parent;
    }
    same
}

/// How many toolplanes may be MCP servers of one another in a row.
const MAX_CHAIN: usize = 8;

/// `server` with the chain in its environment (a stdio server; a URL one starts no process of ours).
fn with_chain(server: &McpServerConfig, chain: &str) -> McpServerConfig {
    let mut server = server.clone();
    if server.command.is_some() {
        server.env.insert(CHAIN_VAR.to_string(), chain.to_string());
    }
    server
}

/// [`connect_servers`] on toolplane's own runtime, waiting for it (from any thread, async or not):
/// what [`Toolplane::new`](crate::Toolplane::new) does with a config's `[mcp.servers.*]`.
pub fn connect_servers_blocking(config: &McpConfig, registry: &Arc<Registry>) -> Vec<ServerStatus> {
    let runtime = crate::capabilities::own_runtime();
    let (config, registry) = (config.clone(), registry.clone());
    // A thread of its own: block_on must not run on a thread of a runtime.
    std::thread::spawn(move || {
        runtime.block_on(async move { connect_servers(&config, &registry).await })
    })
    .join()
    .unwrap_or_default()
}

/// What connecting to one server for a look (`toolplane mcp status`) found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Probe {
    /// It answered `initialize` and `tools/list` with this many tools.
    Ok {
        /// How many tools it offers.
        tools: usize,
    },
    /// It did not answer within the limit.
    TimedOut,
    /// It could not be started or reached, or it failed: why, in one line.
    Failed(String),
}

/// Connects to each of `servers` concurrently, each within `limit`, lists its tools and disconnects
/// (a stdio server is stopped): nothing is registered. Results are in `servers`' order.
///
/// ```no_run
/// use std::collections::BTreeMap;
/// use std::time::Duration;
/// use toolplane::McpServerConfig;
/// use toolplane::mcp_client::{Probe, probe_servers_blocking};
///
/// let mut servers = BTreeMap::new();
/// servers.insert("time".to_string(), McpServerConfig::stdio("uvx", ["mcp-server-time"]));
/// for (name, probe) in probe_servers_blocking(&servers, Duration::from_secs(5)) {
///     println!("{name}: {probe:?}");
/// }
/// ```
pub fn probe_servers_blocking(
    servers: &BTreeMap<String, McpServerConfig>,
    limit: Duration,
) -> Vec<(String, Probe)> {
    let chain = match loop_guard(servers) {
        Ok(chain) => chain,
        Err(reason) => {
            return servers
                .keys()
                .map(|name| (name.clone(), Probe::Failed(reason.clone())))
                .collect();
        }
    };
    let runtime = crate::capabilities::own_runtime();
    let servers = servers.clone();
    std::thread::spawn(move || {
        runtime.block_on(async move {
            let probes: Vec<_> = servers
                .into_iter()
                .map(|(name, server)| {
                    let server = with_chain(&server, &chain);
                    tokio::spawn(async move {
                        let probe = match tokio::time::timeout(limit, connect(&name, &server)).await
                        {
                            Err(_) => Probe::TimedOut,
                            Ok(Err(reason)) => Probe::Failed(reason),
                            Ok(Ok((client, tools))) => {
                                let _ = client.service.cancel().await;
                                Probe::Ok { tools: tools.len() }
                            }
                        };
                        (name, probe)
                    })
                })
                .collect();
            let mut found = Vec::new();
            for probe in probes {
                if let Ok(probe) = probe.await {
                    found.push(probe);
                }
            }
            found
        })
    })
    .join()
    .unwrap_or_default()
}

/// Connects every server of `config` concurrently, each within `discovery_timeout_seconds`, and
/// registers its tools in `registry`. A server that fails is skipped: its status says why. Must run
/// on a tokio runtime that outlives the capabilities (the connections' tasks run on it).
pub async fn connect_servers(config: &McpConfig, registry: &Registry) -> Vec<ServerStatus> {
    let limit = Duration::from_secs_f64(config.discovery_timeout_seconds);
    let chain = match loop_guard(&config.servers) {
        Ok(chain) => chain,
        Err(reason) => {
            return config
                .servers
                .keys()
                .map(|name| ServerStatus::Unavailable {
                    name: name.clone(),
                    reason: reason.clone(),
                })
                .collect();
        }
    };
    let attempts: Vec<_> = config
        .servers
        .iter()
        .map(|(name, server)| {
            let (name, server) = (name.clone(), with_chain(server, &chain));
            tokio::spawn(async move {
                let outcome = tokio::time::timeout(limit, connect(&name, &server)).await;
                (name, server, outcome)
            })
        })
        .collect();
    let mut statuses = Vec::new();
    // Registered in config order, whatever order the servers answer in.
    for attempt in attempts {
        let Ok((name, server, outcome)) = attempt.await else {
            continue;
        };
        let (name, server) = (&name, &server);
        let status = match outcome {
            Err(_) => ServerStatus::Unavailable {
                name: name.clone(),
                reason: format!(
                    "no answer within {}s (mcp.discovery_timeout_seconds)",
                    config.discovery_timeout_seconds
                ),
            },
            Ok(Err(reason)) => ServerStatus::Unavailable {
                name: name.clone(),
                reason,
            },
            Ok(Ok((client, tools))) => register(registry, name, server, client, tools, limit),
        };
        statuses.push(status);
    }
    statuses
}

fn register(
    registry: &Registry,
    server: &str,
    config: &McpServerConfig,
    client: Client,
    tools: Vec<Tool>,
    discovery: Duration,
) -> ServerStatus {
    let downstream = Arc::new(Downstream {
        name: server.to_string(),
        config: config.clone(),
        discovery,
        link: tokio::sync::Mutex::new(Link {
            client: Some(Arc::new(client)),
            failures: 0,
            retry_at: None,
        }),
    });
    let timeout = config.timeout.map(Duration::from_secs_f64);
    let mut registered = 0;
    let mut taken: std::collections::HashSet<String> = registry
        .bindable()
        .into_iter()
        .map(|(alias, ..)| alias)
        .collect();
    for tool in tools {
        if let Some(why) = oversized(&tool) {
            let shown = printable(&shortened(&tool.name, 64));
            tracing::warn!(
                server,
                "MCP server '{server}': tool '{shown}' skipped: {why}"
            );
            continue;
        }
        let tool_name = tool.name.to_string();
        let canonical = format!("mcp:{server}/{tool_name}");
        let alias = python_identifier(&format!("{server}_{tool_name}"));
        // An alias two parties would take is nobody's (the registry binds neither), whatever the
        // order the servers came in; nor is a name every snippet already has.
        if crate::capabilities::alias_is_taken_by_python(&alias) {
            tracing::warn!(
                server,
                "MCP server '{server}': tool '{}' is not bound as {alias} (a name every snippet \
                 has); call it as call_tool('{}', ...)",
                printable(&tool_name),
                printable(&canonical)
            );
        } else if !taken.insert(alias.clone()) {
            let others = registry.alias_holders(&alias).join(", ");
            tracing::warn!(
                server,
                "MCP server '{server}': tool '{}' and {} would both be {alias}: neither is bound; \
                 call them by their canonical names with call_tool",
                printable(&tool_name),
                printable(&others)
            );
        }
        let handler_downstream = downstream.clone();
        let handler_tool = tool_name.clone();
        let capability = Capability::new_async(canonical, move |params| {
            let downstream = handler_downstream.clone();
            let tool = handler_tool.clone();
            async move { downstream.call(&tool, params, timeout).await }
        })
        .alias(alias)
        .description(shortened(
            tool.description.as_deref().unwrap_or_default(),
            MAX_TOOL_DESCRIPTION_BYTES,
        ))
        .schema(Value::Object((*tool.input_schema).clone()))
        .tag("mcp")
        .tag(server);
        let capability = match &tool.output_schema {
            Some(schema) => capability.returns(Value::Object((**schema).clone())),
            None => capability,
        };
        match registry.register(capability) {
            Ok(()) => registered += 1,
            Err(e) => {
                let shown = printable(&tool_name);
                tracing::warn!(server, "MCP server '{server}': tool '{shown}' skipped: {e}")
            }
        }
    }
    ServerStatus::Connected {
        name: server.to_string(),
        tools: registered,
    }
}

/// One connected server, restarted on the call after it is found dead (with backoff).
struct Downstream {
    name: String,
    config: McpServerConfig,
    /// How long a restart may take.
    discovery: Duration,
    link: tokio::sync::Mutex<Link>,
}

struct Link {
    /// The live connection; `None` after it was found dead.
    client: Option<Arc<Client>>,
    /// Restarts that failed in a row.
    failures: u32,
    /// No restart is tried before this.
    retry_at: Option<tokio::time::Instant>,
}

/// The pause before restart attempt `n + 1` after `n` failed ones: 1 s, doubling, at most 30 s.
fn backoff(failures: u32) -> Duration {
    Duration::from_secs(1u64 << failures.min(5)).min(Duration::from_secs(30))
}

impl Downstream {
    /// The live connection, restarting the server first if it was found dead.
    async fn client(&self) -> Result<Arc<Client>, HostError> {
        let mut link = self.link.lock().await;
        if let Some(client) = &link.client {
            return Ok(client.clone());
        }
        let name = &self.name;
        if let Some(at) = link.retry_at
            && tokio::time::Instant::now() < at
        {
            let left = at.saturating_duration_since(tokio::time::Instant::now());
            return Err(HostError::runtime(format!(
                "MCP server '{name}' is down; the next restart is tried in {:.1}s",
                left.as_secs_f64()
            )));
        }
        let restarted =
            match tokio::time::timeout(self.discovery, connect(name, &self.config)).await {
                Ok(outcome) => outcome,
                Err(_) => Err(format!(
                    "no answer within {}s",
                    self.discovery.as_secs_f64()
                )),
            };
        match restarted {
            Ok((client, _tools)) => {
                let client = Arc::new(client);
                *link = Link {
                    client: Some(client.clone()),
                    failures: 0,
                    retry_at: None,
                };
                Ok(client)
            }
            Err(reason) => {
                link.retry_at = Some(tokio::time::Instant::now() + backoff(link.failures));
                link.failures += 1;
                Err(HostError::runtime(format!(
                    "MCP server '{name}' is down and could not be restarted: {reason}"
                )))
            }
        }
    }

    /// Forgets `dead`, if it is still the live connection: the next call restarts the server.
    async fn lost(&self, dead: &Arc<Client>) {
        let mut link = self.link.lock().await;
        if link.client.as_ref().is_some_and(|c| Arc::ptr_eq(c, dead)) {
            link.client = None;
        }
    }

    async fn call(
        &self,
        tool: &str,
        params: Value,
        timeout: Option<Duration>,
    ) -> Result<Value, HostError> {
        let server = &self.name;
        let arguments = match params {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => {
                return Err(HostError::type_error(format!(
                    "mcp:{server}/{tool} takes keyword arguments, got {other}"
                )));
            }
        };
        let client = self.client().await?;
        let request = call_tool(
            &client.service,
            CallToolRequestParams::new(tool.to_string()).with_arguments(arguments),
        );
        let reply = match timeout {
            Some(limit) => match tokio::time::timeout(limit, request).await {
                Ok(reply) => reply,
                Err(_) => {
                    return Err(HostError::new(
                        crate::capabilities::BuiltinBase::TimeoutError,
                        format!(
                            "mcp:{server}/{tool} did not answer within {}s ([mcp.servers.{server}] timeout)",
                            limit.as_secs_f64()
                        ),
                    ));
                }
            },
            None => request.await,
        };
        match reply {
            Ok(result) => tool_value(result),
            // The server answered with a JSON-RPC error: it is alive.
            Err(rmcp::ServiceError::McpError(error)) => Err(HostError::runtime(format!(
                "MCP server '{server}' refused the call to {tool}: {}",
                error.message
            ))),
            Err(e) => {
                self.lost(&client).await;
                Err(HostError::runtime(format!(
                    "MCP server '{server}' stopped during the call to {tool} ({}); it is restarted on the \
                     next call",
                    one_line(&e.to_string())
                )))
            }
        }
    }
}

/// `tools/call`, with a `notifications/cancelled` that is never lost when the call is dropped first.
/// rmcp's own `call_tool` cancels with a `try_send` into the connection's bounded queue: when a run
/// ended with many calls pending, thousands at once, most cancellations were dropped and the server
/// kept working for a run that was gone. Here each abandoned call's notice is sent by a task that
/// waits for room in the queue.
async fn call_tool(
    peer: &rmcp::Peer<RoleClient>,
    params: CallToolRequestParams,
) -> Result<CallToolResult, rmcp::ServiceError> {
    use rmcp::model::{CallToolRequest, ClientRequest, ServerResult};
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let handle = peer
        .send_request_with_option(request, rmcp::service::PeerRequestOptions::no_options())
        .await?;
    let mut abandoned = CancelIfAbandoned {
        peer: peer.clone(),
        id: Some(handle.id.clone()),
    };
    let reply = handle.await_response().await;
    abandoned.id = None;
    match reply? {
        ServerResult::CallToolResult(result) => Ok(result),
        // A tool that returns nothing may answer `{}`.
        ServerResult::EmptyResult(_) => Ok(CallToolResult::success(Vec::new())),
        _ => Err(rmcp::ServiceError::UnexpectedResponse),
    }
}

/// Tells the server a call was abandoned, when dropped while its id is still set.
struct CancelIfAbandoned {
    peer: rmcp::Peer<RoleClient>,
    id: Option<rmcp::model::RequestId>,
}

impl Drop for CancelIfAbandoned {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let peer = self.peer.clone();
        runtime.spawn(async move {
            let notice = rmcp::model::CancelledNotification::new(
                rmcp::model::CancelledNotificationParam::new(
                    Some(id),
                    Some("the call was abandoned: its run ended".into()),
                ),
            );
            // A closed connection has nothing left to cancel.
            let _ = peer.send_notification(notice.into()).await;
        });
    }
}

/// A tool's reply as the snippet's value: `structuredContent` when present (`{"result": v}` is `v`); else each content block
/// — text parsed as JSON when it is JSON, else the text; an image, audio or resource block as its MCP
/// object (`{"type": "image", "mimeType": …, "data": <base64>}`) — one value, or a list of several.
/// `isError` is a `RuntimeError` with the content's text, as in the Python original.
pub(crate) fn tool_value(result: CallToolResult) -> Result<Value, HostError> {
    if result.is_error == Some(true) {
        let text: Vec<String> = result
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        let message = if text.is_empty() {
            "MCP tool returned an error".to_string()
        } else {
            text.join("\n")
        };
        return Err(HostError::runtime(message));
    }
    if let Some(structured) = result.structured_content {
        // SDKs wrap a tool's non-object return value as {"result": value}: the value is what the
        // tool returned (the original unwraps it too).
        return Ok(match structured {
            Value::Object(mut map) if map.len() == 1 && map.contains_key("result") => {
                map.remove("result").unwrap_or(Value::Null)
            }
            other => other,
        });
    }
    let mut values: Vec<Value> = result.content.into_iter().map(content_value).collect();
    Ok(match values.len() {
        0 => Value::Null,
        1 => values.remove(0),
        _ => Value::Array(values),
    })
}

fn content_value(block: ContentBlock) -> Value {
    match block {
        ContentBlock::Text(text) => {
            serde_json::from_str(&text.text).unwrap_or(Value::String(text.text))
        }
        other => serde_json::to_value(&other).unwrap_or(Value::Null),
    }
}

/// Connects one server and lists its tools; the error is one line.
async fn connect(name: &str, server: &McpServerConfig) -> Result<(Client, Vec<Tool>), String> {
    let connected = async {
        let client = match (&server.command, &server.url) {
            (Some(command), _) => connect_stdio(name, command, server).await?,
            (None, Some(url)) => connect_http(name, url, server).await?,
            (None, None) => return Err("neither command nor url is set".into()),
        };
        let tools = list_tools_bounded(name, &client).await?;
        Ok((client, tools))
    };
    // Every reason is shown to people (status, doctor, warnings): no URL's credentials in it.
    connected
        .await
        .map_err(|reason: String| redact_urls(&reason))
}

/// The most tools one server may offer, and the most pages its list may take: a server that pages
/// without end (or lists millions) is cut off there, not followed until the host's memory runs out.
const MAX_TOOLS_PER_SERVER: usize = 1000;
const MAX_TOOL_PAGES: usize = 100;

/// `tools/list`, every page, within [`MAX_TOOLS_PER_SERVER`] and [`MAX_TOOL_PAGES`].
async fn list_tools_bounded(name: &str, client: &Client) -> Result<Vec<Tool>, String> {
    let failed =
        |e: rmcp::ServiceError| format!("listing its tools failed: {}", one_line(&e.to_string()));
    let mut tools = Vec::new();
    let mut cursor = None;
    for page in 0.. {
        let params = rmcp::model::PaginatedRequestParams::default().with_cursor(cursor);
        let listed = client.list_tools(Some(params)).await.map_err(failed)?;
        tools.extend(listed.tools);
        cursor = listed.next_cursor;
        if cursor.is_none() {
            break;
        }
        if tools.len() >= MAX_TOOLS_PER_SERVER || page + 1 >= MAX_TOOL_PAGES {
            tracing::warn!(
                server = name,
                "MCP server '{name}': its tool list was cut off after {} tools in {} pages",
                tools.len().min(MAX_TOOLS_PER_SERVER),
                page + 1
            );
            break;
        }
    }
    tools.truncate(MAX_TOOLS_PER_SERVER);
    Ok(tools)
}

/// The largest tool name, description and input or output schema (as JSON) a server's tool may have.
/// Past them the tool is skipped (a name, a schema) or its description shortened: each is copied into
/// every run's namespace and every search.
const MAX_TOOL_NAME_BYTES: usize = 128;
const MAX_TOOL_DESCRIPTION_BYTES: usize = 8 << 10;
const MAX_TOOL_SCHEMA_BYTES: usize = 256 << 10;

/// Why a server's tool is not registered, if it is too large to be.
fn oversized(tool: &Tool) -> Option<String> {
    if tool.name.len() > MAX_TOOL_NAME_BYTES {
        return Some(format!(
            "its name has {} bytes (at most {MAX_TOOL_NAME_BYTES})",
            tool.name.len()
        ));
    }
    let schema_bytes = |schema: &serde_json::Map<String, Value>| {
        serde_json::to_vec(schema).map_or(usize::MAX, |json| json.len())
    };
    let input = schema_bytes(&tool.input_schema);
    let output = tool.output_schema.as_deref().map_or(0, schema_bytes);
    (input.max(output) > MAX_TOOL_SCHEMA_BYTES).then(|| {
        format!(
            "its schema has {} bytes of JSON (at most {MAX_TOOL_SCHEMA_BYTES})",
            input.max(output)
        )
    })
}

/// `text` with control characters shown escaped: a config file, a server's name or its error must not
/// restyle the terminal.
pub(crate) fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `text` with the secrets of every URL in it hidden, for what is shown to people (lists, statuses,
/// warnings): the userinfo (`https://user:pass@host` shows `https://***@host`) and the value of a query
/// parameter whose name suggests a credential (`?api_key=…` shows `?api_key=***`).
pub(crate) fn redact_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let start = rest[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
            .map_or(0, |i| i + 1);
        let end = rest[at..]
            .find(|c: char| c.is_whitespace() || "\"'<>`".contains(c))
            .map_or(rest.len(), |i| at + i);
        out.push_str(&rest[..start]);
        out.push_str(&redact_url(&rest[start..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn redact_url(url: &str) -> String {
    let Some((scheme, after)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let (authority, tail) = after.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((_, host)) => format!("***@{host}"),
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let (query, fragment) = query
                .split_once('#')
                .map_or((query, None), |(q, f)| (q, Some(f)));
            let hidden: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((key, _)) if names_a_credential(key) => format!("{key}=***"),
                    _ => pair.to_string(),
                })
                .collect();
            let mut tail = format!("{path}?{}", hidden.join("&"));
            if let Some(fragment) = fragment {
                tail.push('#');
                tail.push_str(fragment);
            }
            tail
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

/// Whether a query parameter's name suggests a credential.
fn names_a_credential(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    [
        "key",
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "auth",
        "sig",
        "credential",
        "session",
        "code",
        "access",
    ]
    .iter()
    .any(|hint| key.contains(hint))
}

/// `text` cut to at most `max` bytes, at a character boundary, with `…` when cut.
fn shortened(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

async fn connect_stdio(
    name: &str,
    command: &str,
    server: &McpServerConfig,
) -> Result<Client, String> {
    let mut env: Vec<(String, std::ffi::OsString)> = BASE_ENV
        .iter()
        .filter_map(|var| std::env::var_os(var).map(|value| (var.to_string(), value)))
        .collect();
    env.extend(
        resolve_secrets("env", &server.env)?
            .into_iter()
            .map(|(key, value)| (key, value.into())),
    );
    let (mut process, jailed) = server_command(command, server, env).await?;
    process.kill_on_drop(true);
    if let Some(cwd) = &server.cwd {
        process.current_dir(cwd);
    }
    // Its own process group: a terminal's Ctrl-C reaches the host, which ends the server itself, and
    // the host ends the whole group (the server's own children too).
    process.process_group(0);
    end_with_the_host(&mut process, jailed);
    keep_the_host_unreadable();
    process
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = process
        .spawn()
        .map_err(|e| format!("cannot start {command:?}: {e}"))?;
    let group = child.id().map(ServerGroup::new);
    let (Some(stdin), Some(stdout), stderr) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(format!("cannot start {command:?}: no pipes to it"));
    };
    if let Some(stderr) = stderr {
        tokio::spawn(forward_stderr(printable(name), stderr));
    }
    let service = ()
        .serve(stdio_transport(stdout, stdin))
        .await
        .map_err(|e| format!("initialisation failed: {}", one_line(&e.to_string())))?;
    Ok(Client {
        service,
        _process: Some(child),
        _group: group,
    })
}

/// The client's end of a stdio server's pipes: replies bounded in size, one JSON-RPC message a line,
/// each cancellation after its request.
fn stdio_transport<R, W>(replies: R, requests: W) -> impl rmcp::transport::Transport<RoleClient>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let replies = reply_bounds::BoundedReplies::new(replies, MAX_MESSAGE_BYTES);
    in_order::CancelsAfterRequests::new(
        AsyncRwTransport::<RoleClient, _, _>::new(replies, requests)
            .with_max_line_length(MAX_MESSAGE_BYTES),
    )
}

/// The command that starts a stdio server with `env` as its whole environment: its jail's launcher
/// where servers can be jailed here (`server_jail`), else the program itself; and which it is.
async fn server_command(
    command: &str,
    server: &McpServerConfig,
    env: Vec<(String, std::ffi::OsString)>,
) -> Result<(tokio::process::Command, bool), String> {
    #[cfg(target_os = "linux")]
    if let Ok(Ok(launcher)) = tokio::task::spawn_blocking(jail_launcher).await {
        // The launcher starts the program by its path: one that is not there is said here, as the
        // host says it of a program it starts itself.
        let path = env
            .iter()
            .find(|(key, _)| key == "PATH")
            .map(|(_, value)| value.as_os_str());
        let program = find_program(command, path, server.cwd.as_deref())
            .map_err(|e| format!("cannot start {command:?}: {e}"))?;
        let mut process = tokio::process::Command::new(launcher);
        process
            .arg(program)
            .arg(command)
            .args(&server.args)
            .env_clear()
            .envs(env)
            .env(
                crate::engine::WORKER_ENV,
                crate::engine::server_jail::LAUNCH_MODE,
            );
        return Ok((process, true));
    }
    let mut process = tokio::process::Command::new(command);
    process.args(&server.args).env_clear().envs(env);
    Ok((process, false))
}

/// Where `exec` finds `command` with `path` as its `PATH` (the libc default where unset): a name with
/// a slash is a path (relative to `cwd`), any other the first executable file of that name in a
/// directory of `path`.
#[cfg(target_os = "linux")]
fn find_program(
    command: &str,
    path: Option<&std::ffi::OsStr>,
    cwd: Option<&std::path::Path>,
) -> std::io::Result<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    use std::path::{Path, PathBuf};
    let within = |path: &Path| match cwd {
        Some(cwd) if path.is_relative() => cwd.join(path),
        _ => path.to_path_buf(),
    };
    if command.contains('/') {
        std::fs::metadata(within(Path::new(command)))?;
        return Ok(PathBuf::from(command));
    }
    let path = path.unwrap_or(std::ffi::OsStr::new("/bin:/usr/bin"));
    for dir in std::env::split_paths(path) {
        if dir.as_os_str().is_empty() {
            continue;
        }
        let candidate = dir.join(command);
        if let Ok(found) = std::fs::metadata(within(&candidate))
            && found.is_file()
            && found.permissions().mode() & 0o111 != 0
        {
            return Ok(candidate);
        }
    }
    Err(std::io::Error::from_raw_os_error(libc::ENOENT))
}

/// What protects the host and the other servers from the stdio servers it starts, as `toolplane
/// doctor` says it. The first call checks whether servers can start in a jail here (once per process).
///
/// ```no_run
/// println!("{}", toolplane::mcp_client::server_protections());
/// ```
pub fn server_protections() -> String {
    #[cfg(target_os = "linux")]
    return match jail_launcher() {
        Ok(_) => "protections: each server runs in its own PID and mount namespaces (and a user \
                  namespace where the kernel gives one), with a /proc of its own: it sees neither the host nor another server; \
                  the host is non-dumpable; servers start with an empty signal mask and no \
                  capabilities (also as root), and end with the host, with everything they started"
            .into(),
        Err(why) => format!(
            "protections: the host is non-dumpable while servers run (they cannot read its \
             environment or memory), servers start with an empty signal mask, no capabilities (also \
             as root) and in their own process group, which ends with the host; but servers of one \
             user can read each other's environment: no jail here ({})",
            printable(&why)
        ),
    };
    #[cfg(not(target_os = "linux"))]
    "protections: servers start in their own process group; the host's environment is readable by \
     processes of the same user on this platform"
        .into()
}

/// The launcher that starts stdio servers in a jail (`server_jail`), or why servers start without
/// one here: no worker executable, or a kernel that makes no namespaces for this user. Checked once
/// per process, by starting the launcher as a probe.
#[cfg(target_os = "linux")]
fn jail_launcher() -> Result<std::path::PathBuf, String> {
    static LAUNCHER: std::sync::OnceLock<Result<std::path::PathBuf, String>> =
        std::sync::OnceLock::new();
    LAUNCHER.get_or_init(probe_jail).clone()
}

#[cfg(target_os = "linux")]
fn probe_jail() -> Result<std::path::PathBuf, String> {
    use std::io::Read;
    let exe = crate::engine::worker_executable(None)?;
    let mut probe = std::process::Command::new(&exe)
        .env_clear()
        .env(
            crate::engine::WORKER_ENV,
            crate::engine::server_jail::PROBE_MODE,
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let status = loop {
        match probe.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            _ => {
                let _ = probe.kill();
                let _ = probe.wait();
                return Err("the jail's probe did not end within 10 s".into());
            }
        }
    };
    if status.success() {
        return Ok(exe);
    }
    let mut said = String::new();
    if let Some(mut stderr) = probe.stderr.take() {
        let _ = stderr.by_ref().take(4096).read_to_string(&mut said);
    }
    let said = said.lines().next().unwrap_or_default();
    let said = said
        .strip_prefix("toolplane: cannot start the server in its jail: ")
        .unwrap_or(said);
    Err(if said.is_empty() {
        format!("{} as the jail's launcher: {status}", exe.display())
    } else {
        said.to_string()
    })
}

/// The most of one line of a server's stderr the host holds and prints.
const MAX_STDERR_LINE_BYTES: usize = 8 << 10;

/// The target of the events that carry a stdio server's stderr, a line each, with the server's name in
/// the field `server` (the CLI prints them as `[mcp NAME] line`).
pub const SERVER_STDERR_TARGET: &str = "toolplane::server_stderr";

/// Passes a server's stderr on as events ([`SERVER_STDERR_TARGET`], level INFO), a line at a time: each
/// line is cut at [`MAX_STDERR_LINE_BYTES`] (a stream without newlines must not grow the host) and its
/// control characters are shown escaped (a server must not restyle the user's terminal).
async fn forward_stderr(server: String, stderr: tokio::process::ChildStderr) {
    let mut reader = tokio::io::BufReader::new(stderr);
    let mut line: Vec<u8> = Vec::new();
    let mut cut = 0usize;
    while let Ok(buffer) = reader.fill_buf().await {
        if buffer.is_empty() {
            break;
        }
        let (taken, ends) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        let text = &buffer[..if ends { taken - 1 } else { taken }];
        let room = MAX_STDERR_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&text[..text.len().min(room)]);
        cut += text.len().saturating_sub(room);
        reader.consume(taken);
        if ends {
            let mut shown = printable(&String::from_utf8_lossy(&line));
            if cut > 0 {
                shown.push_str(&format!("… ({cut} more bytes)"));
            }
            tracing::info!(target: SERVER_STDERR_TARGET, server, "{shown}");
            line.clear();
            cut = 0;
        }
    }
    if !line.is_empty() {
        let shown = printable(&String::from_utf8_lossy(&line));
        tracing::info!(target: SERVER_STDERR_TARGET, server, "{shown}");
    }
}

/// The process group of a stdio server: ended (SIGKILL) when its client is dropped, and by an
/// `atexit` handler when the host exits, so that children the server started do not outlive it.
struct ServerGroup(i32);

/// The groups of the servers alive, for the `atexit` handler.
static SERVER_GROUPS: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

impl ServerGroup {
    fn new(pid: u32) -> Self {
        static AT_EXIT: std::sync::Once = std::sync::Once::new();
        AT_EXIT.call_once(|| {
            extern "C" fn end_server_groups() {
                // try_lock: an exit from inside a locked section must not hang.
                if let Ok(groups) = SERVER_GROUPS.try_lock() {
                    for group in groups.iter() {
                        // SAFETY: killpg on a process group this host started.
                        unsafe { libc::killpg(*group, libc::SIGKILL) };
                    }
                }
            }
            // SAFETY: registers a handler that only calls killpg.
            unsafe { libc::atexit(end_server_groups) };
        });
        let group = pid as i32;
        SERVER_GROUPS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(group);
        Self(group)
    }
}

impl Drop for ServerGroup {
    fn drop(&mut self) {
        SERVER_GROUPS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|g| *g != self.0);
        // SAFETY: killpg on the process group this host started for the server.
        unsafe { libc::killpg(self.0, libc::SIGKILL) };
    }
}

/// Makes the host non-dumpable before it starts a server: a process of the same user can then not read
/// its `/proc/PID/environ` (every secret of the host's environment), `mem` or `maps`. Also no core
/// dump and no debugger attach for the host, which starts programs a config names.
fn keep_the_host_unreadable() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain prctl on this process.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

async fn connect_http(name: &str, url: &str, server: &McpServerConfig) -> Result<Client, String> {
    let mut headers = std::collections::HashMap::new();
    for (key, value) in resolve_secrets("headers", &server.headers)? {
        let name = hyper::header::HeaderName::try_from(key.as_str())
            .map_err(|_| format!("headers.{key}: not a valid header name"))?;
        let value = hyper::header::HeaderValue::try_from(value)
            .map_err(|_| format!("headers.{key}: not a valid header value"))?;
        headers.insert(name, value);
    }
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_string());
    config.custom_headers = headers;
    config.max_sse_event_size = MAX_MESSAGE_BYTES;
    config.max_json_response_size = MAX_MESSAGE_BYTES;
    let connected = if server.auth.as_deref() == Some("oauth") {
        let tokens = oauth::KeyringCredentials::new(name, url);
        let client = oauth::authorized_client(name, url, tokens).await?;
        ().serve(StreamableHttpClientTransport::with_client(client, config))
            .await
    } else {
        if let Some(auth) = &server.auth {
            let token = BTreeMap::from([(String::new(), auth.clone())]);
            let resolved = resolve_secrets("auth", &token)?;
            config.auth_header = resolved.into_iter().next().map(|(_, token)| token);
        }
        ().serve(StreamableHttpClientTransport::from_config(config))
            .await
    };
    let service = connected.map_err(|e| {
        let failure = http_failure(&e.to_string());
        if server.auth.as_deref() == Some("oauth") && failure.contains("(HTTP 401)") {
            oauth::login_needed(name)
        } else {
            format!("cannot connect to {url}: {failure}")
        }
    })?;
    Ok(Client {
        service,
        _process: None,
        _group: None,
    })
}

/// The prefix of the variables `toolplane mcp import` writes as placeholders for secrets to fill in.
pub(crate) const IMPORT_PLACEHOLDER_PREFIX: &str = "TOOLPLANE_IMPORT_";

/// `values` with each `env://VAR` replaced by the host's `VAR` and each `keyring://NAME` by the OS
/// keyring's secret; a missing one names the key and how to provide it, never a value.
pub(crate) fn resolve_secrets(
    field: &str,
    values: &BTreeMap<String, String>,
) -> Result<Vec<(String, String)>, String> {
    values
        .iter()
        .map(|(key, value)| match value.strip_prefix("env://") {
            None if value.starts_with("keyring://") => {
                let at = if key.is_empty() {
                    field.to_string()
                } else {
                    format!("{field}.{key}")
                };
                crate::secrets::resolve(&value["keyring://".len()..])
                    .map(|resolved| (key.clone(), resolved))
                    .map_err(|why| format!("{at}: {why}"))
            }
            Some(var) => std::env::var(var)
                .map(|resolved| (key.clone(), resolved))
                .map_err(|_| {
                    let at = if key.is_empty() {
                        field.to_string()
                    } else {
                        format!("{field}.{key}")
                    };
                    if var.starts_with(IMPORT_PLACEHOLDER_PREFIX) {
                        format!(
                            "{at}: {var} is a placeholder written by `toolplane mcp import`: set \
                             it, or replace it in the config"
                        )
                    } else {
                        format!("{at}: environment variable {var} is not set")
                    }
                }),
            None => Ok((key.clone(), value.clone())),
        })
        .collect()
}

/// The child gets SIGKILL when the host dies, however it dies (Linux). A server started directly
/// (not `jailed`) also loses every capability here; a jail's launcher drops them for the server.
fn end_with_the_host(process: &mut tokio::process::Command, jailed: bool) {
    #[cfg(not(target_os = "linux"))]
    let _ = (process, jailed);
    #[cfg(target_os = "linux")]
    {
        let host = std::process::id();
        // SAFETY: the closure runs in the forked child before exec and calls only prctl(2),
        // getppid(2), geteuid(2), sigemptyset/sigprocmask(2) and signal(2), all async-signal-safe;
        // it allocates nothing and touches no locks.
        unsafe {
            process.pre_exec(move || {
                // The host's blocked and ignored signals (`toolplane run` blocks SIGTERM, SIGINT and
                // SIGHUP for its signal thread) must not make the server immune to them.
                let mut none: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut none);
                libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
                for signal in [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM] {
                    libc::signal(signal, libc::SIG_DFL);
                }
                // As root, no capability survives the exec: a server with CAP_SYS_PTRACE would read
                // the non-dumpable host anyway.
                if !jailed && libc::geteuid() == 0 {
                    for capability in 0..64 {
                        libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0);
                    }
                }
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The host may have died before the prctl: then nobody would send the signal.
                if libc::getppid() as u32 != host {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
}

/// rmcp's text for a failed HTTP connection, without the transport's Rust type names; a refused
/// credential says what to set.
fn http_failure(text: &str) -> String {
    let text = one_line(text);
    let text = match text.split_once("] error: ") {
        Some((_, rest)) => rest.to_string(),
        None => text,
    };
    if text.starts_with("Auth required") {
        return "the server requires authentication (HTTP 401): set auth = \"env://TOKEN\" (a bearer \
                token), an Authorization header, or auth = \"oauth\" and run toolplane mcp login"
            .into();
    }
    text
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `raw` as a Python identifier, as the original makes aliases: runs of other characters become `_`,
/// lower case, never empty, never starting with a digit.
fn python_identifier(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches('_');
    let mut name = if trimmed.is_empty() {
        "mcp_tool".to_string()
    } else {
        trimmed.to_string()
    };
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name = format!("mcp_{name}");
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A server that answers `initialize` and then only listens, recording what reaches it in order:
    /// `Ok(id)` a request, `Err(id)` a cancellation.
    async fn listening_server(
        stream: tokio::io::DuplexStream,
        seen: Arc<std::sync::Mutex<Vec<Result<Value, Value>>>>,
    ) {
        use tokio::io::AsyncWriteExt;
        let (read, mut write) = tokio::io::split(stream);
        let mut lines = tokio::io::BufReader::new(read).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let message: Value = serde_json::from_str(&line).unwrap();
            match message["method"].as_str() {
                Some("initialize") => {
                    let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": {
                        "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                        "serverInfo": {"name": "listener", "version": "1"}}});
                    write
                        .write_all(format!("{reply}\n").as_bytes())
                        .await
                        .unwrap();
                }
                Some("tools/call") => seen.lock().unwrap().push(Ok(message["id"].clone())),
                Some("notifications/cancelled") => seen
                    .lock()
                    .unwrap()
                    .push(Err(message["params"]["requestId"].clone())),
                _ => {}
            }
        }
    }

    /// A call abandoned as soon as it is sent is cancelled after its request, on the wire: a server
    /// ignores a cancellation for an id it has not seen, and then runs the call for a run that is
    /// gone. rmcp writes each message from a task of its own, so on a multi-threaded runtime a
    /// cancellation could overtake its request.
    #[test]
    fn a_cancellation_never_overtakes_its_request() {
        const CALLS: usize = 2_000;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(4)
            .enable_all()
            .build()
            .unwrap();
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        runtime.block_on(async {
            let (client_end, server_end) = tokio::io::duplex(1 << 20);
            tokio::spawn(listening_server(server_end, seen.clone()));
            let (read, write) = tokio::io::split(client_end);
            let client = ().serve(stdio_transport(read, write)).await.unwrap();
            let calls: Vec<_> = (0..CALLS)
                .map(|_| {
                    let peer = client.peer().clone();
                    tokio::spawn(async move {
                        let call = call_tool(&peer, CallToolRequestParams::new("hang"));
                        let _ = tokio::time::timeout(Duration::ZERO, call).await;
                    })
                })
                .collect();
            for call in calls {
                call.await.unwrap();
            }
            let cancels = || seen.lock().unwrap().iter().filter(|e| e.is_err()).count();
            let requests = || seen.lock().unwrap().iter().filter(|e| e.is_ok()).count();
            let started = std::time::Instant::now();
            while (requests() == 0 || cancels() < requests())
                && started.elapsed() < Duration::from_secs(20)
            {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        });
        let seen = seen.lock().unwrap();
        let mut requested = std::collections::HashSet::new();
        let mut overtaken = 0;
        for event in seen.iter() {
            match event {
                Ok(id) => {
                    requested.insert(id.to_string());
                }
                Err(id) if !requested.contains(&id.to_string()) => overtaken += 1,
                Err(_) => {}
            }
        }
        assert!(!requested.is_empty(), "no call reached the server");
        assert_eq!(overtaken, 0, "of {} requests", requested.len());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn programs_are_found_as_exec_finds_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = std::ffi::OsStr::new("/nonexistent:/bin:/usr/bin");
        assert!(
            find_program("sh", Some(path), None)
                .unwrap()
                .ends_with("sh")
        );
        // Not executable: skipped, as exec skips it.
        std::fs::write(dir.path().join("sh"), "").unwrap();
        let first = std::env::join_paths([dir.path(), std::path::Path::new("/bin")]).unwrap();
        assert_eq!(
            find_program("sh", Some(&first), None).unwrap(),
            std::path::Path::new("/bin/sh")
        );
        let missing = find_program("no-such-program-here", Some(path), None).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "No such file or directory (os error 2)"
        );
        // A name with a slash is a path, relative to the server's directory.
        assert!(find_program("./sh", None, Some(dir.path())).is_ok());
        assert!(find_program("./sh", None, Some(std::path::Path::new("/"))).is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_jail_counts_as_one_level() {
        let Ok(unshare) = std::process::Command::new("unshare")
            .args(["-r", "-Upfm", "--mount-proc", "true"])
            .status()
        else {
            return eprintln!("no unshare(1) here: not checked");
        };
        if !unshare.success() {
            return eprintln!("unshare(1) cannot make namespaces here: not checked");
        }
        let exe = std::env::current_exe().unwrap();
        // This test binary, run again inside a jail made by unshare(1), prints the depth it sees.
        let inside = std::process::Command::new("unshare")
            .args(["-r", "-Upfm", "--mount-proc"])
            .arg(&exe)
            .args([
                "--exact",
                "mcp_client::tests::jail_depth_probe",
                "--nocapture",
            ])
            .env("TOOLPLANE_TEST_JAIL_DEPTH", "1")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&inside.stdout);
        let depth = |text: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix("jail depth: "))
                .map(|d| d.parse::<usize>().unwrap())
        };
        assert_eq!(
            depth(&said),
            Some(crate::engine::server_jail::depth() + 1),
            "{said}"
        );
    }

    /// Prints the jail depth for `a_jail_counts_as_one_level` (nothing when run on its own).
    #[cfg(target_os = "linux")]
    #[test]
    fn jail_depth_probe() {
        if std::env::var_os("TOOLPLANE_TEST_JAIL_DEPTH").is_some() {
            println!("jail depth: {}", crate::engine::server_jail::depth());
        }
    }

    #[test]
    fn urls_are_shown_without_their_credentials() {
        assert_eq!(
            redact_urls("cannot connect to https://me:pw@h.example/mcp?api_key=s3&x=1#f: refused"),
            "cannot connect to https://***@h.example/mcp?api_key=***&x=1#f: refused"
        );
        assert_eq!(
            redact_urls("url=http://127.0.0.1:9/mcp?access_token=abc"),
            "url=http://127.0.0.1:9/mcp?access_token=***"
        );
        assert_eq!(redact_urls("no url here"), "no url here");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("a\x1b[31mb\n"), "a\\u{1b}[31mb\\n");
    }

    #[test]
    fn restarts_back_off_from_one_to_thirty_seconds() {
        let pauses: Vec<u64> = (0..8).map(|n| backoff(n).as_secs()).collect();
        assert_eq!(pauses, [1, 2, 4, 8, 16, 30, 30, 30]);
    }

    #[test]
    fn aliases_are_python_identifiers_as_the_original_makes_them() {
        assert_eq!(
            python_identifier("linear_list-issues"),
            "linear_list_issues"
        );
        assert_eq!(python_identifier("Git Hub__getRepo"), "git_hub_getrepo");
        assert_eq!(python_identifier("9x_y"), "mcp_9x_y");
        assert_eq!(python_identifier("--"), "mcp_tool");
    }

    #[test]
    fn replies_become_values() {
        let structured = CallToolResult::structured(json!({"n": 1}));
        assert_eq!(tool_value(structured).unwrap(), json!({"n": 1}));
        let json_text = CallToolResult::success(vec![ContentBlock::text("[1, 2]")]);
        assert_eq!(tool_value(json_text).unwrap(), json!([1, 2]));
        let plain = CallToolResult::success(vec![ContentBlock::text("hello")]);
        assert_eq!(tool_value(plain).unwrap(), json!("hello"));
        let several = CallToolResult::success(vec![
            ContentBlock::text("a"),
            ContentBlock::image("aGk=", "image/png"),
        ]);
        let value = tool_value(several).unwrap();
        assert_eq!(value[0], "a");
        assert_eq!(value[1]["type"], "image");
        assert_eq!(value[1]["mimeType"], "image/png");
        assert_eq!(value[1]["data"], "aGk=");
        let failed = CallToolResult::error(vec![ContentBlock::text("no such issue")]);
        let error = tool_value(failed).unwrap_err();
        assert_eq!(error.message, "no such issue");
    }

    #[test]
    fn secrets_resolve_from_the_environment_and_never_show() {
        let values = BTreeMap::from([(
            "Authorization".to_string(),
            "env://TOOLPLANE_TEST_UNSET_VAR".to_string(),
        )]);
        let error = resolve_secrets("headers", &values).unwrap_err();
        assert_eq!(
            error,
            "headers.Authorization: environment variable TOOLPLANE_TEST_UNSET_VAR is not set"
        );
        let path = BTreeMap::from([("P".to_string(), "env://PATH".to_string())]);
        assert_eq!(
            resolve_secrets("env", &path).unwrap()[0].1,
            std::env::var("PATH").unwrap()
        );
    }
}
