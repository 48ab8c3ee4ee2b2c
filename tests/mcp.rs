//! `toolplane serve mcp` driven by rmcp's client: over stdio against the built binary, over streamable
//! HTTP, and in memory against a library-built server with registered capabilities.

mod common;

use std::path::Path;
use std::process::Stdio;

use base64::Engine as _;
use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;
use toolplane::mcp::{McpServer, Transport, resolve_serve_config};
use toolplane::{Capability, Config, Registry, Toolplane};

use common::{post_initialize, raw_http};

type Client = RunningService<RoleClient, ()>;

fn binary() -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_toolplane"));
    command.stderr(Stdio::null());
    command
}

async fn stdio_client(extra: &[&str], tmpdir: Option<&Path>) -> Client {
    let mut command = binary();
    command.args(["serve", "mcp"]).args(extra);
    if let Some(dir) = tmpdir {
        command.env("TMPDIR", dir);
    }
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    ().serve(transport).await.expect("initialize")
}

async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    client
        .call_tool(
            CallToolRequestParams::new(tool.to_string())
                .with_arguments(arguments.as_object().cloned().unwrap()),
        )
        .await
        .expect("tools/call")
}

/// Runs a snippet; the ExecutionResult JSON (structured content, equal to the text content).
async fn execute(client: &Client, code: &str, inputs: Value) -> Value {
    let result = call(
        client,
        "execute_code",
        json!({"code": code, "inputs": inputs}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let structured = result
        .structured_content
        .clone()
        .expect("structured content");
    let text = result.content[0]
        .as_text()
        .expect("text content")
        .text
        .clone();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), structured);
    structured
}

/// A snippet's `save_result` gets the disabled store's `ValueError`.
async fn assert_results_store_refuses(client: &Client) {
    let refused = execute(
        client,
        "try:\n    await save_result(1)\nexcept ValueError as e:\n    return str(e)",
        Value::Null,
    )
    .await;
    assert_eq!(refused["value"], "results store is disabled");
}

fn text_of(result: &CallToolResult) -> String {
    result.content[0].as_text().expect("text").text.clone()
}

async fn read(client: &Client, uri: &str) -> Result<ResourceContents, String> {
    client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .map(|r| r.contents[0].clone())
        .map_err(|e| e.to_string())
}

async fn template_names(client: &Client) -> Vec<String> {
    let mut names: Vec<String> = client
        .list_all_resource_templates()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.uri_template)
        .collect();
    names.sort();
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_round_trip() {
    let client = stdio_client(&[], None).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().unwrap().name, "Toolplane");
    assert!(
        info.instructions
            .as_deref()
            .unwrap()
            .contains("search_capabilities")
    );

    let mut tools: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    tools.sort();
    assert_eq!(
        tools,
        [
            "execute_code",
            "get_capability_schemas",
            "search_capabilities"
        ]
    );
    let resources = client.list_all_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "toolplane://namespace",
            "skill://driving-toolplane/SKILL.md",
            "skill://driving-toolplane/_manifest"
        ]
    );
    // The skill, as the repository ships it, and the instructions point to it.
    let skill_file = include_str!("../skills/driving-toolplane/SKILL.md");
    match read(&client, "skill://driving-toolplane/SKILL.md")
        .await
        .unwrap()
    {
        ResourceContents::TextResourceContents {
            text, mime_type, ..
        } => {
            assert_eq!(text, skill_file);
            assert_eq!(mime_type.as_deref(), Some("text/markdown"));
        }
        other => panic!("{other:?}"),
    }
    let instructions = client.peer_info().unwrap().instructions.clone().unwrap();
    assert!(
        instructions.contains("skill://driving-toolplane/SKILL.md"),
        "{instructions}"
    );
    assert_eq!(
        template_names(&client).await,
        [
            "toolplane://artifacts/{handle}",
            "toolplane://results/{handle}"
        ]
    );

    let one = execute(&client, "return 1", Value::Null).await;
    assert_eq!(one["value"], 1);
    assert_eq!(one["backend"], "rustpython");
    let printed = execute(&client, "print('hi')\nreturn x * 2", json!({"x": 21})).await;
    assert_eq!(
        (printed["stdout"].as_str(), printed["value"].as_i64()),
        (Some("hi\n"), Some(42))
    );
    let failed = execute(&client, "raise ValueError('bad snippet')", Value::Null).await;
    assert_eq!(failed["error"]["type"], "ValueError");
    assert_eq!(failed["error"]["message"], "bad snippet");

    // A handle saved in one call loads in the next; the session also keeps `h`.
    let saved = execute(
        &client,
        "h = await save_result({'answer': 42}, label='a')\nreturn h",
        Value::Null,
    )
    .await;
    let handle = saved["value"].as_str().unwrap().to_string();
    assert!(handle.starts_with("res_"), "{saved}");
    let loaded = execute(
        &client,
        "return (await load_result(h2))['answer']",
        json!({"h2": handle}),
    )
    .await;
    assert_eq!(loaded["value"], 42);
    assert_eq!(
        execute(&client, "return h", Value::Null).await["value"],
        handle.as_str()
    );

    match read(&client, &format!("toolplane://results/{handle}"))
        .await
        .unwrap()
    {
        ResourceContents::TextResourceContents {
            text, mime_type, ..
        } => {
            assert_eq!(text, r#"{"answer": 42}"#);
            assert_eq!(mime_type.as_deref(), Some("application/json"));
        }
        other => panic!("expected text, got {other:?}"),
    }
    let missing = read(&client, "toolplane://results/res_nope")
        .await
        .unwrap_err();
    assert!(
        missing.contains("unknown or expired result handle"),
        "{missing}"
    );
    let missing = read(&client, "toolplane://artifacts/art_nope")
        .await
        .unwrap_err();
    assert!(missing.contains("art_nope"), "{missing}");
    let elsewhere = read(&client, "file:///etc/passwd").await.unwrap_err();
    assert!(elsewhere.contains("unknown resource"), "{elsewhere}");

    let art = execute(
        &client,
        "return await save_artifact(bytes(range(256)) * 3, filename='all.bin')",
        Value::Null,
    )
    .await;
    let uri = art["artifacts"][0]["uri"].as_str().unwrap().to_string();
    assert_eq!(
        uri,
        format!("toolplane://artifacts/{}", art["value"].as_str().unwrap())
    );
    match read(&client, &uri).await.unwrap() {
        ResourceContents::BlobResourceContents {
            blob, mime_type, ..
        } => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(blob)
                .unwrap();
            assert_eq!(bytes, (0..=255u8).cycle().take(768).collect::<Vec<_>>());
            assert_eq!(mime_type.as_deref(), Some("application/octet-stream"));
        }
        other => panic!("expected a blob, got {other:?}"),
    }

    match read(&client, "toolplane://namespace").await.unwrap() {
        ResourceContents::TextResourceContents {
            text, mime_type, ..
        } => {
            assert_eq!(mime_type.as_deref(), Some("text/markdown"));
            for needle in [
                "## Session",
                "save_result(value",
                "toolplane://results/<handle>",
                "call_tool",
            ] {
                assert!(text.contains(needle), "{needle} missing from\n{text}");
            }
        }
        other => panic!("expected text, got {other:?}"),
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_tools_are_protocol_errors_bad_arguments_and_collisions_tool_errors() {
    let client = stdio_client(&["--isolation", "in-process"], None).await;
    let unknown = client
        .call_tool(CallToolRequestParams::new("nope"))
        .await
        .unwrap_err()
        .to_string();
    assert!(unknown.contains("unknown tool"), "{unknown}");
    // Arguments that do not fit are tool errors the model can read (the spec; the Python original
    // does the same): they were JSON-RPC -32602.
    let no_code = client
        .call_tool(CallToolRequestParams::new("execute_code"))
        .await
        .unwrap();
    assert_eq!(no_code.is_error, Some(true));
    assert!(
        text_of(&no_code).contains("missing field `code`"),
        "{no_code:?}"
    );
    for (tool, arguments, says) in [
        ("execute_code", json!({"code": 5}), "expected a string"),
        (
            "execute_code",
            json!({"code": "return 1", "bogus": 1}),
            "unknown field `bogus`",
        ),
        (
            "search_capabilities",
            json!({"limit": "three"}),
            "invalid arguments for search_capabilities",
        ),
        ("get_capability_schemas", json!({}), "missing field `names`"),
    ] {
        let refused = call(&client, tool, arguments).await;
        assert_eq!(refused.is_error, Some(true), "{tool}: {refused:?}");
        let text = text_of(&refused);
        assert!(
            text.contains(says) && text.contains("call it as"),
            "{tool}: {text}"
        );
    }
    // The Python original's parameters: its backend names mean ours; others, and packages, are
    // errors in the result, as there.
    for backend in ["monty", "rustpython"] {
        let with = call(
            &client,
            "execute_code",
            json!({"code": "return 3", "backend": backend}),
        )
        .await;
        assert_eq!(with.structured_content.unwrap()["value"], 3, "{backend}");
    }
    let other = call(
        &client,
        "execute_code",
        json!({"code": "return 1", "backend": "pyodide"}),
    )
    .await;
    let other = other.structured_content.unwrap();
    assert_eq!(other["error"]["type"], "BackendNotFoundError", "{other}");
    assert!(
        other["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Valid backends: monty, rustpython"),
        "{other}"
    );
    let packages = call(
        &client,
        "execute_code",
        json!({"code": "return 1", "packages": ["numpy"]}),
    )
    .await;
    let packages = packages.structured_content.unwrap();
    assert_eq!(
        packages["error"]["type"], "BackendCapabilityError",
        "{packages}"
    );
    let none = call(
        &client,
        "execute_code",
        json!({"code": "return 4", "packages": []}),
    )
    .await;
    assert_eq!(none.structured_content.unwrap()["value"], 4);
    let collision = call(
        &client,
        "execute_code",
        json!({"code": "return 1", "inputs": {"call_tool": 1}}),
    )
    .await;
    assert_eq!(collision.is_error, Some(true));
    assert!(
        text_of(&collision).contains("NamespaceCollisionError"),
        "{collision:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disabled_store_has_no_template_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(
        &config,
        "[results]\nenabled = false\n\n[session]\nenabled = false\n",
    )
    .unwrap();
    let client = stdio_client(&["--config", config.to_str().unwrap()], None).await;
    assert_eq!(
        template_names(&client).await,
        ["toolplane://artifacts/{handle}"]
    );
    assert_results_store_refuses(&client).await;
    // Session off: nothing survives between runs.
    execute(&client, "x = 1", Value::Null).await;
    let gone = execute(&client, "return x", Value::Null).await;
    assert_eq!(gone["error"]["type"], "NameError");
    let result = read(&client, "toolplane://results/res_x")
        .await
        .unwrap_err();
    assert!(result.contains("results store is disabled"), "{result}");
    client.cancel().await.unwrap();
}

/// The server's stderr, kept open while the test runs (the server may write more to it).
type ServerStderr = tokio::io::BufReader<tokio::process::ChildStderr>;

/// `toolplane serve mcp --transport http --port 0` plus `extra` arguments, its policy line (which ends
/// with the URL it listens at), and its stderr.
async fn http_server(extra: &[&str]) -> (tokio::process::Child, String, ServerStderr) {
    http_server_with(binary(), extra).await
}

/// [`http_server`], started from `command` (the binary with settings of the test's).
async fn http_server_with(
    command: tokio::process::Command,
    extra: &[&str],
) -> (tokio::process::Child, String, ServerStderr) {
    common::start_http_server(command, extra).await
}

/// `[http] per_client_stores = false` keeps the design's v1 fail-closed: no stores, no session, no
/// templates; the policy line says so. The server listens on loopback by default.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_can_stay_fail_closed_and_is_loopback() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(&config, "[http]\nper_client_stores = false\n").unwrap();
    let (mut server, policy, _stderr) = http_server(&["--config", config.to_str().unwrap()]).await;
    assert!(
        policy.starts_with("Toolplane MCP policy: backend=rustpython isolation=process session=off results=off artifacts=off transport=http client_stores=off max_sessions=100 idle_expiry=900s cli=disabled allow=none mcp_servers=none unsafe=false client_auth=none listen=http://127.0.0.1:"),
        "{policy}"
    );
    let url = policy.trim().rsplit_once("listen=").unwrap().1.to_string();
    assert!(url.ends_with("/mcp"), "{url}");
    let client = ().serve(StreamableHttpClientTransport::from_uri(url)).await.unwrap();
    assert!(template_names(&client).await.is_empty());
    let refused = execute(
        &client,
        "out = []\nfor f in (lambda: save_result(1), lambda: save_artifact(b'x')):\n    try:\n        await f()\n    except ValueError as e:\n        out.append(str(e))\nreturn out",
        Value::Null,
    )
    .await;
    assert_eq!(
        refused["value"],
        json!(["results store is disabled", "artifact store is disabled"])
    );
    match read(&client, "toolplane://namespace").await.unwrap() {
        ResourceContents::TextResourceContents { text, .. } => {
            assert!(!text.contains("## Session"), "{text}");
            assert!(text.contains("results store is disabled"), "{text}");
            assert!(
                text.contains("256 calls started and not yet awaited (RuntimeError"),
                "{text}"
            );
        }
        other => panic!("expected text, got {other:?}"),
    }
    client.cancel().await.unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(server.id().unwrap() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let status = server.wait().await.unwrap();
    assert!(status.success(), "{status}");
}

/// The JSON body of a raw HTTP response.
fn body_json(response: &str) -> Value {
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {response}"))
}

/// Issue 19, item 5, over HTTP: a body that is not JSON is 400 with -32700, JSON that is not a
/// request 400 with -32600, both with `"id": null` (was 415 plain text); `tools/call` without `name`
/// and `resources/read` without `uri` are -32602 (was -32601); `DELETE` of a live session is 204
/// (was 202) and of an unknown or ended one 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_answers_malformed_requests_as_json_rpc_asks() {
    let (_server, policy, _stderr) = http_server(&[]).await;
    let url = policy.trim().rsplit_once("listen=").unwrap().1.to_string();

    let (status, response) = raw_http(&url, "POST", "", "{not json").await;
    assert_eq!(status, 400, "{response}");
    let error = body_json(&response);
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert_eq!(error["id"], Value::Null, "{error}");
    assert!(error.as_object().unwrap().contains_key("id"), "{error}");
    for (body, id) in [
        (r#"{"jsonrpc":"2.0","id":7}"#, json!(7)),
        ("[1, 2]", Value::Null),
    ] {
        let (status, response) = raw_http(&url, "POST", "", body).await;
        assert_eq!(status, 400, "{body}: {response}");
        let error = body_json(&response);
        assert_eq!(error["error"]["code"], -32600, "{error}");
        assert_eq!(error["id"], id, "{error}");
    }

    let in_session = open_session(&url).await;
    for (body, says) in [
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}"#,
            "missing field `name`",
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{}}"#,
            "missing field `uri`",
        ),
    ] {
        let (_, response) = raw_http(&url, "POST", &in_session, body).await;
        let data = response
            .lines()
            .find_map(|l| l.strip_prefix("data: ").filter(|d| d.starts_with('{')))
            .unwrap_or_else(|| panic!("no reply: {response}"));
        let reply: Value = serde_json::from_str(data).unwrap();
        assert_eq!(reply["error"]["code"], -32602, "{body}: {reply}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{body}: {message}");
    }
    let (status, response) = raw_http(&url, "DELETE", &in_session, "").await;
    assert_eq!(status, 204, "{response}");
    let (status, response) = raw_http(&url, "DELETE", &in_session, "").await;
    assert_eq!(status, 404, "{response}");
    let unknown = "Mcp-Session-Id: no-such-session\r\nMcp-Protocol-Version: 2025-06-18\r\n";
    let (status, response) = raw_http(&url, "DELETE", unknown, "").await;
    assert_eq!(status, 404, "{response}");
}

/// Over stdio: an unreadable request is answered with `"id": null` (rmcp omits the member), a known
/// method with bad params is -32602, `logging/setLevel` makes a snippet's stderr a log message, and
/// `prompts/list` offers the code-mode prompt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_answers_malformed_requests_logs_and_prompts() {
    use tokio::io::AsyncWriteExt;
    let mut server = binary()
        .args(["serve", "mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let mut stdout = tokio::io::BufReader::new(server.stdout.take().unwrap());
    let mut send = async |line: Value| {
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}),
    )
    .await;
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {}})).await;
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {}})).await;
    send(json!({"jsonrpc": "2.0", "id": 4, "method": "no/such/method", "params": {}})).await;
    send(json!({"jsonrpc": "2.0", "id": 5, "method": "logging/setLevel", "params": {"level": "info"}})).await;
    send(
        json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "execute_code",
        "arguments": {"code": "import sys\nprint('careful', file=sys.stderr)\nreturn 1"}}}),
    )
    .await;
    send(json!({"jsonrpc": "2.0", "id": 7, "method": "prompts/list"})).await;
    send(json!({"jsonrpc": "2.0", "id": 8, "method": "prompts/get", "params": {"name": "code_mode"}})).await;
    send(json!({"jsonrpc": "2.0", "id": 9})).await;
    let mut replies = std::collections::HashMap::new();
    let mut logs = Vec::new();
    let mut null_id_error = None;
    while replies.len() < 8 || null_id_error.is_none() {
        let mut line = String::new();
        let read = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            stdout.read_line(&mut line),
        )
        .await
        .expect("the server answers")
        .unwrap();
        assert!(read > 0, "the server closed stdout; got {replies:?}");
        let message: Value = serde_json::from_str(&line).unwrap();
        match message.get("id") {
            Some(Value::Null) => null_id_error = Some(message),
            Some(id) => {
                replies.insert(id.as_i64().unwrap(), message);
            }
            None if message["method"] == "notifications/message" => logs.push(message),
            None => panic!("a response without an id: {line}"),
        }
    }
    let null_id_error = null_id_error.unwrap();
    assert_eq!(null_id_error["error"]["code"], -32600, "{null_id_error}");
    for (id, says) in [(2, "missing field `name`"), (3, "missing field `uri`")] {
        assert_eq!(replies[&id]["error"]["code"], -32602, "{}", replies[&id]);
        let message = replies[&id]["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{message}");
    }
    assert_eq!(replies[&4]["error"]["code"], -32601);
    assert_eq!(replies[&5]["result"], json!({}));
    assert_eq!(replies[&6]["result"]["structuredContent"]["value"], 1);
    assert_eq!(
        logs.iter()
            .map(|l| (
                &l["params"]["level"],
                &l["params"]["logger"],
                &l["params"]["data"]
            ))
            .collect::<Vec<_>>(),
        [(&json!("info"), &json!("snippet"), &json!("careful\n"))],
        "{logs:?}"
    );
    let prompts = replies[&7]["result"]["prompts"].as_array().unwrap();
    assert_eq!(prompts.len(), 1);
    assert_eq!(prompts[0]["name"], "code_mode");
    let prompt = replies[&8]["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap();
    assert!(prompt.contains("# Toolplane namespace"), "{prompt}");
}

/// The spec: servers must validate `Origin` and answer 403 when it is present and not allowed (a DNS
/// rebinding page could otherwise drive a local server). Loopback origins and `--allow-origin` ones
/// are served, and so is a request without `Origin` (not from a browser). Before, every origin got 200.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_refuses_origins_it_does_not_allow() {
    let (mut server, policy, _stderr) =
        http_server(&["--allow-origin", "https://app.example.com"]).await;
    let url = policy.trim().rsplit_once("listen=").unwrap().1.to_string();
    for origin in [
        "http://evil.example.com",
        "http://localhost.evil.example.com",
        "null",
    ] {
        let (status, text) = post_initialize(&url, Some(origin)).await;
        assert_eq!(status, 403, "{origin}: {text}");
        assert!(
            text.contains("\"id\":null") && text.contains("not allowed"),
            "{text}"
        );
    }
    for origin in [
        None,
        Some("http://localhost:5173"),
        Some("https://app.example.com"),
    ] {
        let (status, text) = post_initialize(&url, origin).await;
        assert_eq!(status, 200, "{origin:?}: {text}");
    }
    let _ = server.kill().await;
    // The flag is for HTTP only.
    let status = binary()
        .args(["serve", "mcp", "--allow-origin", "https://app.example.com"])
        .stdin(Stdio::null())
        .status()
        .await
        .unwrap();
    assert_eq!(status.code(), Some(2));
}

/// Shutdown (stdin EOF, or SIGTERM) removes the artifact directory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_removes_the_artifact_directory() {
    for by_signal in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        let mut command = binary();
        command.args(["serve", "mcp"]).env("TMPDIR", tmp.path());
        let (transport, _) = TokioChildProcess::builder(command)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = transport.id().unwrap();
        let client = ().serve(transport).await.unwrap();
        execute(
            &client,
            "return await save_artifact(b'secret', filename='s.txt')",
            Value::Null,
        )
        .await;
        let entries = || std::fs::read_dir(tmp.path()).unwrap().count();
        assert_eq!(entries(), 1, "the artifact directory lives under TMPDIR");
        if by_signal {
            nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGTERM,
            )
            .unwrap();
        }
        // Cancelling the client closes the server's stdin.
        client.cancel().await.unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while entries() != 0 && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert_eq!(
            entries(),
            0,
            "artifact directory left behind (signal: {by_signal})"
        );
    }
}

// ---- In memory, against a library-built server ----------------------------------------------

async fn in_memory(server: McpServer) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_io).await.unwrap()
}

fn registry_with_tools() -> std::sync::Arc<Registry> {
    let registry = Registry::new();
    registry
        .register(
            Capability::new("math/add", |p| {
                Ok(json!(p["x"].as_i64().unwrap_or(0) + p["y"].as_i64().unwrap_or(0)))
            })
            .alias("add")
            .description("Add two numbers.")
            .schema(json!({"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}, "required": ["x", "y"]})),
        )
        .unwrap();
    registry
        .register(
            Capability::new("orders/list_open", |_| Ok(json!([1, 2])))
                .description("List open order ids.")
                .tag("orders")
                .schema(json!({"type": "object", "properties": {"limit": {"type": ["integer", "null"]}}})),
        )
        .unwrap();
    registry
        .register(Capability::new("internal/secret", |_| Ok(json!("s"))).hidden(true))
        .unwrap();
    std::sync::Arc::new(registry)
}

fn library_server(transport: Transport) -> McpServer {
    let config = resolve_serve_config(&Config::default(), transport);
    McpServer::new(
        Toolplane::with_registry(config, registry_with_tools()).unwrap(),
        transport,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_tools() {
    let client = in_memory(library_server(Transport::Stdio)).await;
    let all = text_of(&call(&client, "search_capabilities", json!({})).await);
    assert!(
        all.contains("- `await add(x=<integer>, y=<integer>)` — Add two numbers. [math/add]"),
        "{all}"
    );
    assert!(
        all.contains("`await orders_list_open(limit=<integer?>?)`"),
        "{all}"
    );
    assert!(
        !all.contains("internal/secret"),
        "hidden capabilities are not listed: {all}"
    );
    assert!(
        all.contains("always `await`"),
        "the footer carries the rules: {all}"
    );
    let one = text_of(
        &call(
            &client,
            "search_capabilities",
            json!({"query": "order", "limit": 1}),
        )
        .await,
    );
    assert_eq!(
        one.lines().filter(|l| l.starts_with("- ")).count(),
        1,
        "{one}"
    );
    assert!(one.contains("[orders/list_open]"), "{one}");
    let miss = text_of(&call(&client, "search_capabilities", json!({"query": "weather"})).await);
    assert!(
        miss.starts_with("No capabilities matched the query. 2 capabilities are registered"),
        "{miss}"
    );

    // The original's `tags` and `detail`.
    let tagged = text_of(&call(&client, "search_capabilities", json!({"tags": ["orders"]})).await);
    assert!(
        tagged.contains("[orders/list_open]") && !tagged.contains("[math/add]"),
        "{tagged}"
    );
    let untagged =
        text_of(&call(&client, "search_capabilities", json!({"tags": ["nothing"]})).await);
    assert!(
        untagged.starts_with("No capabilities matched the query."),
        "{untagged}"
    );
    let detailed = text_of(
        &call(
            &client,
            "search_capabilities",
            json!({"query": "add", "detail": "detailed"}),
        )
        .await,
    );
    assert!(
        detailed.starts_with(
            "### math/add\n\nAdd two numbers.\n\n**Call**: `await add(x=<integer>, y=<integer>)`\n\n\
             **Parameters**\n- `x` (integer, required)\n- `y` (integer, required)\n\nRules for execute_code"
        ),
        "{detailed}"
    );
    let full: Value = serde_json::from_str(&text_of(
        &call(
            &client,
            "search_capabilities",
            json!({"query": "add", "detail": "full"}),
        )
        .await,
    ))
    .unwrap();
    assert_eq!(full[0]["name"], "math/add");
    assert_eq!(full[0]["inputSchema"]["required"], json!(["x", "y"]));
    let wrong = call(
        &client,
        "search_capabilities",
        json!({"detail": "everything"}),
    )
    .await;
    assert_eq!(wrong.is_error, Some(true), "{wrong:?}");
    assert!(
        text_of(&wrong).contains("expected one of `brief`, `detailed`, `full`"),
        "{}",
        text_of(&wrong)
    );

    let names = json!([
        "math/add",
        "internal/secret",
        "toolplane:artifacts/load",
        "nope/x"
    ]);
    // By default (as the original) markdown sections, and a signpost for the names not found.
    let sections = text_of(&call(&client, "get_capability_schemas", json!({"names": names})).await);
    assert!(sections.starts_with("### math/add\n"), "{sections}");
    assert!(sections.contains("### internal/secret"), "{sections}");
    assert!(
        sections.contains("### toolplane:artifacts/load"),
        "{sections}"
    );
    assert!(
        sections.ends_with("Capabilities not found: nope/x. Names must be canonical (as returned by \
                            search_capabilities) — search with an empty query to list them all, or read \
                            the toolplane://namespace resource."),
        "{sections}"
    );
    let schemas: Value = serde_json::from_str(&text_of(
        &call(
            &client,
            "get_capability_schemas",
            json!({"names": names, "detail": "full"}),
        )
        .await,
    ))
    .unwrap();
    assert_eq!(schemas[0]["inputSchema"]["required"], json!(["x", "y"]));
    assert_eq!(schemas[0]["call"], "await add(x=<integer>, y=<integer>)");
    assert_eq!(schemas[0]["source"], "host");
    assert_eq!(schemas[1]["name"], "internal/secret");
    assert_eq!(schemas[1]["hidden"], true);
    assert_eq!(schemas[2]["name"], "toolplane:artifacts/load");
    assert_eq!(schemas[2]["source"], "toolplane");
    assert_eq!(schemas[3]["not_found"], json!(["nope/x"]));

    // The call shape works as shown.
    let sum = execute(&client, "return await add(x=2, y=3)", Value::Null).await;
    assert_eq!(sum["value"], 5);
    let manifest = match read(&client, "toolplane://namespace").await.unwrap() {
        ResourceContents::TextResourceContents { text, .. } => text,
        other => panic!("{other:?}"),
    };
    assert!(
        manifest.contains("await add(x=<integer>, y=<integer>)"),
        "{manifest}"
    );
    assert!(!manifest.contains("internal/secret"), "{manifest}");
    client.cancel().await.unwrap();
}

/// Concurrent calls on one session are serialised: no run sees another half-way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_runs_are_serialised() {
    let client = std::sync::Arc::new(in_memory(library_server(Transport::Stdio)).await);
    execute(&client, "log = []", Value::Null).await;
    let runs = (0..6).map(|i| {
        let client = client.clone();
        tokio::spawn(async move {
            execute(&client, "log.append(('start', i))\ns = sum(range(20000))\nlog.append(('end', i))\nreturn len(log)", json!({"i": i})).await
        })
    });
    for run in runs {
        assert_eq!(run.await.unwrap()["error"], Value::Null);
    }
    let log = execute(&client, "return log", Value::Null).await["value"].clone();
    let log = log.as_array().unwrap();
    assert_eq!(log.len(), 12);
    for pair in log.chunks(2) {
        assert_eq!(
            (pair[0][0].as_str(), pair[1][0].as_str()),
            (Some("start"), Some("end")),
            "{log:?}"
        );
        assert_eq!(pair[0][1], pair[1][1], "runs interleaved: {log:?}");
    }
}

/// An embedder serving HTTP cannot serve the runtime's own stores to every client: `McpServer::new`
/// disables them, and clients get stores of their own, or none with `per_client_stores = false`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn library_http_server_never_serves_the_runtimes_own_stores() {
    let runtime = Toolplane::new(Config::default()).unwrap();
    let server = McpServer::new(runtime, Transport::Http);
    assert!(server.policy_line().contains(
        "session=on results=on artifacts=on transport=http client_stores=per-mcp-session"
    ));
    let runtime_results = server.runtime().results().clone();
    let client = in_memory(server.clone()).await;
    assert_eq!(template_names(&client).await.len(), 2);
    let saved = execute(&client, "return await save_result(1)", Value::Null).await;
    assert!(saved["error"].is_null(), "{saved}");
    assert!(!runtime_results.is_enabled());
    assert_eq!(server.clients_with_stores(), 1);
    client.cancel().await.unwrap();

    let mut config = Config::default();
    config.http.per_client_stores = false;
    let server = McpServer::new(Toolplane::new(config).unwrap(), Transport::Http);
    assert!(
        server
            .policy_line()
            .contains("session=off results=off artifacts=off transport=http client_stores=off")
    );
    let client = in_memory(server).await;
    assert!(template_names(&client).await.is_empty());
    assert_results_store_refuses(&client).await;
}

/// Where the stores are off (HTTP), nothing the server says tells the model to use `save_result`: not
/// the instructions, the tool description, an empty search, or a timeout's hint (which did, in both
/// engines).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_stores_no_text_suggests_saving_results() {
    for isolation in [
        toolplane::Isolation::Process,
        toolplane::Isolation::InProcess,
    ] {
        let mut config = Config::default();
        config.toolplane.isolation = Some(isolation);
        config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
        config.limits.timeout_seconds = 1.0;
        config.http.per_client_stores = false;
        let server = McpServer::new(Toolplane::new(config).unwrap(), Transport::Http);
        let client = in_memory(server).await;
        let info = client.peer_info().unwrap();
        let instructions = info.instructions.clone().unwrap_or_default();
        assert!(!instructions.contains("save_result"), "{instructions}");
        let tools = client.list_all_tools().await.unwrap();
        let execute_tool = tools.iter().find(|t| t.name == "execute_code").unwrap();
        let description = execute_tool.description.as_deref().unwrap_or_default();
        assert!(!description.contains("await save_result"), "{description}");
        let search = call(&client, "search_capabilities", json!({"query": "anything"})).await;
        assert!(
            !text_of(&search).contains("save_result"),
            "{}",
            text_of(&search)
        );
        let timed_out = execute(&client, "while True:\n    pass", Value::Null).await;
        assert_eq!(
            timed_out["error"]["type"], "TimeoutError",
            "{isolation:?}: {timed_out}"
        );
        let message = timed_out["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("timed out after 1s"),
            "{isolation:?}: {message}"
        );
        assert!(!message.contains("save_result"), "{isolation:?}: {message}");
        client.cancel().await.unwrap();
    }
}

/// The text content carries the value exactly as the sandbox wrote it (integers of any size), and so
/// does structuredContent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn numbers_reach_the_client_exactly() {
    for isolation in ["process", "in-process"] {
        let client = stdio_client(&["--isolation", isolation], None).await;
        let result = call(
            &client,
            "execute_code",
            json!({"code": "return {'big': 2**70, 'l': [-2**100, 1e308, -0.0, 10**40]}"}),
        )
        .await;
        let text = text_of(&result);
        assert!(
            text.contains(
                "\"value\":{\"big\": 1180591620717411303424, \"l\": [-1267650600228229401496703205376, \
                 1e+308, -0.0, 10000000000000000000000000000000000000000]}"
            ),
            "{isolation}: {text}"
        );
        // structuredContent carries the same numbers: a client reading it gets the integers exactly.
        let value = &result
            .structured_content
            .as_ref()
            .expect("structured content")["value"];
        assert_eq!(
            value["big"].to_string(),
            "1180591620717411303424",
            "{isolation}"
        );
        assert_eq!(
            value["l"].to_string(),
            "[-1267650600228229401496703205376,1e+308,-0.0,10000000000000000000000000000000000000000]",
            "{isolation}"
        );
        client.cancel().await.unwrap();
    }
}

/// A client's `notifications/cancelled` stops the run (issue 19: it kept running, and on a session the
/// next call waited for the time limit): in both engines, fresh (HTTP's policy) and in the session
/// (stdio's), the snippet's calls stop, the next call is answered, and a process-isolated session is
/// rolled back.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cancelled_requests_stop_their_runs() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    for isolation in [
        toolplane::Isolation::Process,
        toolplane::Isolation::InProcess,
    ] {
        for transport in [Transport::Stdio, Transport::Http] {
            let what = format!("{isolation:?} over {transport:?}");
            let (tell, mut started) = tokio::sync::mpsc::unbounded_channel();
            let ticks = std::sync::Arc::new(AtomicUsize::new(0));
            let counted = ticks.clone();
            let mut config = resolve_serve_config(&Config::default(), transport);
            config.toolplane.isolation = Some(isolation);
            config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
            // A run the cancel does not stop ends here instead, long after the checks below gave up.
            config.limits.timeout_seconds = 600.0;
            let runtime = Toolplane::builder()
                .config(config)
                .tool(
                    Capability::new("probe/started", move |_| {
                        let _ = tell.send(());
                        Ok(Value::Null)
                    })
                    .alias("started"),
                )
                .tool(
                    Capability::new("probe/tick", move |_| {
                        Ok(json!(counted.fetch_add(1, Ordering::SeqCst)))
                    })
                    .alias("tick"),
                )
                .build()
                .unwrap();
            let client = in_memory(McpServer::new(runtime, transport)).await;
            // Both transports have a session (over HTTP, the client's own).
            execute(&client, "x = 1", Value::Null).await;
            let code = "x = 2\nawait started()\nwhile True:\n    await tick()";
            let request =
                rmcp::model::ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(
                    CallToolRequestParams::new("execute_code")
                        .with_arguments(json!({"code": code}).as_object().cloned().unwrap()),
                ));
            let handle = client
                .send_cancellable_request(request, rmcp::service::PeerRequestOptions::no_options())
                .await
                .unwrap();
            tokio::time::timeout(std::time::Duration::from_secs(60), started.recv())
                .await
                .unwrap_or_else(|_| panic!("{what}: the run never started"));
            handle.cancel(Some("test".into())).await.unwrap();
            // The snippet's calls stop (bounded wait: a run still going keeps ticking).
            let give_up = std::time::Instant::now() + std::time::Duration::from_secs(20);
            let mut seen = ticks.load(Ordering::SeqCst);
            loop {
                tokio::time::sleep(std::time::Duration::from_millis(300)).await;
                let now = ticks.load(Ordering::SeqCst);
                if now == seen {
                    break;
                }
                assert!(
                    std::time::Instant::now() < give_up,
                    "{what}: the cancelled run is still calling tick() ({now} calls)"
                );
                seen = now;
            }
            // The next call is served (on a session, only once the cancelled run is over).
            let next = tokio::time::timeout(
                std::time::Duration::from_secs(60),
                execute(&client, "return globals().get('x')", Value::Null),
            )
            .await
            .unwrap_or_else(|_| panic!("{what}: the next call was not answered"));
            let expected = match isolation {
                toolplane::Isolation::Process => json!(1),
                _ => json!(2),
            };
            assert_eq!(next["value"], expected, "{what}: {next}");
            client.cancel().await.unwrap();
        }
    }
}

/// Issue 32 §4: 70 connections that never finish their headers, against a server limited to 64 open
/// files, locked a real client out (and the accept loop spun at 100% CPU on EMFILE). Connections are
/// capped below the descriptor limit now, and a new one takes the place of the oldest that is not
/// serving a request: the real client is answered while the silent ones stay open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_cannot_lock_a_client_out() {
    use tokio::io::AsyncWriteExt;
    let mut command = binary();
    // SAFETY: setrlimit is async-signal-safe and touches only the child's own limits.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 64,
                rlim_max: 64,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let (_server, policy, _stderr) = http_server_with(command, &[]).await;
    let url = policy.trim().rsplit_once("listen=").unwrap().1.to_string();
    let authority = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let mut silent = Vec::new();
    for _ in 0..80 {
        let mut stream = tokio::net::TcpStream::connect(&authority).await.unwrap();
        let _ = stream
            .write_all(format!("POST /mcp HTTP/1.1\r\nHost: {authority}\r\n").as_bytes())
            .await;
        silent.push(stream);
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (status, response) = post_initialize(&url, None).await;
    assert_eq!(status, 200, "{response}");
    drop(silent);
}

/// A connection that does not finish its headers is closed after the header timeout (10 s; before,
/// never), and so is an idle keep-alive one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_and_idle_connections_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (_server, policy, _stderr) = http_server(&[]).await;
    let url = policy.trim().rsplit_once("listen=").unwrap().1.to_string();
    let authority = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let mut half_open = tokio::net::TcpStream::connect(&authority).await.unwrap();
    half_open
        .write_all(format!("POST /mcp HTTP/1.1\r\nHost: {authority}\r\n").as_bytes())
        .await
        .unwrap();
    let idle = tokio::net::TcpStream::connect(&authority).await.unwrap();
    for mut stream in [half_open, idle] {
        let mut rest = Vec::new();
        let read = tokio::time::timeout(
            std::time::Duration::from_secs(30),
            stream.read_to_end(&mut rest),
        )
        .await;
        assert!(read.is_ok(), "the server kept a silent connection open");
    }
}

/// Sessions are capped (`[http] max_sessions`; before any cap, 13 000 `initialize`s cost 760 MB,
/// each kept 300 s): past it the next `initialize` gets 503 saying why, concurrent ones included,
/// until a session ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(&config, "[http]\nmax_sessions = 5\n").unwrap();
    let (_server, policy, _stderr) = http_server(&["--config", config.to_str().unwrap()]).await;
    let url = policy.trim().rsplit_once("listen=").unwrap().1.to_string();
    let mut initializing = tokio::task::JoinSet::new();
    for _ in 0..12 {
        let url = url.clone();
        initializing.spawn(async move { post_initialize(&url, None).await });
    }
    let attempts: Vec<(u16, String)> = initializing.join_all().await;
    let admitted: Vec<&String> = attempts
        .iter()
        .filter(|(status, _)| *status == 200)
        .map(|(_, r)| r)
        .collect();
    assert_eq!(admitted.len(), 5, "{attempts:?}");
    for (status, response) in attempts.iter().filter(|(s, _)| *s != 200) {
        assert_eq!(*status, 503, "{response}");
        assert!(
            response.contains("the server holds its most MCP sessions (5, [http] max_sessions)"),
            "{response}"
        );
    }
    let session = common::session_id(admitted[0]);
    let (status, response) = raw_http(
        &url,
        "DELETE",
        &format!("Mcp-Session-Id: {session}\r\n"),
        "",
    )
    .await;
    assert_eq!(status, 204, "{response}");
    let (status, response) = post_initialize(&url, None).await;
    assert_eq!(status, 200, "{response}");
}

/// A new HTTP session at `url`, initialized: the headers its requests carry.
async fn open_session(url: &str) -> String {
    let (status, response) = post_initialize(url, None).await;
    assert_eq!(status, 200, "{response}");
    let session = response
        .lines()
        .find_map(|l| {
            l.strip_prefix("mcp-session-id: ")
                .or_else(|| l.strip_prefix("Mcp-Session-Id: "))
        })
        .unwrap_or_else(|| panic!("no session id: {response}"))
        .trim()
        .to_string();
    let headers = format!("Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-06-18\r\n");
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(raw_http(url, "POST", &headers, initialized).await.0, 202);
    headers
}

/// Starts `execute_code(code)` in the session of `headers` on a connection of its own, which it returns
/// (drop it to hang up).
async fn start_execute(url: &str, headers: &str, code: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "execute_code", "arguments": {"code": code}}})
    .to_string();
    let authority = url.trim_start_matches("http://").split('/').next().unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\n{headers}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(authority).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

/// The fresh runs one HTTP client may have at once: all the server's slots but one.
fn per_client_runs() -> usize {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
    workers - 1
}

/// `execute_code("return 'hello'")` in the session of `headers`: the text of the reply's value.
async fn hello(url: &str, headers: &str) -> String {
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "execute_code", "arguments": {"code": "return 'hello'"}}})
    .to_string();
    let (_, response) = raw_http(url, "POST", headers, &body).await;
    response
        .lines()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| d.starts_with('{')))
        .unwrap_or_default()
        .to_string()
}

/// Issue 32 §4: a client that hangs up cancels its runs (before, they ran to their end and held their
/// slots: eight hung-up `sleep(10)`s delayed everyone 80 s). The client's next run is served at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_hangs_up_cancels_its_runs() {
    let (_server, policy, _stderr) = http_server(&[]).await;
    let url = policy.trim().rsplit_once("listen=").unwrap().1.to_string();
    let headers = open_session(&url).await;
    let mut hung_up = Vec::new();
    // As many as the server has slots: one waits for its turn when it hangs up.
    for _ in 0..per_client_runs() + 1 {
        hung_up.push(start_execute(&url, &headers, "import time\ntime.sleep(60)").await);
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    drop(hung_up);
    let reply = hello(&url, &headers).await;
    assert!(reply.contains("hello"), "{reply}");
}

/// One client's burst of runs does not queue ahead of another client's run (fair slots).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_clients_burst_does_not_starve_another() {
    let (_server, policy, _stderr) = http_server(&[]).await;
    let url = policy.trim().rsplit_once("listen=").unwrap().1.to_string();
    let greedy = open_session(&url).await;
    let mut burst = Vec::new();
    for _ in 0..per_client_runs() + 4 {
        burst.push(start_execute(&url, &greedy, "import time\ntime.sleep(60)").await);
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let other = open_session(&url).await;
    let reply = hello(&url, &other).await;
    assert!(reply.contains("hello"), "{reply}");
    drop(burst);
}

/// `[http.tokens]`: every request needs a principal's bearer token (any of a principal's, for
/// rotation); none or a wrong one is 401 with a `WWW-Authenticate` challenge; the policy line says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_clients_authenticate_with_bearer_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(
        &config,
        "[http.tokens]\nalice = \"env://TP_TEST_ALICE\"\nbob = [\"bob-new-token-1\", \"bob-old-token-0\"]\n",
    )
    .unwrap();
    let mut command = binary();
    command.env("TP_TEST_ALICE", "alice-token-42");
    let (mut server, policy, _stderr) =
        http_server_with(command, &["--config", config.to_str().unwrap()]).await;
    assert!(
        policy.contains(" client_auth=bearer(2) listen=http://"),
        "{policy}"
    );
    let url = policy.trim().rsplit_once("listen=").unwrap().1.to_string();
    let http = reqwest::Client::new();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    for (token, challenge) in [
        (None, "Bearer realm=\"toolplane\""),
        (
            Some("wrong"),
            "Bearer realm=\"toolplane\", error=\"invalid_token\"",
        ),
        (
            Some(""),
            "Bearer realm=\"toolplane\", error=\"invalid_token\"",
        ),
    ] {
        let mut request = http
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .json(&initialize);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 401, "{token:?}");
        assert_eq!(
            response.headers()["www-authenticate"].to_str().unwrap(),
            challenge
        );
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], -32001, "{body}");
    }
    // Each principal's tokens work, both of bob's.
    for token in ["alice-token-42", "bob-new-token-1", "bob-old-token-0"] {
        let transport = StreamableHttpClientTransport::from_config(
            rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
                url.clone(),
            )
            .auth_header(token.to_string()),
        );
        let client = ().serve(transport).await.unwrap();
        assert_eq!(
            execute(&client, "return 6 * 7", Value::Null).await["value"],
            42
        );
        client.cancel().await.unwrap();
    }
    server.kill().await.unwrap();
}

/// A server that would be reachable from the network without client authentication is refused,
/// unless told so.
#[test]
fn http_refuses_a_network_address_without_client_authentication() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args([
            "serve",
            "mcp",
            "--transport",
            "http",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .starts_with("toolplane: refusing to listen on 0.0.0.0 without client authentication"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A token whose reference resolves to nothing (a variable set but empty) would let anyone in with an
/// empty `Bearer`: the server refuses to start instead.
#[test]
fn an_empty_bearer_token_stops_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(&config, "[http.tokens]\nalice = \"env://TP_TEST_EMPTY\"\n").unwrap();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args([
            "serve",
            "mcp",
            "--transport",
            "http",
            "--port",
            "0",
            "--config",
        ])
        .arg(&config)
        .env("TP_TEST_EMPTY", "")
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Bounded: a server that starts (the bug) is killed and the test fails.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while server.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if server.try_wait().unwrap().is_none() {
        server.kill().unwrap();
    }
    let out = server.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "toolplane: cannot serve: http.tokens.alice: the token is empty\n"
    );
}
