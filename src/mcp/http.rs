//! The streamable-HTTP transport: rmcp's tower service, served by hyper at `/mcp`.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
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
    let service = Arc::new(StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted.and_then(|(stream, _)| without_nagle(stream)) {
                    Ok(stream) => stream,
                    // A full fd table or a reset connection is no reason to stop serving.
                    Err(_) => continue,
                };
                let service = service.clone();
                let allowed_origins = allowed_origins.clone();
                tokio::spawn(async move {
                    let route = hyper::service::service_fn(move |request: Request<Incoming>| {
                        let service = service.clone();
                        let allowed_origins = allowed_origins.clone();
                        async move {
                            let origin = request.headers().get(hyper::header::ORIGIN);
                            Ok::<Response<Body>, Infallible>(match origin {
                                Some(origin) if !origin_allowed(origin.as_bytes(), &allowed_origins) => {
                                    forbidden_origin(origin.as_bytes())
                                }
                                _ if request.uri().path() == MCP_PATH => service.handle(request).await,
                                _ => not_found(),
                            })
                        }
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

/// 403 for a request from a browser origin the server does not accept, with a JSON-RPC error (no id).
fn forbidden_origin(origin: &[u8]) -> Response<Body> {
    let shown = String::from_utf8_lossy(origin);
    let message = format!(
        "Forbidden: origin {shown:?} is not allowed; start the server with --allow-origin {shown} to accept it"
    );
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32000, "message": message},
    });
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = StatusCode::FORBIDDEN;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

fn not_found() -> Response<Body> {
    let mut response = Response::new(
        Full::new(Bytes::from_static(b"not found: the MCP endpoint is /mcp\n")).boxed(),
    );
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
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
