//! `[http.oauth]` (issue 35 §2): `serve mcp --transport http` as an OAuth 2.1 resource server, against a
//! real authorization server — node-oidc-provider (npm, OpenID certified; tests/mcp-node/oauth_server.mjs)
//! issuing JWT access tokens by client credentials. The server publishes its protected-resource
//! metadata, refuses requests without a valid token with the challenge that points to it, and the
//! token's subject scopes the stores as a principal.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use common::{
    KillOnDrop as Running, McpClient as Client, execute_code as run, free_port, node_packages,
    raw_http,
};

/// node-oidc-provider on `port`, for the resource `resource`, with clients `id:secret`; with
/// `own_keys`, signing with a key pair of its own.
fn authorization_server(
    port: u16,
    resource: &str,
    clients: &[&str],
    own_keys: bool,
) -> (Running, String) {
    let dir = node_packages();
    let mut child = Command::new("node")
        .env("OWN_KEYS", if own_keys { "1" } else { "0" })
        .arg(dir.join("oauth_server.mjs"))
        .arg(port.to_string())
        .arg(resource)
        .args(clients)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("node");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let issuer = line
        .trim()
        .strip_prefix("ready ")
        .unwrap_or_else(|| panic!("the authorization server did not start: {line:?}"))
        .to_string();
    (Running(child), issuer)
}

/// An access token for `resource` from the authorization server at `issuer`, by client credentials.
fn access_token(issuer: &str, client: &str, resource: &str) -> String {
    let (id, secret) = client.split_once(':').unwrap();
    let out = Command::new("curl")
        .args(["-s", "-u", &format!("{id}:{secret}")])
        .args(["-d", "grant_type=client_credentials", "-d", "scope=mcp"])
        .args(["-d", &format!("resource={resource}")])
        .arg(format!("{issuer}/token"))
        .output()
        .unwrap();
    let reply: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    reply["access_token"]
        .as_str()
        .unwrap_or_else(|| panic!("no token: {reply}"))
        .to_string()
}

async fn client(url: &str, token: &str) -> Client {
    common::http_client(url, Some(token)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn access_tokens_from_a_real_authorization_server_name_the_principal() {
    let port = free_port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let (_issuer_process, issuer) = authorization_server(
        free_port(),
        &resource,
        &[
            "alice-agent:alice-secret",
            "bob-agent:bob-secret",
            "short-agent:short-secret",
        ],
        false,
    );
    // short-agent's tokens live 2 s (the server allows no clock skew here).
    let expiring = access_token(&issuer, "short-agent:short-secret", &resource);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(
        &config,
        format!(
            "[http.oauth]\nissuer = \"{issuer}\"\naudience = \"{resource}\"\nscopes = [\"mcp\"]\nleeway_seconds = 0\n"
        ),
    )
    .unwrap();
    let mut server = tokio::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args([
            "serve",
            "mcp",
            "--transport",
            "http",
            "--port",
            &port.to_string(),
            "--config",
        ])
        .arg(&config)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stderr = tokio::io::BufReader::new(server.stderr.take().unwrap());
    let mut policy = String::new();
    tokio::io::AsyncBufReadExt::read_line(&mut stderr, &mut policy)
        .await
        .unwrap();
    assert!(
        policy.contains("client_stores=per-principal")
            && policy.contains(&format!("client_auth=oauth({issuer})")),
        "{policy}"
    );

    // The protected-resource metadata names the authorization server, without a token.
    let (status, response) = raw_http_get(port, "/.well-known/oauth-protected-resource/mcp").await;
    assert_eq!(status, 200, "{response}");
    let metadata: Value = serde_json::from_str(response.split_once("\r\n\r\n").unwrap().1).unwrap();
    assert_eq!(
        metadata,
        json!({"resource": resource, "authorization_servers": [issuer],
               "bearer_methods_supported": ["header"], "scopes_supported": ["mcp"]})
    );

    // No token, or a bad one: 401, with the challenge that points to the metadata.
    let challenge = format!(
        "resource_metadata=\"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp\""
    );
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "oauth-test", "version": "1"}}})
    .to_string();
    let (status, response) = raw_http(&resource, "POST", "", &initialize).await;
    assert_eq!(status, 401, "{response}");
    assert!(response.contains(&challenge), "{response}");
    // A token of another authorization server for this very resource (node-oidc-provider's
    // quick-start keys are the same in every instance: it is the issuer that is refused).
    let (_other_process, other_issuer) =
        authorization_server(free_port(), &resource, &["alice-agent:alice-secret"], false);
    let forged = access_token(&other_issuer, "alice-agent:alice-secret", &resource);
    // And one signed with a key the trusted server never published.
    let (_keyed_process, keyed_issuer) =
        authorization_server(free_port(), &resource, &["alice-agent:alice-secret"], true);
    let unknown_key = access_token(&keyed_issuer, "alice-agent:alice-secret", &resource);
    // A token signed with a shared secret (alg HS256), whatever it claims.
    let hs256 = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZS1hZ2VudCJ9.c2lnbmF0dXJl";
    for (bad, why) in [
        ("not-a-jwt", "not a JWT"),
        (
            forged.as_str(),
            "was issued by another authorization server (iss)",
        ),
        (
            unknown_key.as_str(),
            "signing key is not one of the authorization server's",
        ),
        (hs256, "HS256"),
    ] {
        let (status, response) = raw_http(
            &resource,
            "POST",
            &format!("Authorization: Bearer {bad}\r\n"),
            &initialize,
        )
        .await;
        assert_eq!(status, 401, "{response}");
        assert!(response.contains("error=\"invalid_token\""), "{response}");
        assert!(response.contains(why), "{why}: {response}");
    }

    // Tokens of the real server: the subject is the principal that scopes the stores.
    let alice_token = access_token(&issuer, "alice-agent:alice-secret", &resource);
    let bob_token = access_token(&issuer, "bob-agent:bob-secret", &resource);
    let alice = client(&resource, &alice_token).await;
    let saved = run(&alice, "return await save_result('hers')", Value::Null).await;
    let handle = saved["value"].clone();
    assert!(
        handle.as_str().is_some_and(|h| h.starts_with("res_")),
        "{saved}"
    );
    let alice_again = client(&resource, &alice_token).await;
    let loaded = run(
        &alice_again,
        "return await load_result(h)",
        json!({"h": handle}),
    )
    .await;
    assert_eq!(loaded["value"], "hers", "{loaded}");
    let bob = client(&resource, &bob_token).await;
    let stolen = run(&bob, "return await load_result(h)", json!({"h": handle})).await;
    assert_eq!(
        stolen["error"]["message"],
        format!(
            "unknown or expired result handle: '{}'",
            handle.as_str().unwrap()
        ),
        "{stolen}"
    );
    for c in [alice, alice_again, bob] {
        c.cancel().await.unwrap();
    }

    // An expired token is refused, saying so (bounded wait: it lives 2 s).
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let (status, response) = raw_http(
        &resource,
        "POST",
        &format!("Authorization: Bearer {expiring}\r\n"),
        &initialize,
    )
    .await;
    assert_eq!(status, 401, "{response}");
    assert!(
        response.contains("the access token has expired"),
        "{response}"
    );
    let _ = server.start_kill();
    let _ = tokio::time::timeout(Duration::from_secs(10), server.wait()).await;
}

/// A GET to the server on `port` at `path`: status and the whole response.
async fn raw_http_get(port: u16, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .await
        .unwrap();
    let mut response = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response)).await;
    let text = String::from_utf8_lossy(&response).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, text)
}
