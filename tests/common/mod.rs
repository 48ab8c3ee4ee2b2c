//! Helpers shared by the integration tests.

// Each test crate uses some of these.
#![allow(dead_code)]

use serde_json::Value;
use toolplane::{Config, ExecutionResult, Isolation};

/// The engines to test every sandbox property in: both where process isolation runs.
pub fn isolations() -> Vec<Isolation> {
    if cfg!(target_os = "linux") {
        vec![Isolation::InProcess, Isolation::Process]
    } else {
        vec![Isolation::InProcess]
    }
}

/// The default config with `isolation`, and this build's binary as the worker.
pub fn config_for(isolation: Isolation) -> Config {
    let mut config = Config::default();
    config.toolplane.isolation = Some(isolation);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config
}

/// A runtime for each engine in [`isolations`], each built when the loop reaches it (and dropped
/// before the next), with [`config_for`]'s config.
pub fn runtimes() -> impl Iterator<Item = (Isolation, toolplane::Toolplane)> {
    isolations().into_iter().map(|isolation| {
        let rt =
            toolplane::Toolplane::new(config_for(isolation)).expect("a runtime from the defaults");
        (isolation, rt)
    })
}

/// The value of a run that must succeed.
pub fn ok(result: ExecutionResult) -> Value {
    assert!(
        result.error.is_none(),
        "unexpected error: {:?}",
        result.error
    );
    result.value_json()
}

/// The error type and message of a run that must fail.
pub fn err(result: ExecutionResult) -> (String, String) {
    let e = result
        .error
        .unwrap_or_else(|| panic!("expected an error, got {}", result.value));
    (e.error_type, e.message)
}

/// A Python with the official MCP SDK and the reference `mcp-server-time` (`target/mcp-venv`, as
/// `.ci/run` makes it; made here if absent).
pub fn mcp_python() -> &'static std::path::Path {
    use std::process::Command;
    static PYTHON: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    PYTHON.get_or_init(|| {
        let venv = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/mcp-venv");
        let python = venv.join("bin/python");
        let ready = Command::new(&python)
            .args(["-c", "import mcp.server.mcpserver, mcp_server_time"])
            .status()
            .is_ok_and(|s| s.success());
        if !ready {
            let made = Command::new("python3")
                .arg("-m")
                .arg("venv")
                .arg(&venv)
                .status();
            assert!(
                made.is_ok_and(|s| s.success()),
                "cannot make {}",
                venv.display()
            );
            let installed = Command::new(&python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                ])
                .args(MCP_PYTHON_PACKAGES)
                .status();
            assert!(
                installed.is_ok_and(|s| s.success()),
                "cannot install {MCP_PYTHON_PACKAGES:?}"
            );
        }
        python
    })
}

/// What `target/mcp-venv` holds (`.ci/run` installs the same).
pub const MCP_PYTHON_PACKAGES: &[&str] = &["mcp==2.3.0", "mcp-server-time==2026.10.19"];

/// `tests/mcp-node` with its locked packages installed (`npm ci`, as `.ci/run` does; run here if absent):
/// the official TypeScript SDK, and the reference servers `everything` and `filesystem`.
pub fn node_packages() -> &'static std::path::Path {
    static NODE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    NODE.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp-node");
        let bins = ["mcp-server-everything", "mcp-server-filesystem"];
        if !bins
            .iter()
            .all(|b| dir.join("node_modules/.bin").join(b).exists())
            || !dir.join("node_modules/oidc-provider").exists()
        {
            let installed = std::process::Command::new("npm")
                .args(["ci", "--silent", "--no-audit", "--no-fund", "--prefix"])
                .arg(&dir)
                .status();
            assert!(
                installed.is_ok_and(|s| s.success()),
                "cannot install {} (npm ci)",
                dir.display()
            );
        }
        dir
    })
}

/// `toolplane serve mcp --config CONFIG ARGS…` as a child process for rmcp's client (its stderr
/// dropped): `().serve(serve_mcp(..)).await` is the client.
pub fn serve_mcp(config: &std::path::Path, args: &[&str]) -> rmcp::transport::TokioChildProcess {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_toolplane"));
    command
        .args(["serve", "mcp"])
        .args(args)
        .arg("--config")
        .arg(config);
    let (transport, _) = rmcp::transport::TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    transport
}

/// A `tools/call` of `name` with `arguments` (a JSON object).
pub fn tool_call(name: &str, arguments: Value) -> rmcp::model::CallToolRequestParams {
    rmcp::model::CallToolRequestParams::new(name.to_string())
        .with_arguments(arguments.as_object().cloned().unwrap())
}

/// Runs `command` with `stdin` written to its standard input (then closed), stdout and stderr captured.
/// A child that exits without reading its input (a broken pipe here) is not a failure of the helper:
/// its status and output, which the caller checks, say why.
pub fn output_with_stdin(command: &mut std::process::Command, stdin: &str) -> std::process::Output {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// One raw HTTP/1.1 POST of an `initialize` request to `url`, with `origin` as its `Origin` header when
/// given: the status code and the response.
pub async fn post_initialize(url: &str, origin: Option<&str>) -> (u16, String) {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "origin-test", "version": "1"}}})
    .to_string();
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    raw_http(url, "POST", &origin, &body).await
}

/// One raw HTTP/1.1 request to `url` with `headers` (each ending in CRLF) and `body` as JSON: the
/// status code and the whole response, headers included.
pub async fn raw_http(url: &str, method: &str, headers: &str, body: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let authority = url.trim_start_matches("http://").split('/').next().unwrap();
    let request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {authority}\r\n{headers}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(authority).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        stream.read_to_end(&mut response),
    )
    .await;
    let text = String::from_utf8_lossy(&response).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// A `redis-server` of Debian's package on a free loopback port, for one test: no persistence,
/// killed when dropped. Panics when `redis-server` is missing (`.ci/run` installs it).
pub struct RedisServer {
    child: std::process::Child,
    pub port: u16,
}

impl RedisServer {
    pub fn start() -> Self {
        let port = free_port();
        debian_package("redis-server", "redis-server");
        let child = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server (Debian's package redis-server; .ci/run installs it)");
        let server = Self { child, port };
        for _ in 0..200 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return server;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("redis-server did not listen on {port}");
    }

    /// `redis://127.0.0.1:PORT/0`
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// The keys Redis holds now (`redis-cli KEYS *`).
    pub fn keys(&self) -> Vec<String> {
        let out = std::process::Command::new("redis-cli")
            .args(["-p", &self.port.to_string(), "--raw", "KEYS", "*"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Makes sure `binary` is on the PATH: installs Debian's `package` when it is not (as `.ci/run`
/// does; root, or sudo), once per test process.
pub fn debian_package(binary: &str, package: &str) {
    static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let found = |b: &str| {
        std::process::Command::new("sh")
            .args(["-c", &format!("command -v {b}")])
            .stdout(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if found(binary) {
        return;
    }
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let apt = |args: &[&str]| {
        let mut command = if root {
            std::process::Command::new("apt-get")
        } else {
            let mut sudo = std::process::Command::new("sudo");
            sudo.arg("apt-get");
            sudo
        };
        command
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success())
    };
    let installed = apt(&["install", "-y", "-qq", "--no-install-recommends", package])
        || (apt(&["update", "-qq"])
            && apt(&["install", "-y", "-qq", "--no-install-recommends", package]));
    assert!(
        installed && found(binary),
        "{binary} is missing and could not be installed: apt-get install {package}"
    );
}

/// A free loopback port (bound, then released for a server to take).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child process killed (and reaped) when dropped.
pub struct KillOnDrop(pub std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// An rmcp client.
pub type McpClient = rmcp::service::RunningService<rmcp::RoleClient, ()>;

/// rmcp's client of the streamable-HTTP MCP server at `url`, with `token` as its bearer token.
pub async fn http_client(url: &str, token: Option<&str>) -> McpClient {
    use rmcp::ServiceExt as _;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    if let Some(token) = token {
        config = config.auth_header(token.to_string());
    }
    ().serve(rmcp::transport::StreamableHttpClientTransport::from_config(
        config,
    ))
    .await
    .expect("initialize")
}

/// `execute_code(code, inputs)` through `client` (`inputs` null: none): the structured result.
pub async fn execute_code(client: &McpClient, code: &str, inputs: Value) -> Value {
    let mut arguments = serde_json::json!({"code": code});
    if !inputs.is_null() {
        arguments["inputs"] = inputs;
    }
    let result = client
        .call_tool(tool_call("execute_code", arguments))
        .await
        .unwrap();
    match result.structured_content {
        Some(content) => content,
        None => panic!("no structured content: {:?}", result.content),
    }
}

/// The `Mcp-Session-Id` of a raw HTTP response.
pub fn session_id(response: &str) -> String {
    response
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(": ")?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| panic!("no session id: {response}"))
}

/// `serve mcp --transport http --port 0` plus `extra`, from `command` (the binary with a test's
/// settings): the child, its policy line (which ends with the URL it listens at) and its stderr,
/// kept open while the test runs.
pub async fn start_http_server(
    mut command: tokio::process::Command,
    extra: &[&str],
) -> (
    tokio::process::Child,
    String,
    tokio::io::BufReader<tokio::process::ChildStderr>,
) {
    use tokio::io::AsyncBufReadExt as _;
    let mut server = command
        .args(["serve", "mcp", "--transport", "http", "--port", "0"])
        .args(extra)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stderr = tokio::io::BufReader::new(server.stderr.take().unwrap());
    let mut policy = String::new();
    stderr.read_line(&mut policy).await.unwrap();
    (server, policy, stderr)
}
