//! `[audit]`: the original's JSONL events (run_start, dispatch, run_end, discovery) with their fields,
//! in both engines, never an argument, a result or the code; a private file; a log that cannot be
//! written turns itself off with one line and the run goes on.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::{config_for, isolations, serve_mcp, tool_call};
use serde_json::{Value, json};
use toolplane::Capability;
use toolplane::{Config, Registry, Toolplane};

const SECRET: &str = "hunter2-do-not-log";

fn events(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The log's text, which must not hold the secret, and its events.
fn logged(path: &Path) -> (String, Vec<Value>) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(!text.contains(SECRET), "{text}");
    (text, events(path))
}

/// The `event` of each.
fn kinds(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect()
}

fn audited(isolation: toolplane::Isolation, path: &Path) -> Toolplane {
    let registry = Arc::new(Registry::new());
    registry
        .register(
            Capability::new("mcp:orders/get", |params| Ok(json!({"echo": params})))
                .alias("orders_get"),
        )
        .unwrap();
    registry
        .register(Capability::new("flaky", |_| {
            Err(toolplane::HostError::value("no"))
        }))
        .unwrap();
    let mut config = Config::from_toml_str(&format!(
        "[audit]\nenabled = true\npath = {:?}\n",
        path.display().to_string()
    ))
    .unwrap();
    config.toolplane = config_for(isolation).toolplane;
    Toolplane::builder()
        .config(config)
        .registry(registry)
        .build()
        .unwrap()
}

#[test]
fn runs_and_their_calls_are_logged_without_their_data() {
    for isolation in isolations() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("logs/audit.jsonl");
        let runtime = audited(isolation, &path);
        let code = format!(
            "h = await save_result({{'pw': '{SECRET}'}})\n\
             r = await orders_get(id='{SECRET}')\n\
             try:\n    await call_tool('flaky', {{}})\nexcept ValueError:\n    pass\n\
             return r"
        );
        let result = runtime.execute(&code, None).unwrap();
        assert!(result.ok(), "{isolation:?}: {:?}", result.error);
        let failed = runtime.execute("1 / 0", None).unwrap();
        assert!(!failed.ok());

        let (text, events) = logged(&path);
        let kinds = kinds(&events);
        assert_eq!(
            kinds,
            [
                "run_start",
                "dispatch",
                "dispatch",
                "dispatch",
                "run_end",
                "run_start",
                "run_end"
            ],
            "{isolation:?}: {text}"
        );
        let run_id = events[0]["run_id"].as_str().unwrap();
        assert_eq!(run_id.len(), 8, "{run_id}");
        assert!(events[..5].iter().all(|e| e["run_id"] == run_id));
        assert_ne!(events[5]["run_id"], run_id, "each run has its own id");
        assert_eq!(events[0]["backend"], "rustpython");
        assert_eq!(events[0]["code_chars"], code.chars().count());
        assert_eq!(events[0]["code_sha256"].as_str().unwrap().len(), 12);
        assert_eq!(events[1]["capability"], "toolplane:results/save");
        assert_eq!(events[1]["ok"], true);
        assert_eq!(events[2]["capability"], "mcp:orders/get");
        assert_eq!(events[2]["server"], "orders");
        assert_eq!(events[3]["capability"], "flaky");
        assert_eq!(events[3]["ok"], false);
        assert_eq!(events[3]["error_type"], "ValueError");
        assert!(events[2]["duration_ms"].as_f64().unwrap() >= 0.0);
        assert_eq!(events[4]["ok"], true);
        assert_eq!(events[4]["error_type"], Value::Null);
        assert_eq!(events[4]["escalations_cancelled"], json!([]));
        assert_eq!(events[6]["ok"], false);
        assert_eq!(events[6]["error_type"], "ZeroDivisionError");
        for event in &events {
            let ts = event["ts"].as_str().unwrap();
            assert!(ts.ends_with("+00:00") && ts.len() == 29, "{ts}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o600);
            assert_eq!(mode(path.parent().unwrap()), 0o700);
        }
    }
}

#[test]
fn a_log_that_cannot_be_written_does_not_stop_runs() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("not-a-dir");
    std::fs::write(&blocker, "").unwrap();
    std::fs::write(
        dir.path().join("toolplane.toml"),
        format!(
            "[audit]\nenabled = true\npath = {:?}\n",
            blocker.join("audit.jsonl").display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join("a.py"), "await save_result(1)\nreturn 2\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
        // Named: a ./toolplane.toml found on its own does not choose where files are written until
        // it is trusted (tests/cli_mcp.rs).
        .args(["run", "--config", "toolplane.toml", "a.py", "a.py"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n2\n");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("toolplane: audit log disabled, cannot write "))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
}

#[test]
fn audit_config_is_checked() {
    let e = Config::from_toml_str("[audit]\nenabled = true\nfile = \"x\"\n").unwrap_err();
    assert!(e.to_string().contains("unknown key 'audit.file'"), "{e}");
    // Where an enabled log goes by default: the unit test
    // audit::tests::the_log_is_where_the_config_says_and_only_when_enabled.
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mcp_server_logs_what_discovery_showed() {
    use rmcp::ServiceExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let config = dir.path().join("toolplane.toml");
    std::fs::write(
        &config,
        format!(
            "[audit]\nenabled = true\npath = {:?}\n",
            path.display().to_string()
        ),
    )
    .unwrap();
    let client = ().serve(serve_mcp(&config, &[])).await.expect("initialize");
    let call = tool_call;
    let found = client
        .call_tool(call("search_capabilities", json!({"query": "result"})))
        .await
        .unwrap();
    let shown = found.content[0].as_text().expect("text").text.clone();
    client
        .call_tool(call(
            "get_capability_schemas",
            json!({"names": ["toolplane:results/save"]}),
        ))
        .await
        .unwrap();
    client
        .call_tool(call(
            "execute_code",
            json!({"code": format!("return '{SECRET}'")}),
        ))
        .await
        .unwrap();
    client.cancel().await.unwrap();
    let (text, events) = logged(&path);
    let kinds = kinds(&events);
    assert_eq!(
        kinds,
        ["discovery", "discovery", "run_start", "run_end"],
        "{text}"
    );
    assert_eq!(events[0]["surface"], "search_capabilities");
    assert_eq!(events[0]["result_chars"], shown.chars().count());
    assert_eq!(events[1]["surface"], "get_capability_schemas");
}

/// The log is evidence: it never follows a symbolic link at its path (one planted there would point it
/// at another file), keeps its file private, attributes only capabilities that exist to a server, and
/// takes at most 256 characters of a field from a run.
#[test]
fn the_log_follows_no_link_and_takes_bounded_fields() {
    use std::os::unix::fs::PermissionsExt as _;
    for isolation in isolations() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("victim.txt");
        std::fs::write(&target, "theirs\n").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
        let path = dir.path().join("audit.jsonl");
        std::os::unix::fs::symlink(&target, &path).unwrap();
        let runtime = audited(isolation, &path);
        let result = runtime.execute("return 1", None).unwrap();
        assert!(result.ok(), "{isolation:?}: {:?}", result.error);
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "theirs\n");
        assert_eq!(
            std::fs::metadata(&target).unwrap().permissions().mode() & 0o777,
            0o644
        );

        let path = dir.path().join("real.jsonl");
        std::fs::write(&path, "").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let runtime = audited(isolation, &path);
        let result = runtime
            .execute(
                "for name in ['mcp:victim/x', 'mcp:orders/' + 'n' * 400]:\n    try:\n        await call_tool(name, {})\n    except LookupError:\n        pass\nreturn await orders_get(id=1)",
                None,
            )
            .unwrap();
        assert!(result.ok(), "{isolation:?}: {:?}", result.error);
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600,
            "{isolation:?}"
        );
        let (_, events) = logged(&path);
        let dispatches: Vec<&Value> = events.iter().filter(|e| e["event"] == "dispatch").collect();
        assert_eq!(dispatches.len(), 3, "{isolation:?}: {events:?}");
        assert!(dispatches[0].get("server").is_none(), "{:?}", dispatches[0]);
        let long = dispatches[1]["capability"].as_str().unwrap();
        assert_eq!(long.chars().count(), 257, "{isolation:?}: {long}");
        assert!(long.ends_with('…'));
        assert_eq!(dispatches[2]["server"], "orders", "{isolation:?}");
    }
}
