//! MCP servers nobody here wrote, installed from the registries (issue 20): the official reference
//! servers `@modelcontextprotocol/server-everything` (stdio and streamable HTTP) and
//! `@modelcontextprotocol/server-filesystem` on a temp dir (npm, pinned in tests/mcp-node), and the
//! Python `mcp-server-time` (pip, in target/mcp-venv). Driven through `toolplane run` and `toolplane
//! mcp status`, the library, and `toolplane serve mcp`, in both engines.

mod common;

use std::io::BufRead as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{config_for, isolations, mcp_python, node_packages, ok, serve_mcp, tool_call};
use serde_json::{Value, json};
use toolplane::{Config, Toolplane};

fn node_bin(name: &str) -> String {
    node_packages()
        .join("node_modules/.bin")
        .join(name)
        .display()
        .to_string()
}

/// `[mcp.servers.*]` for the three stdio servers, the filesystem one confined to `root`.
fn stdio_servers(root: &Path) -> String {
    format!(
        "[mcp.servers.everything]\ncommand = \"node\"\nargs = [{everything:?}, \"stdio\"]\n\n\
         [mcp.servers.files]\ncommand = \"node\"\nargs = [{files:?}, {root:?}]\n\n\
         [mcp.servers.time]\ncommand = {python:?}\nargs = [\"-m\", \"mcp_server_time\", \"--local-timezone\", \"UTC\"]\n",
        everything = node_bin("mcp-server-everything"),
        files = node_bin("mcp-server-filesystem"),
        root = root.display().to_string(),
        python = mcp_python().display().to_string(),
    )
}

/// What the snippet below returns, given the filesystem server's `root`.
const SNIPPET: &str = r#"
echo = await everything_echo(message="hi")
total = await everything_get_sum(a=2, b=40)
weather = await everything_get_structured_content(location="New York")
image = await everything_get_tiny_image()
await files_write_file(path=f"{root}/out.txt", content="written by a snippet")
read = await files_read_text_file(path=f"{root}/out.txt")
listing = await files_list_directory(path=root)
try:
    await files_read_text_file(path="/etc/passwd")
    outside = "read"
except RuntimeError as e:
    outside = str(e)
now = await time_get_current_time(timezone="UTC")
converted = await time_convert_time(source_timezone="UTC", time="12:00", target_timezone="Asia/Tokyo")
calls = [everything_echo(message=f"m{i}") for i in range(20)]
echoes = [await c for c in calls]
return {
    "echo": echo, "total": total, "weather_keys": sorted(weather),
    "image_kinds": [b["type"] if isinstance(b, dict) else "text" for b in image],
    "image_mime": [b["mimeType"] for b in image if isinstance(b, dict)],
    "read": read, "listing": listing, "outside": outside,
    "now_zone": now["timezone"], "tokyo": converted["target"]["datetime"],
    "echoes": echoes,
}
"#;

fn check_snippet_value(value: &Value, root: &Path) {
    assert_eq!(value["echo"], "Echo: hi");
    assert_eq!(value["total"], "The sum of 2 and 40 is 42.");
    assert_eq!(
        value["weather_keys"],
        json!(["conditions", "humidity", "temperature"])
    );
    assert_eq!(value["image_kinds"], json!(["text", "image", "text"]));
    assert_eq!(value["image_mime"], json!(["image/png"]));
    assert_eq!(value["read"], json!({"content": "written by a snippet"}));
    assert_eq!(value["listing"], json!({"content": "[FILE] out.txt"}));
    let outside = value["outside"].as_str().unwrap();
    assert!(
        outside.contains("Access denied") && outside.contains(&root.display().to_string()),
        "{outside}"
    );
    assert_eq!(value["now_zone"], "UTC");
    assert!(
        value["tokyo"]
            .as_str()
            .unwrap()
            .ends_with("T21:00:00+09:00"),
        "{}",
        value["tokyo"]
    );
    let echoes: Vec<String> = (0..20).map(|i| format!("Echo: m{i}")).collect();
    assert_eq!(value["echoes"], json!(echoes));
}

/// A directory the filesystem server may use, canonical (the server compares resolved paths).
fn fs_root() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("root")).unwrap();
    let root = dir.path().join("root").canonicalize().unwrap();
    (dir, root)
}

#[test]
fn reference_servers_over_stdio_through_toolplane_run() {
    for isolation in ["in-process", "process"] {
        let (dir, root) = fs_root();
        let config = dir.path().join("toolplane.toml");
        std::fs::write(&config, stdio_servers(&root)).unwrap();
        let snippet = dir.path().join("s.py");
        std::fs::write(
            &snippet,
            format!("root = {:?}\n{SNIPPET}", root.display().to_string()),
        )
        .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .args(["run", "--json", "--isolation", isolation, "--config"])
            .arg(&config)
            .arg(&snippet)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{isolation}: {stdout}\n{stderr}"
        );
        let result: Value = serde_json::from_str(stdout.trim()).unwrap();
        assert!(result["error"].is_null(), "{isolation}: {result}");
        check_snippet_value(&result["value"], &root);
        // The servers' own stderr is the host's, each line prefixed with the server's name.
        assert!(
            stderr.contains("[mcp files] Secure MCP Filesystem Server running on stdio"),
            "{stderr}"
        );
        assert!(!result["stdout"].as_str().unwrap().contains("[mcp "));
        assert_eq!(
            std::fs::read_to_string(root.join("out.txt")).unwrap(),
            "written by a snippet"
        );
    }
}

#[test]
fn mcp_status_counts_the_reference_servers_tools() {
    let (dir, root) = fs_root();
    std::fs::write(dir.path().join("toolplane.toml"), stdio_servers(&root)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args([
            "mcp",
            "status",
            "--config",
            "toolplane.toml",
            "--timeout",
            "30",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "MCP servers:");
    for (line, name) in lines[1..].iter().zip(["everything", "files", "time"]) {
        let prefix = format!("- {name}: ok transport=stdio auth=none tools=");
        let count: usize = line
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{stdout}"))
            .parse()
            .unwrap();
        assert!(count >= 2, "{stdout}");
    }
}

/// `mcp-server-everything streamableHttp` on a free port; killed (its process group) on drop.
struct HttpEverything {
    child: Child,
    url: String,
}

impl HttpEverything {
    fn start() -> Self {
        use std::os::unix::process::CommandExt as _;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut child = Command::new("node")
            .arg(node_bin("mcp-server-everything"))
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let line = lines.next().expect("the server exited").unwrap();
            if line.contains(&format!("listening on port {port}")) {
                break;
            }
            assert!(Instant::now() < until, "the server did not start");
        }
        // Keep draining its stderr so that it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines.by_ref() {});
        Self {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        }
    }
}

impl Drop for HttpEverything {
    fn drop(&mut self) {
        // SAFETY: kill(2) of the process group of a child this test started.
        unsafe { libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

#[test]
fn everything_over_streamable_http_from_the_library() {
    let server = HttpEverything::start();
    for isolation in isolations() {
        let mut config = Config::from_toml_str(&format!(
            "[mcp.servers.everything]\nurl = {:?}\n",
            server.url
        ))
        .unwrap();
        config.toolplane = config_for(isolation).toolplane;
        let runtime = Toolplane::new(config).unwrap();
        let statuses = format!("{:?}", runtime.mcp_servers());
        assert!(statuses.contains("Connected"), "{statuses}");
        // A tool's outputSchema is the capability's `returns`, shown by the schema tools.
        let structured = runtime
            .registry()
            .get("mcp:everything/get-structured-content")
            .unwrap();
        let returns = structured.returns.clone().expect("its outputSchema");
        assert!(
            returns["properties"]["temperature"].is_object(),
            "{returns}"
        );
        let document = toolplane::discovery::schema_document(&structured);
        assert_eq!(document["outputSchema"], returns);
        let detailed = toolplane::discovery::render(
            &[structured],
            toolplane::discovery::Detail::Detailed,
            &[],
        );
        assert!(
            detailed.contains("**Returns**\n- `temperature` (number, required)"),
            "{detailed}"
        );
        let value = ok(runtime
            .execute(
                "calls = [everything_echo(message=f'h{i}') for i in range(10)]\n\
                 total = await call_tool('mcp:everything/get-sum', {'a': 1, 'b': 2})\n\
                 return {'echoes': [await c for c in calls], 'total': total}",
                None,
            )
            .unwrap());
        let echoes: Vec<String> = (0..10).map(|i| format!("Echo: h{i}")).collect();
        assert_eq!(
            value,
            json!({"echoes": echoes, "total": "The sum of 1 and 2 is 3."}),
            "{isolation:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_mcp_gives_its_client_the_reference_servers_tools() {
    use rmcp::ServiceExt;
    let (dir, root) = fs_root();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(&config, stdio_servers(&root)).unwrap();
    for isolation in ["in-process", "process"] {
        let client =
            ().serve(serve_mcp(&config, &["--isolation", isolation]))
                .await
                .expect("initialize");
        let call = tool_call;
        // The servers are connected beside the client's first calls: wait (bounded) until all are in.
        let give_up = Instant::now() + Duration::from_secs(60);
        loop {
            let found = client
                .call_tool(call(
                    "search_capabilities",
                    json!({"query": "", "tags": ["mcp"], "detail": "brief"}),
                ))
                .await
                .unwrap();
            let text = format!("{:?}", found.content);
            if [
                "everything_echo",
                "files_read_text_file",
                "time_get_current_time",
            ]
            .iter()
            .all(|alias| text.contains(alias))
            {
                break;
            }
            assert!(Instant::now() < give_up, "the tools never appeared: {text}");
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let code = format!("root = {:?}\n{SNIPPET}", root.display().to_string());
        let reply = client
            .call_tool(call("execute_code", json!({"code": code})))
            .await
            .unwrap();
        let result = reply.structured_content.unwrap();
        assert!(result["error"].is_null(), "{isolation}: {result}");
        check_snippet_value(&result["value"], &root);
        client.cancel().await.unwrap();
    }
}
