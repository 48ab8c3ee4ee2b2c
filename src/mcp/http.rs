//! The streamable-HTTP transport: rmcp's tower service, served by hyper at `/mcp`.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::common::http_header::HEADER_SESSION_ID;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::local::SessionConfig;
use rmcp::transport::streamable_http_server::{SessionId, SessionManager as _};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::McpServer;

/// The port `serve mcp --transport http` listens on when `--port` is not given.
pub const DEFAULT_HTTP_PORT: u16 = 8000;

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";

type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

/// The bearer tokens HTTP clients must present, by principal, as SHA-256 digests: a presented token is
/// hashed and compared with each in constant time, so neither its bytes nor its length tell anything.
#[derive(Default)]
pub(super) struct BearerTokens(Vec<(String, [u8; 32])>);

impl BearerTokens {
    pub(super) fn new(tokens: impl IntoIterator<Item = (String, String)>) -> Self {
        Self(
            tokens
                .into_iter()
                .map(|(principal, token)| (principal, digest(token.as_bytes())))
                .collect(),
        )
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many principals have tokens.
    pub(super) fn principals(&self) -> usize {
        let mut names: Vec<&str> = self.0.iter().map(|(p, _)| p.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        names.len()
    }

    /// The principal whose token `authorization` (the header's value) carries.
    fn principal(&self, authorization: Option<&hyper::header::HeaderValue>) -> Option<&str> {
        let presented = authorization?
            .as_bytes()
            .strip_prefix(b"Bearer ")
            .map(<[u8]>::trim_ascii)
            // An empty token is no token, whatever an embedder passed as one.
            .filter(|token| !token.is_empty())?;
        let presented = digest(presented);
        // Every token is compared: the time does not say which principal matched, or whether one did.
        let mut found = None;
        for (principal, token) in &self.0 {
            if constant_time_eq::constant_time_eq_32(token, &presented) && found.is_none() {
                found = Some(principal.as_str());
            }
        }
        found
    }
}

/// The principal an HTTP request authenticated as, in its extensions (rmcp hands the handler the
/// request's parts): its stores are that principal's.
#[derive(Clone)]
pub(crate) struct Principal(pub(crate) Arc<str>);

fn digest(bytes: &[u8]) -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).into()
}

pub(super) async fn serve(
    server: McpServer,
    listener: tokio::net::TcpListener,
    allowed_origins: Arc<Vec<String>>,
    tokens: Arc<BearerTokens>,
    shutdown: impl Future<Output = std::io::Result<()>>,
) -> std::io::Result<()> {
    let local = listener.local_addr()?;
    // Host-header validation (DNS rebinding): loopback names plus the address we are bound to.
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.push(local.ip().to_string());
    hosts.push(local.to_string());
    hosts.extend(server.allowed_hosts.iter().cloned());
    let config = StreamableHttpServerConfig::default().with_allowed_hosts(hosts);
    let cancel = config.cancellation_token.clone();
    let limits = server.runtime().config().http.clone();
    let idle = limits.idle_expiry();
    // rmcp ends a session idle this long, and drops its server with the client's stores.
    let mut session_config = SessionConfig::default();
    session_config.keep_alive = Some(idle);
    let mut sessions = LocalSessionManager::default();
    sessions.session_config = session_config;
    let sessions = Arc::new(sessions);
    // Principals' stores outlive their MCP sessions: they end after the same idle time.
    let _expiry = AbortOnDrop(tokio::spawn({
        let server = server.clone();
        let every = (idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
        async move {
            loop {
                tokio::time::sleep(every).await;
                server.state.clients.expire_idle(idle);
            }
        }
    }));
    let endpoint = Arc::new(Endpoint {
        oauth: limits
            .oauth
            .clone()
            .map(|oauth| Arc::new(super::oauth_resource::OAuthResource::new(oauth))),
        max_sessions: limits.max_sessions,
        idle,
        admitting: tokio::sync::Mutex::new(()),
        max_body_bytes: config.max_request_body_bytes,
        service: StreamableHttpService::new(
            move || Ok(server.for_new_client()),
            sessions.clone(),
            config,
        ),
        sessions,
        owners: Default::default(),
        allowed_origins,
        tokens,
    });
    let connections = Arc::new(Connections::new(max_connections()));
    let mut backoff = AcceptBackoff::default();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => {
                        backoff.reset();
                        stream
                    }
                    // A full fd table is no reason to stop serving, nor to spin: wait a little
                    // (longer each time) for connections to close.
                    Err(e) => {
                        if is_out_of_descriptors(&e) {
                            backoff.wait().await;
                        }
                        continue;
                    }
                };
                let Ok(stream) = without_nagle(stream) else { continue };
                let Some(connection) = connections.admit() else {
                    // Every connection is serving a request: refuse this one at once.
                    tokio::spawn(refuse_busy(stream));
                    continue;
                };
                let endpoint = endpoint.clone();
                tokio::spawn(serve_connection(stream, endpoint, connection));
            }
            signal = &mut shutdown => {
                cancel.cancel();
                return signal;
            }
        }
    }
}

/// Aborts a task when dropped (the server's background work ends with it).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// How long a client may take to send a request's headers, counted from when the connection is ready
/// for one (so an idle keep-alive connection closes after it too), and its body.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// The most connections served at once: half the descriptors this process may open (the rest are
/// for MCP servers, workers and files), at most 1024.
fn max_connections() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let soft = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
    } else {
        1024
    };
    (soft / 2).clamp(4, 1024)
}

fn is_out_of_descriptors(error: &std::io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
    )
}

/// The wait after an `accept` that failed for want of descriptors: 10 ms, doubling to 1 s.
#[derive(Default)]
struct AcceptBackoff(u32);

impl AcceptBackoff {
    async fn wait(&mut self) {
        let millis = (10u64 << self.0.min(7)).min(1000);
        self.0 += 1;
        tokio::time::sleep(Duration::from_millis(millis)).await;
    }

    fn reset(&mut self) {
        self.0 = 0;
    }
}

/// Serves one connection until it ends, times out, or is closed to make room for a new one.
async fn serve_connection(
    stream: tokio::net::TcpStream,
    endpoint: Arc<Endpoint>,
    connection: Admitted,
) {
    let busy = connection.busy.clone();
    let route = hyper::service::service_fn(move |request: Request<Incoming>| {
        let endpoint = endpoint.clone();
        let serving = Serving::start(&busy);
        async move {
            let response = endpoint.route(request).await;
            // Busy until the whole body is sent: a run's answer may stream for its duration.
            Ok::<Response<Body>, Infallible>(response.map(|body| guarded(body, serving)))
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT);
    let serve = http.serve_connection(TokioIo::new(stream), route);
    tokio::select! {
        _ = serve => {}
        _ = connection.evicted.notified() => {}
    }
}

/// A connection that got no slot: `503`, then closed.
async fn refuse_busy(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt as _;
    let reply = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\n\
                  Connection: close\r\n\r\n";
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(reply)).await;
}

/// The connections being served, at most `max`. A new one takes a free slot, or the slot of the
/// oldest connection that is not serving a request (one that has not sent its headers yet, or an
/// idle keep-alive one): slow or silent clients cannot lock a real one out, and no request in
/// flight is cut.
struct Connections {
    max: usize,
    next_id: std::sync::atomic::AtomicU64,
    open: std::sync::Mutex<std::collections::BTreeMap<u64, Slot>>,
}

struct Slot {
    busy: Arc<std::sync::atomic::AtomicUsize>,
    evict: Arc<tokio::sync::Notify>,
}

/// A connection's place in [`Connections`], given back when it is dropped.
struct Admitted {
    id: u64,
    connections: Arc<Connections>,
    busy: Arc<std::sync::atomic::AtomicUsize>,
    evicted: Arc<tokio::sync::Notify>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.connections.lock().remove(&self.id);
    }
}

impl Connections {
    fn new(max: usize) -> Self {
        Self {
            max,
            next_id: Default::default(),
            open: Default::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, std::collections::BTreeMap<u64, Slot>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn admit(self: &Arc<Self>) -> Option<Admitted> {
        use std::sync::atomic::Ordering;
        let mut open = self.lock();
        if open.len() >= self.max {
            // Ids grow with time: the first idle one is the oldest.
            let idle = open
                .iter()
                .find(|(_, slot)| slot.busy.load(Ordering::SeqCst) == 0)
                .map(|(id, _)| *id)?;
            if let Some(slot) = open.remove(&idle) {
                slot.evict.notify_one();
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let slot = Slot {
            busy: Arc::default(),
            evict: Arc::default(),
        };
        let admitted = Admitted {
            id,
            connections: self.clone(),
            busy: slot.busy.clone(),
            evicted: slot.evict.clone(),
        };
        open.insert(id, slot);
        Some(admitted)
    }
}

/// One request in flight on a connection: counted from its headers until its response's body is sent.
struct Serving(Arc<std::sync::atomic::AtomicUsize>);

impl Serving {
    fn start(busy: &Arc<std::sync::atomic::AtomicUsize>) -> Self {
        busy.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Self(busy.clone())
    }
}

impl BodyGuard for Serving {}

impl Drop for Serving {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// What a response body holds while it is sent: dropped with the body, told when it ended first.
trait BodyGuard: Send + Sync + Unpin + 'static {
    fn body_ended(&mut self) {}
}

/// `body` holding `guard` until it is sent or dropped.
fn guarded(body: Body, guard: impl BodyGuard) -> Body {
    GuardedBody { body, guard }.boxed()
}

struct GuardedBody<G> {
    body: Body,
    guard: G,
}

impl<G: BodyGuard> hyper::body::Body for GuardedBody<G> {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
        let frame = std::pin::Pin::new(&mut self.body).poll_frame(cx);
        if matches!(frame, std::task::Poll::Ready(None)) {
            self.guard.body_ended();
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// What every connection routes its requests to.
struct Endpoint {
    service: StreamableHttpService<McpServer, LocalSessionManager>,
    sessions: Arc<LocalSessionManager>,
    /// The principal each live session was opened by (`None`: no client authentication): a request
    /// from anyone else naming it is told there is no such session.
    owners: std::sync::Mutex<std::collections::HashMap<SessionId, Option<Arc<str>>>>,
    allowed_origins: Arc<Vec<String>>,
    tokens: Arc<BearerTokens>,
    /// `[http.oauth]`: access tokens from an authorization server, beside `tokens`.
    oauth: Option<Arc<super::oauth_resource::OAuthResource>>,
    max_body_bytes: usize,
    /// `[http] max_sessions`: each costs memory (with its stores and session) until it ends.
    max_sessions: usize,
    /// `[http] idle_expiry_seconds`, for the error past `max_sessions`.
    idle: Duration,
    /// Held from the count of sessions to the new one's creation, so the cap is never passed.
    admitting: tokio::sync::Mutex<()>,
}

impl Endpoint {
    /// Origin check, then `/mcp` to rmcp, with the JSON-RPC and HTTP answers the spec asks for where
    /// rmcp gives others: a body that is not JSON-RPC is 400 with -32700 (not JSON) or -32600 (not a
    /// request), not 415; `DELETE` of a session that is not live is 404, of a live one 204, not 202.
    async fn route(&self, mut request: Request<Incoming>) -> Response<Body> {
        if let Some(origin) = request.headers().get(hyper::header::ORIGIN)
            && !origin_allowed(origin.as_bytes(), &self.allowed_origins)
        {
            return forbidden_origin(origin.as_bytes());
        }
        if let Some(oauth) = &self.oauth
            && request.method() == hyper::Method::GET
            && [
                oauth.metadata_path().as_str(),
                "/.well-known/oauth-protected-resource",
            ]
            .contains(&request.uri().path())
        {
            return json_document(&oauth.metadata());
        }
        let mut principal = None;
        if !self.tokens.is_empty() || self.oauth.is_some() {
            let authorization = request.headers().get(hyper::header::AUTHORIZATION);
            match self.authenticate(authorization).await {
                Ok(name) => {
                    tracing::debug!(principal = &*name, "HTTP client authenticated");
                    principal = Some(name);
                }
                Err(why) => {
                    return unauthorized(
                        authorization.is_some(),
                        why.as_deref(),
                        self.oauth.as_ref().map(|o| o.metadata_url()).as_deref(),
                    );
                }
            }
        }
        if request.uri().path() != MCP_PATH {
            return not_found();
        }
        if let Some(id) = session_of(&request)
            && self
                .owners()
                .get(&id)
                .is_some_and(|owner| *owner != principal)
        {
            return session_not_found();
        }
        if let Some(principal) = principal {
            request.extensions_mut().insert(Principal(principal));
        }
        match *request.method() {
            hyper::Method::POST => self.post(request).await,
            hyper::Method::DELETE => self.delete(request).await,
            _ => self.service.handle(request).await,
        }
    }

    /// The principal `authorization` names: a `[http.tokens]` token's, else (with `[http.oauth]`) a
    /// valid access token's subject. `Err` with why, when there is one to tell.
    async fn authenticate(
        &self,
        authorization: Option<&hyper::header::HeaderValue>,
    ) -> Result<Arc<str>, Option<String>> {
        if let Some(name) = self.tokens.principal(authorization) {
            return Ok(name.into());
        }
        let Some(oauth) = &self.oauth else {
            return Err(None);
        };
        let token = authorization
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or(None)?;
        oauth
            .principal(token)
            .await
            .map(Arc::from)
            .map_err(|rejected| Some(rejected.0))
    }

    async fn post(&self, request: Request<Incoming>) -> Response<Body> {
        let json_body = request
            .headers()
            .get(hyper::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                let essence = v.split_once(';').map_or(v, |(essence, _)| essence);
                essence.trim().eq_ignore_ascii_case("application/json")
            });
        let new_session = session_of(&request).is_none();
        let admitting = if new_session {
            let admitting = self.admitting.lock().await;
            if !self.has_room().await {
                return json_error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    -32000,
                    &format!(
                        "Service Unavailable: the server holds its most MCP sessions ({}, [http] \
                         max_sessions); try again when one ends (DELETE, or {} s without a request)",
                        self.max_sessions,
                        self.idle.as_secs_f64()
                    ),
                    serde_json::Value::Null,
                );
            }
            Some(admitting)
        } else {
            None
        };
        let principal = request.extensions().get::<Principal>().map(|p| p.0.clone());
        let (hang_up, gone) = HangUp::new();
        let mut request = request;
        request.extensions_mut().insert(gone);
        let (parts, body) = request.into_parts();
        let collected = tokio::time::timeout(
            BODY_TIMEOUT,
            http_body_util::Limited::new(body, self.max_body_bytes).collect(),
        )
        .await;
        let body = match collected {
            Ok(Ok(collected)) => collected.to_bytes(),
            Err(_) => {
                return plain(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "Request Timeout: the body did not arrive within {} s",
                        BODY_TIMEOUT.as_secs()
                    ),
                );
            }
            Ok(Err(_)) => {
                return plain(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "Payload Too Large: request body exceeds {} bytes, or could not be read",
                        self.max_body_bytes
                    ),
                );
            }
        };
        let response = self
            .service
            .handle(Request::from_parts(parts, Full::new(body.clone())))
            .await;
        if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE && json_body {
            // The content type was right: rmcp could not read the body as a JSON-RPC message.
            return not_json_rpc(&body);
        }
        if new_session
            && let Some(id) = response
                .headers()
                .get(HEADER_SESSION_ID)
                .and_then(|v| v.to_str().ok())
        {
            self.owners().insert(SessionId::from(id), principal);
        }
        drop(admitting);
        response.map(|body| guarded(body, hang_up))
    }

    fn owners(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<SessionId, Option<Arc<str>>>> {
        self.owners.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a new session may start: fewer than `[http] max_sessions` are live. Forgets the
    /// owners of sessions rmcp ended on its own (idle expiry).
    async fn has_room(&self) -> bool {
        let sessions = self.sessions.sessions.read().await;
        self.owners().retain(|id, _| sessions.contains_key(id));
        sessions.len() < self.max_sessions
    }

    async fn delete(&self, request: Request<Incoming>) -> Response<Body> {
        let session = session_of(&request);
        if let Some(session) = &session
            && !self.sessions.has_session(session).await.unwrap_or(false)
        {
            return session_not_found();
        }
        if let Some(session) = &session {
            self.owners().remove(session);
        }
        let mut response = self.service.handle(request).await;
        if response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::NO_CONTENT;
            *response.body_mut() = Full::new(Bytes::new()).boxed();
        }
        response
    }
}

/// Resolves when the client that sent a request hung up before its whole response was sent: its run
/// (or hybrid call) is cancelled then, instead of running on for nobody and holding a slot. The
/// handler finds it in the request's `http::request::Parts`, which rmcp passes on.
#[derive(Clone)]
pub(crate) struct ClientGone(tokio::sync::watch::Receiver<bool>);

impl ClientGone {
    /// Waits until the client is gone; never resolves for a client that stays.
    pub(crate) async fn wait(mut self) {
        if self.0.wait_for(|gone| *gone).await.is_err() {
            // The response was sent whole: the client did not hang up on it.
            std::future::pending::<()>().await;
        }
    }
}

/// The sending side of [`ClientGone`]: fires when dropped before the response body ended (the
/// connection closed, or hyper dropped the request's future).
struct HangUp {
    gone: tokio::sync::watch::Sender<bool>,
    finished: bool,
}

impl HangUp {
    fn new() -> (Self, ClientGone) {
        let (gone, watch) = tokio::sync::watch::channel(false);
        (
            Self {
                gone,
                finished: false,
            },
            ClientGone(watch),
        )
    }
}

/// Its body ended: the client got everything.
impl BodyGuard for HangUp {
    fn body_ended(&mut self) {
        self.finished = true;
    }
}

impl Drop for HangUp {
    fn drop(&mut self) {
        if !self.finished {
            self.gone.send_replace(true);
        }
    }
}

/// The session a request names (`Mcp-Session-Id`).
fn session_of(request: &Request<Incoming>) -> Option<SessionId> {
    request
        .headers()
        .get(HEADER_SESSION_ID)
        .and_then(|v| v.to_str().ok())
        .map(SessionId::from)
}

/// 400 for a POST body that is not a JSON-RPC message: -32700 if it is not JSON, -32600 if it is JSON
/// but not a request (the id is the request's when it has a valid one, else null).
fn not_json_rpc(body: &[u8]) -> Response<Body> {
    let (code, message, id) = match serde_json::from_slice::<serde_json::Value>(body) {
        Err(e) => (-32700, format!("Parse error: {e}"), serde_json::Value::Null),
        Ok(value) => {
            let id = match value.get("id") {
                Some(id @ (serde_json::Value::String(_) | serde_json::Value::Number(_))) => {
                    id.clone()
                }
                _ => serde_json::Value::Null,
            };
            (
                -32600,
                "Invalid Request: not a JSON-RPC 2.0 request, notification or response".to_string(),
                id,
            )
        }
    };
    json_error(StatusCode::BAD_REQUEST, code, &message, id)
}

fn json_error(
    status: StatusCode,
    code: i64,
    message: &str,
    id: serde_json::Value,
) -> Response<Body> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

fn plain(status: StatusCode, text: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(text)).boxed());
    *response.status_mut() = status;
    response
}

/// An accepted connection with Nagle's algorithm off. A reply goes out in more than one write (an SSE
/// response's headers and priming event, then its data): with Nagle on, the second write waits for
/// the client's delayed ACK of the first, about 40 ms on Linux, on every other request.
fn without_nagle(stream: tokio::net::TcpStream) -> std::io::Result<tokio::net::TcpStream> {
    stream.set_nodelay(true)?;
    Ok(stream)
}

/// Whether a browser's `Origin` may reach the server: a loopback host (`localhost`, `127.0.0.1`,
/// `[::1]`, any port, http or https), or one of `allowed` (exactly, ignoring ASCII case; `"*"`: any).
fn origin_allowed(origin: &[u8], allowed: &[String]) -> bool {
    let Ok(origin) = std::str::from_utf8(origin) else {
        return false;
    };
    if allowed
        .iter()
        .any(|a| a == "*" || a.eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let origin = origin.to_ascii_lowercase();
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    // host[:port], the host of an IPv6 address in brackets.
    let (host, port) = match rest.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((host, tail)) => (host, tail),
            None => return false,
        },
        None => rest.find(':').map_or((rest, ""), |at| rest.split_at(at)),
    };
    let port_ok = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    port_ok && ["localhost", "127.0.0.1", "::1"].contains(&host)
}

/// 401 for a request without a valid bearer token: the challenge says which scheme (and, when a token
/// was sent, that it was not accepted), the body is a JSON-RPC error (id null).
/// 401 with the challenge RFC 6750 asks for, naming (with `[http.oauth]`) the protected-resource
/// metadata that says where to get a token (RFC 9728, the MCP authorization spec).
fn unauthorized(
    presented: bool,
    why: Option<&str>,
    resource_metadata: Option<&str>,
) -> Response<Body> {
    let message = match (presented, why) {
        (true, Some(why)) => format!("Unauthorized: the bearer token is not accepted: {why}"),
        (true, None) => "Unauthorized: the bearer token is not accepted".to_string(),
        (false, _) => {
            "Unauthorized: this server needs a bearer token (Authorization: Bearer <token>)"
                .to_string()
        }
    };
    let mut response = json_error(
        StatusCode::UNAUTHORIZED,
        -32001,
        &message,
        serde_json::Value::Null,
    );
    let mut challenge = String::from("Bearer realm=\"toolplane\"");
    if let Some(url) = resource_metadata {
        challenge.push_str(&format!(", resource_metadata=\"{url}\""));
    }
    if presented {
        challenge.push_str(", error=\"invalid_token\"");
    }
    if let Ok(value) = hyper::header::HeaderValue::from_str(&challenge) {
        response
            .headers_mut()
            .insert(hyper::header::WWW_AUTHENTICATE, value);
    }
    response
}

/// 200 with a JSON document.
fn json_document(document: &serde_json::Value) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(document.to_string())).boxed());
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

/// 403 for a request from a browser origin the server does not accept, with a JSON-RPC error (id null).
fn forbidden_origin(origin: &[u8]) -> Response<Body> {
    let shown = String::from_utf8_lossy(origin);
    let message = format!(
        "Forbidden: origin {shown:?} is not allowed; start the server with --allow-origin {shown} to accept it"
    );
    json_error(
        StatusCode::FORBIDDEN,
        -32000,
        &message,
        serde_json::Value::Null,
    )
}

/// What a request naming a session that is not live (or not its principal's) gets.
fn session_not_found() -> Response<Body> {
    plain(StatusCode::NOT_FOUND, "Not Found: Session not found".into())
}

fn not_found() -> Response<Body> {
    plain(
        StatusCode::NOT_FOUND,
        "not found: the MCP endpoint is /mcp\n".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The library's own guard: an empty token given to `require_bearer_tokens` matches nothing.
    #[test]
    fn bearer_tokens_match_exactly_and_never_empty() {
        let tokens = BearerTokens::new([
            ("alice".to_string(), "a-token".to_string()),
            ("nobody".to_string(), String::new()),
        ]);
        let header = |text: &str| hyper::header::HeaderValue::from_str(text).unwrap();
        assert_eq!(
            tokens.principal(Some(&header("Bearer a-token"))),
            Some("alice")
        );
        for refused in [
            "Bearer ",
            "Bearer",
            "Bearer a-toke",
            "a-token",
            "Basic a-token",
        ] {
            assert_eq!(
                tokens.principal(Some(&header(refused))),
                None,
                "{refused:?}"
            );
        }
        assert_eq!(tokens.principal(None), None);
    }

    #[test]
    fn loopback_and_listed_origins_are_allowed() {
        let listed = vec!["https://app.example.com".to_string()];
        for origin in [
            "http://localhost",
            "http://localhost:5173",
            "https://127.0.0.1:8443",
            "http://[::1]:6274",
            "HTTP://LOCALHOST:1",
            "https://app.example.com",
            "https://APP.example.com",
        ] {
            assert!(origin_allowed(origin.as_bytes(), &listed), "{origin}");
        }
        for origin in [
            "http://evil.example.com",
            "http://localhost.evil.example.com",
            "http://127.0.0.1.nip.io",
            "http://localhost:80@evil.example.com",
            "http://localhost:",
            "null",
            "file://",
            "https://app.example.com:8443",
            "http://app.example.com",
        ] {
            assert!(!origin_allowed(origin.as_bytes(), &listed), "{origin}");
        }
        assert!(origin_allowed(
            b"http://evil.example.com",
            &["*".to_string()]
        ));
        assert!(!origin_allowed(&[0xff, 0xfe], &listed));
    }

    #[tokio::test]
    async fn accepted_connections_send_without_nagle() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let client = tokio::net::TcpStream::connect(address);
        let (accepted, client) = tokio::join!(listener.accept(), client);
        let (stream, _) = accepted.unwrap();
        assert!(!stream.nodelay().unwrap(), "sockets start with Nagle on");
        assert!(without_nagle(stream).unwrap().nodelay().unwrap());
        drop(client);
    }
}
