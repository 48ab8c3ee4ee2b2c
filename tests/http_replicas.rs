//! Past one machine (issue 35 §3): two `serve mcp` replicas with their stores on a real Redis, behind
//! a real HAProxy (Debian's packages; `.ci/run` installs them) that keeps a client's MCP session on
//! its replica by `Mcp-Session-Id`, learned from the response. A principal's handle saved through
//! one replica loads through the other; a replica that dies loses its sessions (its clients get 404
//! and initialize again, through the proxy, on the other) but nothing of the store.

mod common;

use std::process::Stdio;
use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};

use common::{
    KillOnDrop as Running, McpClient as Client, RedisServer, execute_code as run, free_port,
};

/// Waits (bounded) until something listens on `port`.
fn wait_for_port(port: u16, what: &str) {
    for _ in 0..400 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    panic!("{what} never listened on {port}");
}

/// A replica: `serve mcp --transport http` on `port` with `config`.
fn replica(config: &std::path::Path, port: u16) -> Running {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
        .args([
            "serve",
            "mcp",
            "--transport",
            "http",
            "--port",
            &port.to_string(),
            "--config",
        ])
        .arg(config)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_port(port, "a replica");
    Running(child)
}

/// HAProxy on `port` in front of the replicas: round robin for new clients, then each MCP session
/// stuck to the replica that answered its `initialize` (the `Mcp-Session-Id` of the response).
fn haproxy(dir: &std::path::Path, port: u16, replicas: &[u16]) -> Running {
    let servers: String = replicas
        .iter()
        .enumerate()
        .map(|(i, p)| format!("  server r{i} 127.0.0.1:{p} check inter 300 fall 1 rise 1\n"))
        .collect();
    let config = format!(
        "global\n  maxconn 256\n\ndefaults\n  mode http\n  timeout connect 2s\n  timeout client 60s\n  \
         timeout server 60s\n  retries 2\n  option redispatch\n\nfrontend mcp\n  bind 127.0.0.1:{port}\n  \
         default_backend replicas\n\nbackend replicas\n  balance roundrobin\n  \
         stick-table type string len 64 size 10k expire 30m\n  stick on req.hdr(mcp-session-id)\n  \
         stick store-response res.hdr(mcp-session-id)\n{servers}"
    );
    let path = dir.join("haproxy.cfg");
    std::fs::write(&path, config).unwrap();
    common::debian_package("haproxy", "haproxy");
    let child = std::process::Command::new("haproxy")
        .arg("-f")
        .arg(&path)
        .arg("-db")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("haproxy (Debian's package haproxy; .ci/run installs it)");
    wait_for_port(port, "haproxy");
    Running(child)
}

async fn client(port: u16, token: &str) -> Client {
    common::http_client(&format!("http://127.0.0.1:{port}/mcp"), Some(token)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_share_the_store_and_survive_each_other() {
    let redis = RedisServer::start();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(
        &config,
        format!(
            "[stores]\nurl = \"{}\"\n\n[http.tokens]\nalice = \"alice-token-1234\"\nbob = \"bob-token-5678\"\n",
            redis.url()
        ),
    )
    .unwrap();
    let (one, two, proxy) = (free_port(), free_port(), free_port());
    let mut first = Some(replica(&config, one));
    let _second = replica(&config, two);
    let _haproxy = haproxy(dir.path(), proxy, &[one, two]);

    // Straight to each replica: alice's handle from one loads from the other; bob's never.
    let (alice_one, alice_two) = (
        client(one, "alice-token-1234").await,
        client(two, "alice-token-1234").await,
    );
    let saved = run(
        &alice_one,
        "return await save_result({'n': 42})",
        Value::Null,
    )
    .await;
    let handle = saved["value"].clone();
    let loaded = run(
        &alice_two,
        "return (await load_result(h))['n']",
        json!({"h": handle}),
    )
    .await;
    assert_eq!(loaded["value"], 42, "{loaded}");
    let bob = client(two, "bob-token-5678").await;
    let stolen = run(&bob, "return await load_result(h)", json!({"h": handle})).await;
    assert_eq!(stolen["error"]["type"], "ValueError", "{stolen}");
    for c in [alice_one, alice_two, bob] {
        c.cancel().await.unwrap();
    }

    // Through the proxy: round robin puts two clients on different replicas, and each one's session
    // stays on its replica (its variable is there at every call).
    let (a, b) = (
        client(proxy, "alice-token-1234").await,
        client(proxy, "alice-token-1234").await,
    );
    let mut handles = Vec::new();
    for (c, name) in [(&a, "a"), (&b, "b")] {
        let saved = run(
            c,
            &format!("global mine\nmine = '{name}'\nreturn await save_artifact(b'{name}')"),
            Value::Null,
        )
        .await;
        assert!(saved["error"].is_null(), "{saved}");
        handles.push(saved["value"].clone());
    }
    let kept = "return globals().get('mine')";
    for _ in 0..5 {
        let (seen_a, seen_b) = (
            run(&a, kept, Value::Null).await,
            run(&b, kept, Value::Null).await,
        );
        // One principal, one session per replica: a client sees its replica's session.
        assert!(
            seen_a["value"].is_string() && seen_b["value"].is_string(),
            "{seen_a} {seen_b}"
        );
        assert_ne!(
            seen_a["value"], seen_b["value"],
            "the clients share a replica: {seen_a} {seen_b}"
        );
    }

    // Replica one dies. The client on the other goes on with its session; the one on it gets 404
    // through the proxy (its session is gone), initializes again on the other, and finds the store
    // whole: both artifacts load through either client.
    drop(first.take());
    let load_both = "return [(await load_artifact(h)).decode() for h in hs]";
    let mut survivors = 0;
    for c in [&a, &b] {
        let mut loaded = Value::Null;
        for _ in 0..20 {
            let call = c
                .call_tool(
                    CallToolRequestParams::new("execute_code").with_arguments(
                        json!({"code": load_both, "inputs": {"hs": handles}})
                            .as_object()
                            .cloned()
                            .unwrap(),
                    ),
                )
                .await;
            if let Ok(result) = call
                && let Some(content) = result.structured_content
            {
                loaded = content;
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        assert_eq!(loaded["value"], json!(["a", "b"]), "{loaded}");
        if run(c, kept, Value::Null).await["value"].is_string() {
            survivors += 1;
        }
    }
    assert_eq!(
        survivors, 2,
        "alice's session on the living replica is both clients' now"
    );
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
    assert!(
        redis
            .keys()
            .iter()
            .any(|k| k.starts_with("toolplane:alice:art:e:")),
        "{:?}",
        redis.keys()
    );
}
