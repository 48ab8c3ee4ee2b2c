//! One server for a team (issue 35 §1): over streamable HTTP every client gets its own result store,
//! artifact store and session — each MCP session, or with bearer tokens each principal — and never
//! reaches another's. Driven by the official SDKs' clients (Python: tests/fixtures/http_team_clients.py;
//! Rust: rmcp) against the built binary, in both engines; what is left after DELETE, expiry and
//! shutdown is counted on disk (the server's TMPDIR) and in the process table.

mod common;

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use common::{
    McpClient as Client, execute_code as execute, mcp_python, post_initialize, raw_http, session_id,
};

/// A `toolplane serve mcp --transport http` of this test, with its own TMPDIR (where its artifact
/// directories go) and config.
struct Server {
    child: tokio::process::Child,
    url: String,
    policy: String,
    tmp: tempfile::TempDir,
    _stderr: tokio::io::BufReader<tokio::process::ChildStderr>,
}

impl Server {
    async fn start(config: &str, args: &[&str], env: &[(&str, &str)]) -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let config_path = tmp.path().join("toolplane.toml");
        std::fs::write(&config_path, config).unwrap();
        let scratch = tmp.path().join("tmp");
        std::fs::create_dir(&scratch).unwrap();
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_toolplane"));
        command.env("TMPDIR", &scratch).envs(env.iter().copied());
        let mut extra = vec!["--config", config_path.to_str().unwrap()];
        extra.extend_from_slice(args);
        let (child, policy, stderr) = common::start_http_server(command, &extra).await;
        let url = policy
            .trim()
            .rsplit_once("listen=")
            .unwrap_or_else(|| panic!("no URL: {policy}"))
            .1
            .to_string();
        Self {
            child,
            url,
            policy,
            tmp,
            _stderr: stderr,
        }
    }

    fn pid(&self) -> u32 {
        self.child.id().unwrap()
    }

    /// The artifact directories the server holds now.
    fn artifact_dirs(&self) -> usize {
        std::fs::read_dir(self.tmp.path().join("tmp"))
            .unwrap()
            .filter(|e| {
                e.as_ref().is_ok_and(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .starts_with("toolplane-artifacts-")
                })
            })
            .count()
    }

    /// The server's descendant processes now (zygote, workers, session holders).
    fn processes(&self) -> usize {
        descendants(self.pid()).len()
    }

    /// Waits (bounded) until `what` holds.
    async fn eventually(&self, what: &str, mut holds: impl FnMut(&Self) -> bool) {
        for _ in 0..200 {
            if holds(self) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "{what}: never happened ({} artifact dirs, {} processes)",
            self.artifact_dirs(),
            self.processes()
        );
    }

    async fn client(&self, token: Option<&str>) -> Client {
        common::http_client(&self.url, token).await
    }

    /// SIGTERM, then the exit status.
    async fn stop(mut self) -> (std::process::ExitStatus, tempfile::TempDir) {
        nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(self.pid() as i32),
            nix::sys::signal::Signal::SIGTERM,
        )
        .unwrap();
        let status = tokio::time::timeout(Duration::from_secs(20), self.child.wait())
            .await
            .expect("the server stops on SIGTERM")
            .unwrap();
        (status, self.tmp)
    }
}

/// Every process whose chain of parents leads to `root`.
fn descendants(root: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let ppid = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            Some((pid, ppid))
        })
        .collect();
    let parent_of = |pid: u32| parents.iter().find(|(p, _)| *p == pid).map(|(_, pp)| *pp);
    parents
        .iter()
        .filter(|(pid, _)| {
            let mut at = *pid;
            for _ in 0..64 {
                match parent_of(at) {
                    Some(p) if p == root => return true,
                    Some(p) if p > 1 => at = p,
                    _ => return false,
                }
            }
            false
        })
        .map(|(pid, _)| *pid)
        .collect()
}

/// The value of a run that must succeed.
async fn value(client: &Client, code: &str, inputs: Value) -> Value {
    let result = execute(client, code, inputs).await;
    assert!(result["error"].is_null(), "{result}");
    result["value"].clone()
}

/// `n` Python SDK clients at once (tests/fixtures/http_team_clients.py): their reports.
fn team(url: &str, n: usize, tokens: &[&str]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/http_team_clients.py");
    let output = std::process::Command::new(mcp_python())
        .arg(script)
        .arg(url)
        .arg(n.to_string())
        .args(tokens)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
}

/// Checks one client's report: its own data came back, and `may_read(other)` says whose it may
/// read too (same principal); every other handle and URI was "unknown or expired".
fn check_report(report: &Value, may_read: impl Fn(&str) -> bool) {
    let me = report["me"].as_str().unwrap();
    assert!(report["saved"]["error"].is_null(), "{report}");
    assert_eq!(
        report["own"],
        json!({"result": me, "artifact": me, "session": report["own"]["session"]}),
        "{report}"
    );
    let seen = report["tried"]["seen"].as_object().unwrap();
    let reads = report["resource_reads"].as_object().unwrap();
    assert!(!seen.is_empty() && seen.len() == reads.len(), "{report}");
    for (handle, outcome) in seen {
        let outcome = outcome.as_str().unwrap();
        let kind = if handle.starts_with("res_") {
            "result"
        } else {
            "artifact"
        };
        if outcome.starts_with("READ ") {
            let owner = outcome.rsplit('\'').nth(1).unwrap_or_default();
            assert!(
                may_read(owner),
                "{me} read {owner}'s {kind} {handle}: {report}"
            );
        } else {
            assert_eq!(
                outcome,
                format!("ValueError: unknown or expired {kind} handle: '{handle}'"),
                "{report}"
            );
        }
    }
    for (uri, outcome) in reads {
        let outcome = outcome.as_str().unwrap();
        if outcome != "READ" {
            assert!(
                outcome.contains("unknown or expired"),
                "{uri}: {outcome}: {report}"
            );
        }
    }
}

/// Issue 35: 2, then 20 clients at once, each with its own MCP session, in both engines: each saves a
/// result, an artifact and a session variable and gets them back; none reaches another's handles,
/// by snippet or by resource; when they are gone (the SDK deletes its session on close) so are their
/// artifact directories and session processes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_then_twenty_clients_never_reach_each_others_data() {
    for isolation in ["process", "in-process"] {
        let server = Server::start(
            "",
            &["--isolation", isolation, "--accept-in-process-http"],
            &[],
        )
        .await;
        assert!(
            server.policy.contains(
                "session=on results=on artifacts=on transport=http client_stores=per-mcp-session"
            ),
            "{}",
            server.policy
        );
        let idle = server.processes();
        for n in [2, 20] {
            let reports = team(&server.url, n, &[]);
            assert_eq!(reports.len(), n);
            for report in &reports {
                check_report(report, |_| false);
                let me = report["me"].as_str().unwrap();
                assert_eq!(report["own"]["session"], me, "{isolation}: {report}");
                assert_eq!(report["tried"]["session"], me, "{isolation}: {report}");
            }
            server
                .eventually("every client's artifact directory removed", |s| {
                    s.artifact_dirs() == 0
                })
                .await;
            server
                .eventually("every session process ended", |s| s.processes() <= idle)
                .await;
        }
        let (status, _) = server.stop().await;
        assert!(status.success(), "{isolation}: {status}");
    }
}

/// With bearer tokens the principal scopes the data: alice's clients share hers (from any of her MCP
/// sessions, also after they ended), bob's never see it; a session opened by alice is not bob's to
/// use even with its id; runs are audited with the principal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn principals_reach_their_own_data_only() {
    let audit = tempfile::tempdir().unwrap();
    let audit_log = audit.path().join("audit.jsonl");
    let config = format!(
        "[http.tokens]\nalice = \"alice-token-1234\"\nbob = \"env://TP_BOB\"\n\n[audit]\nenabled = true\npath = {:?}\n",
        audit_log.to_str().unwrap()
    );
    let server = Server::start(&config, &[], &[("TP_BOB", "bob-token-5678")]).await;
    assert!(
        server.policy.contains("client_stores=per-principal"),
        "{}",
        server.policy
    );
    // Clients 0 and 2 are alice, 1 and 3 bob.
    let reports = team(&server.url, 4, &["alice-token-1234", "bob-token-5678"]);
    let principal = |me: &str| me.trim_start_matches("client-").parse::<usize>().unwrap() % 2;
    for report in &reports {
        let me = report["me"].as_str().unwrap();
        check_report(report, |owner| principal(owner) == principal(me));
        let reads = report["resource_reads"].as_object().unwrap();
        assert_eq!(
            reads.values().filter(|v| *v == "READ").count(),
            2,
            "{me} reads its fellow's result and artifact only: {report}"
        );
    }

    // Her sessions ended; her data did not: a new session of hers loads it, bob's does not.
    let alice_result = reports[0]["saved"]["value"]["result"].clone();
    let alice = server.client(Some("alice-token-1234")).await;
    assert_eq!(
        value(
            &alice,
            "return (await load_result(h))['owner']",
            json!({"h": alice_result})
        )
        .await,
        "client-0"
    );
    let bob = server.client(Some("bob-token-5678")).await;
    let stolen = execute(
        &bob,
        "return await load_result(h)",
        json!({"h": alice_result}),
    )
    .await;
    assert_eq!(stolen["error"]["type"], "ValueError", "{stolen}");

    // Alice's session id in bob's hands: no such session.
    let (status, response) = post_initialize_as(&server.url, "alice-token-1234").await;
    assert_eq!(status, 200, "{response}");
    let session = session_id(&response);
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let (status, response) = raw_http(
        &server.url,
        "POST",
        &format!("Authorization: Bearer bob-token-5678\r\nMcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-06-18\r\n"),
        list,
    )
    .await;
    assert_eq!(status, 404, "{response}");
    let (status, response) = raw_http(
        &server.url,
        "DELETE",
        &format!("Authorization: Bearer bob-token-5678\r\nMcp-Session-Id: {session}\r\n"),
        "",
    )
    .await;
    assert_eq!(status, 404, "bob cannot end alice's session: {response}");
    let (status, response) = raw_http(
        &server.url,
        "DELETE",
        &format!("Authorization: Bearer alice-token-1234\r\nMcp-Session-Id: {session}\r\n"),
        "",
    )
    .await;
    assert_eq!(status, 204, "{response}");

    alice.cancel().await.unwrap();
    bob.cancel().await.unwrap();
    let (status, _) = server.stop().await;
    assert!(status.success(), "{status}");
    let log = std::fs::read_to_string(&audit_log).unwrap();
    let clients: std::collections::BTreeSet<String> = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["event"] == "run_start")
        .map(|e| e["client"].as_str().unwrap_or("(none)").to_string())
        .collect();
    assert_eq!(
        clients,
        ["alice", "bob"].map(String::from).into(),
        "every run is audited with its principal: {log}"
    );
}

/// An `initialize` with a bearer token: status and response.
async fn post_initialize_as(url: &str, token: &str) -> (u16, String) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "principal-test", "version": "1"}}})
    .to_string();
    raw_http(
        url,
        "POST",
        &format!("Authorization: Bearer {token}\r\n"),
        &body,
    )
    .await
}

/// A client's data lives as long as it does: DELETE of its MCP session, or `[http]
/// idle_expiry_seconds` without a request, removes its artifact directory and ends its session
/// process; a principal's lasts until the principal has been idle that long; shutdown removes what
/// is left. The first `initialize` after expiry works as ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_expiry_and_shutdown_leave_nothing() {
    let config = "[limits]\ntimeout_seconds = 1\n\n[http]\nidle_expiry_seconds = 3\n\n[http.tokens]\nalice = \"alice-token-1234\"\n";
    let server = Server::start(config, &[], &[]).await;
    let idle = server.processes();
    let save = "global kept\nkept = 1\nreturn await save_artifact(b'mine')";

    // DELETE: at once.
    let deleted = server.client(Some("alice-token-1234")).await;
    value(&deleted, save, Value::Null).await;
    assert_eq!(server.artifact_dirs(), 1);
    assert!(server.processes() > idle, "the session has a process");
    deleted.cancel().await.unwrap();
    // alice's data is the principal's: her MCP session's end leaves it, her idleness ends it.
    assert_eq!(server.artifact_dirs(), 1);
    server
        .eventually("alice's data expired", |s| {
            s.artifact_dirs() == 0 && s.processes() <= idle
        })
        .await;

    // An anonymous session's data goes with it: DELETE.
    let (status, response) = post_initialize(&server.url, None).await;
    assert_eq!(status, 401, "a server with tokens wants one: {response}");
    drop(server);

    let server = Server::start(
        "[limits]\ntimeout_seconds = 1\n\n[http]\nidle_expiry_seconds = 3\n",
        &[],
        &[],
    )
    .await;
    let idle = server.processes();
    let deleted = server.client(None).await;
    value(&deleted, save, Value::Null).await;
    assert_eq!(server.artifact_dirs(), 1);
    deleted.cancel().await.unwrap();
    server
        .eventually("the deleted session's data removed", |s| {
            s.artifact_dirs() == 0 && s.processes() <= idle
        })
        .await;

    // Expiry: clients that stop asking. The spec's answer to a request on an ended session is 404;
    // rmcp's client then initializes a new session, which is a new client with nothing saved.
    let (status, response) = post_initialize(&server.url, None).await;
    assert_eq!(status, 200, "{response}");
    let raw_session = session_id(&response);
    let expiring = server.client(None).await;
    let handle = value(&expiring, save, Value::Null).await;
    assert_eq!(server.artifact_dirs(), 1);
    server
        .eventually("the idle session's data expired", |s| {
            s.artifact_dirs() == 0 && s.processes() <= idle
        })
        .await;
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let (status, response) = raw_http(
        &server.url,
        "POST",
        &format!("Mcp-Session-Id: {raw_session}\r\nMcp-Protocol-Version: 2025-06-18\r\n"),
        list,
    )
    .await;
    assert_eq!(status, 404, "{response}");
    let gone = execute(
        &expiring,
        "return await load_artifact(h)",
        json!({"h": handle}),
    )
    .await;
    assert_eq!(
        gone["error"]["message"],
        format!(
            "unknown or expired artifact handle: '{}'",
            handle.as_str().unwrap()
        ),
        "{gone}"
    );

    // Shutdown: whatever is left goes.
    let kept = server.client(None).await;
    value(&kept, save, Value::Null).await;
    let other = server.client(None).await;
    value(&other, save, Value::Null).await;
    assert_eq!(server.artifact_dirs(), 2);
    let processes = descendants(server.pid());
    let (status, tmp) = server.stop().await;
    assert!(status.success(), "{status}");
    let left: Vec<_> = std::fs::read_dir(tmp.path().join("tmp"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    for _ in 0..100 {
        if processes
            .iter()
            .all(|pid| !Path::new(&format!("/proc/{pid}")).exists())
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let alive: Vec<_> = processes
        .iter()
        .filter(|pid| Path::new(&format!("/proc/{pid}")).exists())
        .collect();
    assert!(alive.is_empty(), "outlived the server: {alive:?}");
    drop((kept, other));
}

/// Behind a proxy clients name the proxy's host: `--allow-host` accepts it, any other name is still
/// refused (403, the spec's DNS-rebinding defence).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_hosts_are_served_and_others_refused() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    async fn status_for_host(url: &str, host: &str) -> String {
        let authority = url.trim_start_matches("http://").split('/').next().unwrap();
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "host-test", "version": "1"}}})
        .to_string();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let mut stream = tokio::net::TcpStream::connect(authority).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = Vec::new();
        let _ =
            tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response)).await;
        String::from_utf8_lossy(&response)
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string()
    }
    let plain = Server::start("", &[], &[]).await;
    assert_eq!(status_for_host(&plain.url, "mcp.example.com").await, "403");
    let proxied = Server::start("", &["--allow-host", "mcp.example.com"], &[]).await;
    assert_eq!(
        status_for_host(&proxied.url, "mcp.example.com").await,
        "200"
    );
    assert_eq!(
        status_for_host(&proxied.url, "mcp.example.com:8443").await,
        "200"
    );
    assert_eq!(
        status_for_host(&proxied.url, "evil.example.com").await,
        "403"
    );
}
