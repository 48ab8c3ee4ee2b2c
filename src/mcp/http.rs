//! The streamable-HTTP transport: rmcp's tower service, served by hyper at `/mcp`.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::common::http_header::HEADER_SESSION_ID;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{SessionId, SessionManager as _};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::McpServer;

/// The port `serve mcp --transport http` listens on when `--port` is not given.
pub const DEFAULT_HTTP_PORT: u16 = 8000;

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";

type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

pub(super) async fn serve(
    server: McpServer,
    listener: tokio::net::TcpListener,
    allowed_origins: Arc<Vec<String>>,
    shutdown: impl Future<Output = std::io::Result<()>>,
) -> std::io::Result<()> {
    let local = listener.local_addr()?;
    // Host-header validation (DNS rebinding): loopback names plus the address we are bound to.
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.push(local.ip().to_string());
    hosts.push(local.to_string());
    let config = StreamableHttpServerConfig::default().with_allowed_hosts(hosts);
    let cancel = config.cancellation_token.clone();
    let sessions = Arc::new(LocalSessionManager::default());
    let endpoint = Arc::new(Endpoint {
        max_body_bytes: config.max_request_body_bytes,
        service: StreamableHttpService::new(
            move || Ok(server.for_new_client()),
            sessions.clone(),
            config,
        ),
        sessions,
        allowed_origins,
    });
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted.and_then(|(stream, _)| without_nagle(stream)) {
                    Ok(stream) => stream,
                    // A full fd table or a reset connection is no reason to stop serving.
                    Err(_) => continue,
                };
                let endpoint = endpoint.clone();
                tokio::spawn(async move {
                    let route = hyper::service::service_fn(move |request: Request<Incoming>| {
                        let endpoint = endpoint.clone();
                        async move { Ok::<Response<Body>, Infallible>(endpoint.route(request).await) }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), route)
                        .await;
                });
            }
            signal = &mut shutdown => {
                cancel.cancel();
                return signal;
            }
        }
    }
}

/// What every connection routes its requests to.
struct Endpoint {
    service: StreamableHttpService<McpServer, LocalSessionManager>,
    sessions: Arc<LocalSessionManager>,
    allowed_origins: Arc<Vec<String>>,
    max_body_bytes: usize,
}

impl Endpoint {
    /// Origin check, then `/mcp` to rmcp, with the JSON-RPC and HTTP answers the spec asks for where
    /// rmcp gives others: a body that is not JSON-RPC is 400 with -32700 (not JSON) or -32600 (not a
    /// request), not 415; `DELETE` of a session that is not live is 404, of a live one 204, not 202.
    async fn route(&self, request: Request<Incoming>) -> Response<Body> {
        if let Some(origin) = request.headers().get(hyper::header::ORIGIN)
            && !origin_allowed(origin.as_bytes(), &self.allowed_origins)
        {
            return forbidden_origin(origin.as_bytes());
        }
        if request.uri().path() != MCP_PATH {
            return not_found();
        }
        match *request.method() {
            hyper::Method::POST => self.post(request).await,
            hyper::Method::DELETE => self.delete(request).await,
            _ => self.service.handle(request).await,
        }
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
        let (parts, body) = request.into_parts();
        let body = match http_body_util::Limited::new(body, self.max_body_bytes)
            .collect()
            .await
        {
            Ok(collected) => collected.to_bytes(),
            Err(_) => {
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
        response
    }

    async fn delete(&self, request: Request<Incoming>) -> Response<Body> {
        let session = request
            .headers()
            .get(HEADER_SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .map(SessionId::from);
        if let Some(session) = &session
            && !self.sessions.has_session(session).await.unwrap_or(false)
        {
            return plain(StatusCode::NOT_FOUND, "Not Found: Session not found".into());
        }
        let mut response = self.service.handle(request).await;
        if response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::NO_CONTENT;
            *response.body_mut() = Full::new(Bytes::new()).boxed();
        }
        response
    }
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

fn not_found() -> Response<Body> {
    plain(
        StatusCode::NOT_FOUND,
        "not found: the MCP endpoint is /mcp\n".into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
