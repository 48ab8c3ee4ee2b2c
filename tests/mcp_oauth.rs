//! OAuth for remote MCP servers (`auth = "oauth"`, `toolplane mcp login`), against servers nobody here
//! wrote: the official MCP conformance suite's client auth scenarios (each an authorization server and
//! an MCP server on the TypeScript SDK's bearer-auth middleware), and, end to end, one of them as the
//! server a config names: login through a "browser", tokens in the OS keyring, a run that calls the
//! server's tool.

mod common;

use std::io::BufRead as _;
use std::process::{Command, Stdio};

use common::node_packages;
use serde_json::json;

fn conformance() -> std::path::PathBuf {
    node_packages().join("node_modules/@modelcontextprotocol/conformance/dist/index.js")
}

/// The suite, with the baseline of the scenarios known to fail (tests/mcp-node): a new failure, or a
/// baseline entry that now passes, fails this test.
#[test]
fn the_conformance_suites_client_auth_scenarios_pass_but_the_known_few() {
    let client = format!("{} mcp conformance-client", env!("CARGO_BIN_EXE_toolplane"));
    let out = Command::new("node")
        .arg(conformance())
        .args(["client", "--suite", "auth", "--command", &client])
        .arg("--expected-failures")
        .arg(node_packages().join("auth-expected-failures.yaml"))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = text
        .split("=== SUITE SUMMARY ===")
        .nth(1)
        .unwrap_or_default();
    assert!(out.status.success(), "{summary}\n{text}");
    for scenario in [
        "auth/metadata-default",
        "auth/scope-from-www-authenticate",
        "auth/token-endpoint-auth-basic",
        "auth/pre-registration",
        "auth/resource-mismatch",
    ] {
        assert!(
            summary.contains(&format!("\u{2713} {scenario}: ")),
            "{scenario} did not pass:\n{summary}"
        );
    }
}

/// One scenario's servers, left running (the suite's interactive mode): the MCP server's URL.
struct Scenario {
    child: std::process::Child,
    url: String,
}

impl Scenario {
    fn start(name: &str) -> Self {
        let mut child = Command::new("node")
            .arg(conformance())
            .args(["client", "--scenario", name])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let url = stdout
            .lines()
            .map_while(Result::ok)
            .find_map(|line| line.strip_prefix("Server URL: ").map(str::to_string))
            .expect("the scenario's server URL");
        Self { child, url }
    }
}

impl Drop for Scenario {
    fn drop(&mut self) {
        // SAFETY (test): the scenario's own process group, started above.
        unsafe { libc::killpg(self.child.id() as i32, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

use std::os::unix::process::CommandExt as _;

#[test]
fn mcp_login_signs_in_keeps_the_tokens_in_the_keyring_and_runs_reach_the_server() {
    let scenario = Scenario::start("auth/metadata-default");
    let dir = tempfile::tempdir().unwrap();
    let name = format!("oauth{}", std::process::id());
    let config = dir.path().join("toolplane.toml");
    std::fs::write(
        &config,
        format!(
            "[mcp.servers.{name}]\nurl = \"{}\"\nauth = \"oauth\"\n",
            scenario.url
        ),
    )
    .unwrap();
    // The "browser": follows the authorization URL's redirect to the login's loopback listener.
    let browser = dir.path().join("browser");
    std::fs::write(&browser, "#!/bin/sh\nexec curl -sL -o /dev/null \"$1\"\n").unwrap();
    std::fs::set_permissions(
        &browser,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let toolplane = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .args(args)
            .arg("--config")
            .arg(&config)
            .env("BROWSER", &browser)
            .env("HOME", dir.path())
            .output()
            .unwrap()
    };
    let before = toolplane(&["mcp", "status", &name]);
    let status = String::from_utf8_lossy(&before.stdout).into_owned();
    assert!(
        status.contains(&format!(
            "- {name}: auth_required transport=url auth=oauth detail=auth_required: not signed in \
             (OAuth): run toolplane mcp login {name}"
        )),
        "{status}"
    );
    let login = toolplane(&["mcp", "login", &name, "--timeout", "60"]);
    let stderr = String::from_utf8_lossy(&login.stderr).into_owned();
    assert!(login.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&login.stdout),
        format!("Login succeeded for '{name}': 1 tools\n")
    );
    assert!(
        stderr.contains("Open this URL in a browser to sign in"),
        "{stderr}"
    );
    let after = toolplane(&["mcp", "status", &name]);
    assert!(
        String::from_utf8_lossy(&after.stdout).contains(&format!("- {name}: ok ")),
        "{}",
        String::from_utf8_lossy(&after.stdout)
    );
    // A run calls the server's tool with the stored token, in both engines.
    for isolation in ["process", "in-process"] {
        let snippet = dir.path().join("call.py");
        std::fs::write(
            &snippet,
            format!("return await call_tool('mcp:{name}/test-tool', {{}})\n"),
        )
        .unwrap();
        let run = Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .args(["run", "--json", "--isolation", isolation, "--config"])
            .arg(&config)
            .arg(&snippet)
            .output()
            .unwrap();
        let result: serde_json::Value =
            serde_json::from_slice(&run.stdout).unwrap_or_else(|_| json!(null));
        assert_eq!(
            result["value"],
            "test",
            "{isolation}: {result} {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    // The tokens are in the keyring under the server's entry, never in the config or the output;
    // `mcp logout` forgets them, and the server needs a login again.
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(!text.contains("test-token"), "{text}");
    assert!(!stderr.contains("test-token"), "{stderr}");
    let logout = toolplane(&["mcp", "logout", &name]);
    assert_eq!(
        String::from_utf8_lossy(&logout.stdout),
        format!("Forgot the OAuth tokens of '{name}'\n"),
        "{}",
        String::from_utf8_lossy(&logout.stderr)
    );
    let again = toolplane(&["mcp", "status", &name]);
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("auth_required"),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
}
