//! `[hybrid]`: capabilities `include` selects are ordinary MCP tools of `toolplane serve mcp` beside the
//! three code-mode tools — a downstream MCP server's tools among them, announced with
//! `notifications/tools/list_changed` when that server connects after the client. Config errors are
//! the original's.

mod common;

use std::time::Duration;

use common::{mcp_python, serve_mcp, tool_call as call};
use rmcp::ServiceExt;
use rmcp::service::{NotificationContext, RoleClient};
use serde_json::json;

/// A client that counts `notifications/tools/list_changed`.
#[derive(Clone, Default)]
struct Watcher {
    changed: std::sync::Arc<tokio::sync::Notify>,
}

impl rmcp::ClientHandler for Watcher {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changed.notify_one();
    }
}

fn fixture() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mcp_fixture_server.py")
        .display()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn included_capabilities_are_mcp_tools_and_late_ones_are_announced() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    // The fixture starts two seconds late: its tools come after the client is in.
    std::fs::write(
        &config,
        format!(
            "[hybrid]\nenabled = true\ninclude = [\"mcp:fx/echo\", \"mcp:fx/fa*\", \"tag:nothing\"]\n\n\
             [mcp.servers.fx]\ncommand = \"sh\"\nargs = [\"-c\", \"sleep 2; exec {} {}\"]\n",
            mcp_python().display(),
            fixture()
        ),
    )
    .unwrap();
    let watcher = Watcher::default();
    let client = watcher
        .clone()
        .serve(serve_mcp(&config, &[]))
        .await
        .expect("initialize");
    let info = client.peer_info().unwrap();
    assert_eq!(
        info.capabilities
            .tools
            .as_ref()
            .and_then(|t| t.list_changed),
        Some(true)
    );
    let names = |tools: &[rmcp::model::Tool]| -> Vec<String> {
        tools.iter().map(|t| t.name.to_string()).collect()
    };
    let before = client.list_all_tools().await.unwrap();
    assert_eq!(
        names(&before),
        [
            "execute_code",
            "search_capabilities",
            "get_capability_schemas"
        ]
    );
    tokio::time::timeout(Duration::from_secs(30), watcher.changed.notified())
        .await
        .expect("notifications/tools/list_changed once the server connected");
    let after = client.list_all_tools().await.unwrap();
    assert_eq!(
        names(&after),
        [
            "execute_code",
            "search_capabilities",
            "get_capability_schemas",
            "fx_echo",
            "fx_fail"
        ]
    );
    let echo = after.iter().find(|t| t.name == "fx_echo").unwrap();
    assert_eq!(
        echo.description.as_deref(),
        Some("Echo the arguments back.")
    );
    assert!(
        echo.input_schema
            .get("properties")
            .unwrap()
            .get("message")
            .is_some()
    );

    let reply = client
        .call_tool(call("fx_echo", json!({"message": "hi"})))
        .await
        .unwrap();
    assert_eq!(reply.is_error, Some(false));
    assert_eq!(
        reply.structured_content,
        Some(json!({"message": "hi", "times": 1}))
    );
    let failed = client
        .call_tool(call("fx_fail", json!({"why": "nope"})))
        .await
        .unwrap();
    assert_eq!(failed.is_error, Some(true));
    let text = &failed.content[0].as_text().unwrap().text;
    assert!(
        text.starts_with("RuntimeError: Error executing tool fail"),
        "{text}"
    );
    // Not included: not a tool, though snippets can call it.
    assert!(client.call_tool(call("fx_text", json!({}))).await.is_err());
    let through_code = client
        .call_tool(call(
            "execute_code",
            json!({"code": "return await fx_text()"}),
        ))
        .await
        .unwrap();
    assert_eq!(
        through_code.structured_content.unwrap()["value"],
        "just words"
    );
    client.cancel().await.unwrap();
}

#[test]
fn hybrid_config_is_checked_and_an_empty_match_is_warned_about() {
    for (text, needle) in [
        (
            "[hybrid]\nenabled = true\n",
            "hybrid.include must list at least one",
        ),
        (
            "[hybrid]\nenabled = true\ninclude = [\"*\"]\n",
            "may not be a bare wildcard ('*')",
        ),
        (
            "[hybrid]\nenabled = true\ninclude = [\"**\"]\n",
            "bare wildcard",
        ),
        (
            "[hybrid]\nenabled = true\ninclude = [\" \"]\n",
            "non-empty, non-whitespace",
        ),
        ("[hybrid]\nexport = true\n", "unknown key 'hybrid.export'"),
    ] {
        let e = toolplane::Config::from_toml_str(text).unwrap_err();
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(
        &config,
        "[hybrid]\nenabled = true\ninclude = [\"mcp:nothing/*\"]\n",
    )
    .unwrap();
    let server = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args(["serve", "mcp", "--config"])
        .arg(&config)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // stdin is closed: the server ends once it has started.
    let output = server.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "toolplane: warning — hybrid.include matched no capabilities ([\"mcp:nothing/*\"]); no tools were re-exported."
        ),
        "{stderr}"
    );
}
