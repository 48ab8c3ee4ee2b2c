//! OAuth 2.1 for remote MCP servers (`auth = "oauth"`), with rmcp's auth support (no hand-written
//! flow): discovery (the server's 401 challenge, protected-resource and authorization-server
//! metadata), a pre-registered client or dynamic client registration, the authorization code with PKCE
//! through the person's browser and a loopback redirect (`toolplane mcp login NAME`), tokens kept in
//! the OS keyring (`crate::secrets`) and refreshed when they expire.
//!
//! A server's tokens are the keyring entry `mcp-oauth.<server>.<hash of its URL>`: a token is never
//! sent to another URL than the one it was granted for, and a changed URL asks for a new login.

use std::time::Duration;

use rmcp::transport::auth::{
    AuthClient, AuthError, AuthorizationManager, AuthorizationRequest, CredentialStore,
    InMemoryCredentialStore, OAuthState, StoredCredentials,
};
use sha2::Digest as _;

/// How long `mcp login` waits for the browser to come back by default.
pub(crate) const LOGIN_TIMEOUT: Duration = Duration::from_secs(180);

/// The keyring entry of `server`'s tokens at `url`.
pub(crate) fn token_entry(server: &str, url: &str) -> String {
    let digest = sha2::Sha256::digest(url.trim_end_matches('/').as_bytes());
    let short: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
    format!("mcp-oauth.{server}.{short}")
}

/// What a server that needs a login says (`mcp status` shows it as `auth_required`).
pub(crate) fn login_needed(server: &str) -> String {
    format!("auth_required: not signed in (OAuth): run toolplane mcp login {server}")
}

/// OAuth tokens in the OS keyring, as rmcp's credential store.
pub(crate) struct KeyringCredentials {
    entry: String,
}

impl KeyringCredentials {
    pub(crate) fn new(server: &str, url: &str) -> Self {
        Self {
            entry: token_entry(server, url),
        }
    }

    async fn with_keyring<T: Send + 'static>(
        &self,
        act: impl FnOnce(&crate::secrets::Keyring, &str) -> Result<T, String> + Send + 'static,
    ) -> Result<T, AuthError> {
        let entry = self.entry.clone();
        tokio::task::spawn_blocking(move || {
            let keyring = crate::secrets::Keyring::open()
                .map_err(|why| format!("no OS keyring is available to keep the tokens ({why})"))?;
            act(&keyring, &entry)
        })
        .await
        .map_err(|e| AuthError::CredentialStoreError(e.to_string()))?
        .map_err(AuthError::CredentialStoreError)
    }
}

#[async_trait::async_trait]
impl CredentialStore for KeyringCredentials {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        let text = self
            .with_keyring(|keyring, entry| keyring.get(entry))
            .await?;
        // Unreadable tokens are no tokens: the next login replaces them.
        Ok(text.and_then(|text| serde_json::from_str(&text).ok()))
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        let text = serde_json::to_string(&credentials)
            .map_err(|e| AuthError::CredentialStoreError(e.to_string()))?;
        self.with_keyring(move |keyring, entry| keyring.set(entry, &text))
            .await
    }

    async fn clear(&self) -> Result<(), AuthError> {
        self.with_keyring(|keyring, entry| keyring.delete(entry).map(|_| ()))
            .await
    }
}

/// An HTTP client for `server` at `url` that sends the token `store` holds (the OS keyring's:
/// [`KeyringCredentials`]), refreshing it when it expires; `Err` (the login to run) when there is none.
pub(crate) async fn authorized_client(
    server: &str,
    url: &str,
    store: impl CredentialStore + 'static,
) -> Result<AuthClient<reqwest::Client>, String> {
    let mut manager = AuthorizationManager::new(url)
        .await
        .map_err(|e| format!("OAuth: {e}"))?;
    manager.set_credential_store(store);
    match manager.initialize_from_store().await {
        Ok(true) => Ok(AuthClient::new(reqwest::Client::default(), manager)),
        Ok(false) => Err(login_needed(server)),
        Err(AuthError::CredentialStoreError(why)) => Err(format!("OAuth: {why}")),
        Err(e) => Err(format!("OAuth: {e}")),
    }
}

/// A client registered with the authorization server beforehand (else the login registers one).
#[derive(Debug, Clone, Default)]
pub(crate) struct PreRegistered {
    pub(crate) client_id: Option<String>,
    pub(crate) client_secret: Option<String>,
}

/// The `WWW-Authenticate` challenge of the server's 401 to an unauthenticated request, if it sends one:
/// where discovery starts, and the scopes it asks for.
async fn challenge(url: &str) -> Option<String> {
    let response = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"toolplane","version":"0"}}}"#,
        )
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .ok()?;
    (response.status() == reqwest::StatusCode::UNAUTHORIZED)
        .then(|| {
            response
                .headers()
                .get("www-authenticate")?
                .to_str()
                .ok()
                .map(str::to_string)
        })
        .flatten()
}

/// Signs in to the server at `url`: discovery, the client, then the authorization code with PKCE.
/// `browse` is given the authorization URL and must get the person there (a browser; the conformance
/// client follows it itself); the authorization server redirects to a loopback listener of ours.
/// The tokens go to `store`. Ends after `timeout` without an answer.
pub(crate) async fn login<B, F>(
    url: &str,
    store: impl CredentialStore + 'static,
    client: &PreRegistered,
    timeout: Duration,
    browse: B,
) -> Result<(), String>
where
    B: FnOnce(String) -> F,
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
        .await
        .map_err(|e| format!("cannot listen for the browser's redirect on loopback: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let redirect_uri = format!("http://127.0.0.1:{port}/callback");
    let mut state = OAuthState::new(url, None)
        .await
        .map_err(|e| format!("OAuth: {e}"))?;
    if let OAuthState::Unauthorized(manager) = &mut state {
        manager.set_credential_store(store);
    }
    let mut request = AuthorizationRequest::new(redirect_uri).with_client_name("toolplane");
    if let Some(challenge) = challenge(url).await {
        request = request.with_challenge(challenge);
    }
    if let Some(id) = &client.client_id {
        request = request.with_preregistered_client(id.clone());
        if let Some(secret) = &client.client_secret {
            request = request.with_client_secret(secret.clone());
        }
    }
    state
        .start_authorization(request)
        .await
        .map_err(|e| format!("OAuth: {e}"))?;
    let authorization_url = state
        .get_authorization_url()
        .await
        .map_err(|e| format!("OAuth: {e}"))?;
    let browsing = tokio::spawn(browse(authorization_url));
    let callback = tokio::time::timeout(timeout, redirected(&listener, port))
        .await
        .map_err(|_| format!("no answer from the browser within {} s", timeout.as_secs()))??;
    browsing.abort();
    state
        .handle_callback_url(&callback)
        .await
        .map_err(|e| format!("OAuth: {e}"))?;
    Ok(())
}

/// The first request to `/callback` on `listener`, as a full URL; the browser is told it may close.
async fn redirected(listener: &tokio::net::TcpListener, port: u16) -> Result<String, String> {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    loop {
        let (mut stream, _) = listener
            .accept()
            .await
            .map_err(|e| format!("the redirect listener failed: {e}"))?;
        let mut request = Vec::new();
        let mut chunk = [0u8; 4096];
        // The request line is all we need; a bounded read, so a stray client cannot hold us.
        while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 16 * 1024 {
            match tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk)).await {
                Ok(Ok(n)) if n > 0 => request.extend_from_slice(&chunk[..n]),
                _ => break,
            }
        }
        let text = String::from_utf8_lossy(&request);
        let target = text
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("GET "))
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_default()
            .to_string();
        let (status, body) = if target.starts_with("/callback?") {
            (
                "200 OK",
                "Signed in: you can close this window and go back to toolplane.",
            )
        } else {
            ("404 Not Found", "Not the sign-in callback.")
        };
        let reply = format!(
            "HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(reply.as_bytes()).await;
        if target.starts_with("/callback?") {
            return Ok(format!("http://127.0.0.1:{port}{target}"));
        }
    }
}

/// The client for the official conformance suite's auth scenarios
/// (`@modelcontextprotocol/conformance client --suite auth`): signs in to `url` as `mcp login` does,
/// with the scenario's pre-registered client when `MCP_CONFORMANCE_CONTEXT` names one and tokens
/// kept in memory, playing the browser by following the authorization URL's redirects; then lists the
/// tools and calls the first. Returns what it did, for the log.
pub(crate) async fn conformance_client(url: &str) -> Result<String, String> {
    let context: serde_json::Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let client = PreRegistered {
        client_id: context["client_id"].as_str().map(str::to_string),
        client_secret: context["client_secret"].as_str().map(str::to_string),
    };
    let store = InMemoryCredentialStore::new();
    login(
        url,
        store.clone(),
        &client,
        LOGIN_TIMEOUT,
        |authorization_url| async move {
            // The suite's authorization endpoint approves at once and redirects to our listener.
            let _ = reqwest::get(authorization_url).await;
        },
    )
    .await?;
    let http = authorized_client("conformance", url, store).await?;
    let transport = rmcp::transport::StreamableHttpClientTransport::with_client(
        http,
        rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
            url.to_string(),
        ),
    );
    use rmcp::ServiceExt as _;
    let service = ().serve(transport).await.map_err(|e| format!("cannot connect: {e}"))?;
    let tools = service
        .list_all_tools()
        .await
        .map_err(|e| format!("tools/list: {e}"))?;
    let mut done = format!("{} tools", tools.len());
    if let Some(tool) = tools.first() {
        service
            .call_tool(rmcp::model::CallToolRequestParams::new(
                tool.name.to_string(),
            ))
            .await
            .map_err(|e| format!("tools/call {}: {e}", tool.name))?;
        done.push_str(&format!(", called {}", tool.name));
    }
    let _ = service.cancel().await;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_servers_tokens_are_its_own_and_its_urls() {
        let a = token_entry("linear", "https://mcp.linear.app/mcp");
        assert!(a.starts_with("mcp-oauth.linear."), "{a}");
        assert!(crate::config::check_secret_name(&a).is_ok());
        assert_eq!(a, token_entry("linear", "https://mcp.linear.app/mcp/"));
        assert_ne!(a, token_entry("linear", "https://evil.example/mcp"));
        assert_ne!(a, token_entry("other", "https://mcp.linear.app/mcp"));
    }
}
