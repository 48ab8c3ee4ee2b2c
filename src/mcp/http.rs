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
                tokio::spawn(async move {
                    let route = hyper::service::service_fn(move |request: Request<Incoming>| {
                        let service = service.clone();
                        async move {
                            Ok::<Response<Body>, Infallible>(if request.uri().path() == MCP_PATH {
                                service.handle(request).await
                            } else {
                                not_found()
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
