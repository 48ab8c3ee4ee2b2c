//! Command-line tools under `[cli]` (issue 34 §1), with real binaries of every machine (`echo`,
//! `printf`, `head`, `sh`, `env`, `pwd`), in both engines: the original's call shapes, texts and
//! values; the host's guarantees (argv without a shell, the output cap, the time limit killing the
//! whole process group, empty stdin, no secrets or toolplane variables in the environment, the working
//! directory); and the policy's door (a runtime without `[cli]` cannot reach another's).

mod common;

use std::sync::Arc;

use common::{config_for, err, isolations, mcp_python, ok};
use serde_json::json;
use toolplane::{Config, Isolation, Registry, Toolplane};

fn runtime(isolation: Isolation, cli: &str) -> Toolplane {
    let mut config = Config::from_toml_str(cli).unwrap();
    config.toolplane = config_for(isolation).toolplane;
    Toolplane::new(config).unwrap()
}

const ALLOW: &str = "[cli]\nmode = \"allowlist\"\nallow = [\"echo\", \"printf\", \"head\", \"sh\", \"env\", \"pwd\", \"nosuchbinary\"]\n";

#[test]
fn calls_render_and_answer_as_the_original() {
    for isolation in isolations() {
        let runtime = runtime(isolation, ALLOW);
        // The same snippet under toolplane 0.5.2 (`toolplane run`) printed exactly these values.
        let value = ok(runtime
            .execute(
                "r = await echo('hello', n=True, max_count=3, _global={'C': '/x'})\n\
                 run = await cli_run('echo', 'hi', {'v': True})\n\
                 listed = await echo('s', inc=['a', 'b'], no=False, nothing=None, _=['p1', 'p2'])\n\
                 sub = await echo('cherry_pick')\n\
                 bare = await echo()\n\
                 exit = await sh('-c', _=['exit 3'])\n\
                 return [r, run['stdout'], listed['stdout'], sub['stdout'], bare['stdout'], exit]",
                None,
            )
            .unwrap());
        assert_eq!(
            value,
            json!([
                {"stdout": "-C /x hello -n --max-count 3\n", "stderr": "", "exit_code": 0, "ok": true},
                "hi -v\n",
                "s --inc a --inc b p1 p2\n",
                "cherry-pick\n",
                "\n",
                {"stdout": "", "stderr": "", "exit_code": 3, "ok": false},
            ]),
            "{isolation:?}"
        );
        let helpers = ok(runtime
            .execute(
                "return [await echo(_=['  a  b  ']).text(), await cli_run('printf', 'x\\\\ny\\\\n').lines(),\n\
                 await printf('{\"k\":[1,2]}').json(), await cli.echo.hi(), await cli('echo')('there')]",
                None,
            )
            .unwrap());
        assert_eq!(helpers[0], "a  b", "{isolation:?}");
        assert_eq!(helpers[1], json!(["x", "y"]));
        assert_eq!(helpers[2], json!({"k": [1, 2]}));
        assert_eq!(helpers[3]["stdout"], "hi\n");
        assert_eq!(helpers[4]["stdout"], "there\n");
    }
}

#[test]
fn refusals_are_the_originals_exceptions() {
    for isolation in isolations() {
        let runtime = runtime(isolation, ALLOW);
        let refused = |code: &str| err(runtime.execute(code, None).unwrap());
        let (kind, message) = refused("await cli_run('cat', 'x')");
        assert_eq!(kind, "PermissionError");
        assert_eq!(
            message,
            "CLI binary is not allowed by Toolplane policy: cat. Allowed binaries: echo, env, head, \
             nosuchbinary, printf, pwd, sh. To allow it: toolplane cli allow cat"
        );
        for name in ["/bin/echo", "echo;id", "$(id)", "", "../echo"] {
            let (kind, message) = refused(&format!("await cli_run({name:?})"));
            assert_eq!(kind, "PermissionError", "{name}: {message}");
            assert!(
                message.starts_with("CLI binary is not allowed by Toolplane policy"),
                "{message}"
            );
        }
        // Caught as the design doc's mapping says.
        assert_eq!(
            ok(runtime
                .execute(
                    "try:\n    await cli.cat('x')\nexcept PermissionError:\n    return 'refused'",
                    None
                )
                .unwrap()),
            "refused"
        );
        assert_eq!(refused("await cat('x')").0, "NameError");
        assert_eq!(
            refused("await nosuchbinary()"),
            (
                "FileNotFoundError".into(),
                "Binary not found: 'nosuchbinary'".into()
            )
        );
        let (kind, message) = refused("await echo('a', 'b')");
        assert_eq!(kind, "TypeError");
        assert!(
            message.starts_with("echo() takes at most one positional argument"),
            "{message}"
        );
        let (kind, message) = refused("await echo('log --oneline')");
        assert_eq!(kind, "ValueError");
        assert!(message.contains("contains whitespace"), "{message}");
        let (kind, _) = refused("await cli_run('echo', 'x', ['not', 'a', 'dict'])");
        assert_eq!(kind, "TypeError");
        let (kind, _) = refused("await echo('x', _global=['-C'])");
        assert_eq!(kind, "TypeError");
    }
}

/// Hostile values are argv tokens, never shell text: no shell ever runs.
#[test]
fn arguments_reach_the_binary_as_they_are() {
    for isolation in isolations() {
        let runtime = runtime(isolation, ALLOW);
        let value = ok(runtime
            .execute(
                "r = await printf('%s|', _=['a b', 'x;y', '$(id)', '`id`', 'l1\\nl2', '-n', '*', \"'q'\"])\n\
                 return r['stdout']",
                None,
            )
            .unwrap());
        assert_eq!(
            value, "a b|x;y|$(id)|`id`|l1\nl2|-n|*|'q'|",
            "{isolation:?}"
        );
        // Bytes that are not UTF-8 arrive replaced, not as an error.
        let value = ok(runtime
            .execute("return (await printf('\\\\377ok'))['stdout']", None)
            .unwrap());
        assert_eq!(value, "\u{fffd}ok");
        // stdin is empty: a command that reads it ends at once.
        let value = ok(runtime
            .execute("return await head('-c', _=['5'])", None)
            .unwrap());
        assert_eq!(value["stdout"], "", "{isolation:?}");
    }
}

#[test]
fn output_is_capped_with_the_cut_stated() {
    for isolation in isolations() {
        let runtime = runtime(
            isolation,
            &format!("{ALLOW}[limits]\nmax_output_bytes = 1000\n"),
        );
        let value = ok(runtime
            .execute(
                "return (await head('-c', _=['100000', '/dev/zero']))['stdout']",
                None,
            )
            .unwrap());
        let text = value.as_str().unwrap();
        assert!(text.starts_with(&"\0".repeat(1000)), "{isolation:?}");
        assert!(
            text.ends_with(
                "[toolplane: 99000 more bytes of output cut: stdout and stderr together are capped \
                 at [limits] max_output_bytes = 1000]"
            ),
            "{:?}",
            &text[1000..]
        );
    }
}

/// The processes whose command line contains `marker` and that still run (zombies excepted).
fn running_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let dir = entry.path();
        let Ok(cmdline) = std::fs::read(dir.join("cmdline")) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(dir.join("stat")) else {
            continue;
        };
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        if String::from_utf8_lossy(&cmdline).contains(marker) && !state.starts_with('Z') {
            found.push(format!(
                "{}: {}",
                dir.display(),
                String::from_utf8_lossy(&cmdline)
            ));
        }
    }
    found
}

/// What still runs with `marker` once SIGKILL had time to land (it is delivered asynchronously: a
/// killed process can still show as running for a moment on a loaded machine).
fn still_running_after_kill(marker: &str) -> Vec<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !running_with(marker).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    running_with(marker)
}

/// At the time limit the command's whole process group goes, what it started in the background too,
/// and the runtime carries on.
#[test]
fn the_time_limit_kills_the_commands_process_group() {
    for isolation in isolations() {
        let engine = if isolation == Isolation::Process {
            2
        } else {
            1
        };
        let marker = format!("31{}.{engine}", std::process::id() % 1000);
        let runtime = runtime(
            isolation,
            &format!("{ALLOW}[limits]\ntimeout_seconds = 1\n"),
        );
        let code = format!("await sh('-c', _=['sleep {marker} & sleep {marker}; echo never'])");
        let (kind, _) = err(runtime.execute(&code, None).unwrap());
        assert_eq!(kind, "TimeoutError", "{isolation:?}");
        assert_eq!(
            still_running_after_kill(&marker),
            Vec::<String>::new(),
            "{isolation:?}"
        );
        assert_eq!(
            ok(runtime
                .execute("return (await echo('on'))['stdout']", None)
                .unwrap()),
            "on\n"
        );
        // A command that ends on its own takes its background children with it.
        let code =
            format!("return await sh('-c', _=['sleep {marker}0 >/dev/null 2>&1 & echo started'])");
        assert_eq!(
            ok(runtime.execute(&code, None).unwrap())["stdout"],
            "started\n"
        );
        assert_eq!(
            still_running_after_kill(&format!("{marker}0")),
            Vec::<String>::new(),
            "{isolation:?}"
        );
    }
}

#[test]
fn commands_see_neither_secrets_nor_toolplanes_variables_and_run_where_told() {
    let dir = tempfile::tempdir().unwrap();
    // SAFETY (test): set before any thread of this test reads the environment; unique to this test.
    unsafe { std::env::set_var("TOOLPLANE_TEST_CLI_SECRET", "s3cret") };
    for isolation in isolations() {
        let runtime = runtime(
            isolation,
            &format!("{ALLOW}cwd = {:?}\n", dir.path().display().to_string()),
        );
        let value = ok(runtime
            .execute(
                "return [(await env())['stdout'], (await pwd())['stdout']]",
                None,
            )
            .unwrap());
        let environment = value[0].as_str().unwrap();
        assert!(environment.contains("PATH="), "{environment}");
        assert!(
            !environment.contains("TOOLPLANE_"),
            "{isolation:?}: {environment}"
        );
        assert!(!environment.contains("s3cret"), "{environment}");
        assert_eq!(
            value[1].as_str().unwrap().trim_end(),
            dir.path().canonicalize().unwrap().display().to_string()
        );
    }
}

/// `[cli]` is the runtime's own: a runtime without it reaches no command, even through a registry it
/// shares with one that has it; and with `[cli]` off no CLI name is bound.
#[test]
fn a_runtime_without_cli_reaches_no_command() {
    for isolation in isolations() {
        let registry = Arc::new(Registry::new());
        let mut allowing = Config::from_toml_str(ALLOW).unwrap();
        allowing.toolplane = config_for(isolation).toolplane;
        let with_cli = Toolplane::with_registry(allowing, registry.clone()).unwrap();
        let without = Toolplane::with_registry(config_for(isolation), registry).unwrap();
        assert_eq!(
            ok(with_cli
                .execute("return (await echo('x'))['ok']", None)
                .unwrap()),
            true
        );
        let (kind, message) = err(without
            .execute(
                "await call_tool('toolplane:cli/run', {'binary': 'echo'})",
                None,
            )
            .unwrap());
        assert_eq!(kind, "LookupError", "{isolation:?}: {message}");
        for name in ["cli_run", "cli", "echo"] {
            let (kind, _) = err(without.execute(name, None).unwrap());
            assert_eq!(kind, "NameError", "{name}");
        }
    }
}

/// `call_tool("echo", …)` with an allowed binary teaches the call it meant (a model tried that and
/// concluded the binary was not there).
#[test]
fn call_tool_with_a_binarys_name_teaches_the_cli_call() {
    for isolation in isolations() {
        let runtime = runtime(isolation, ALLOW);
        let (kind, message) = err(runtime
            .execute("await call_tool('echo', {'x': 1})", None)
            .unwrap());
        assert_eq!(kind, "LookupError", "{isolation:?}");
        assert!(
            message.starts_with(
                "'echo' is a CLI binary, not a capability \u{2014} call it as a flat async function. \
                 CLI call shape: subcommand as the first positional argument"
            ),
            "{message}"
        );
        // A name the allowlist does not hold stays the plain LookupError.
        let (kind, message) = err(runtime.execute("await call_tool('cat', {})", None).unwrap());
        assert_eq!(kind, "LookupError");
        assert!(message.starts_with("Unknown capability: cat."), "{message}");
    }
}

/// Each command is an audit `dispatch` event with its binary and exit code, and never its arguments
/// or output; a refused one is a failed dispatch naming the binary.
#[test]
fn commands_are_audited_by_binary_and_exit_code_only() {
    for isolation in isolations() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let runtime = runtime(
            isolation,
            &format!(
                "{ALLOW}[audit]\nenabled = true\npath = {:?}\n",
                path.display().to_string()
            ),
        );
        let secret = "argv-secret-4711";
        let code = format!(
            "a = await sh('-c', _=['echo out-secret-4712; exit 4', {secret:?}])\n\
             try:\n    await cli_run('cat', {secret:?})\nexcept PermissionError:\n    pass\n\
             return a['exit_code']"
        );
        assert_eq!(ok(runtime.execute(&code, None).unwrap()), 4);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains(secret) && !text.contains("out-secret-4712"),
            "{text}"
        );
        let dispatches: Vec<serde_json::Value> = text
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
            .filter(|event| event["event"] == "dispatch")
            .collect();
        assert_eq!(dispatches.len(), 2, "{isolation:?}: {text}");
        assert_eq!(dispatches[0]["capability"], "toolplane:cli/run");
        assert_eq!(dispatches[0]["binary"], "sh");
        assert_eq!(dispatches[0]["exit_code"], 4);
        assert_eq!(dispatches[0]["ok"], true);
        assert_eq!(dispatches[1]["binary"], "cat");
        assert_eq!(dispatches[1]["ok"], false);
        assert_eq!(dispatches[1]["error_type"], "PermissionError");
        assert!(dispatches[1].get("exit_code").is_none());
    }
}

/// Inputs may not take the names `[cli]` binds.
#[test]
fn inputs_cannot_shadow_cli_names() {
    let runtime = runtime(Isolation::InProcess, ALLOW);
    for name in ["cli", "cli_run", "echo"] {
        let error = runtime.execute("return 1", json!({name: 1})).unwrap_err();
        assert!(error.to_string().contains(name), "{error}");
    }
    assert_eq!(
        ok(runtime.execute("return cat", json!({"cat": 1})).unwrap()),
        1
    );
}

/// `toolplane run` ends what its run left running before it exits (the abort of an abandoned call is
/// asynchronous; the process must not exit first and leave the command behind).
#[test]
fn toolplane_run_leaves_no_command_behind() {
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("32{}.7", std::process::id() % 1000);
    std::fs::write(
        dir.path().join("toolplane.toml"),
        format!("{ALLOW}[limits]\ntimeout_seconds = 1\n"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("slow.py"),
        format!("await sh('-c', _=['sleep {marker} & sleep {marker}'])\n"),
    )
    .unwrap();
    for isolation in ["process", "in-process"] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .args([
                "run",
                "--config",
                "toolplane.toml",
                "--isolation",
                isolation,
                "slow.py",
            ])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("TimeoutError"), "{isolation}: {stderr}");
        assert_eq!(
            still_running_after_kill(&marker),
            Vec::<String>::new(),
            "{isolation}"
        );
    }
}

/// `serve mcp` refuses the ambient policy without `--unsafe`, with the original's text, and its policy
/// line has the original's fields.
#[test]
fn serve_mcp_refuses_ambient_without_unsafe_and_says_its_policy() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ambient.toml"),
        "[cli]\nmode = \"ambient\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("allow.toml"), ALLOW).unwrap();
    let serve = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .args(["serve", "mcp"])
            .args(args)
            .current_dir(dir.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let refused = serve(&["--config", "ambient.toml"])
        .wait_with_output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&refused.stderr),
        "toolplane: Refusing to serve Toolplane MCP facade with unsafe policy: ambient_cli. Use an \
         explicit safe config or pass --unsafe for trusted local development.\n"
    );
    for (args, says) in [
        (
            &["--config", "ambient.toml", "--unsafe"][..],
            " cli=ambient allow=ALL mcp_servers=none unsafe=true reasons=ambient_cli",
        ),
        (
            &["--config", "allow.toml"][..],
            " cli=allowlist allow=echo,env,head,nosuchbinary,printf,pwd,sh mcp_servers=none unsafe=false",
        ),
    ] {
        let mut server = serve(args);
        let mut line = String::new();
        std::io::BufReader::new(server.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        drop(server.stdin.take());
        let _ = server.wait();
        assert!(line.starts_with("Toolplane MCP policy: "), "{line}");
        assert!(line.trim_end().ends_with(says), "{line}");
    }
}

/// A `./toolplane.toml` the CLI finds on its own lets snippets run nothing until it is trusted: a
/// checked-in `[cli]` must not hand a repository's author the user's programs.
#[test]
fn an_untrusted_project_config_runs_no_command() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(project.path().join("toolplane.toml"), ALLOW).unwrap();
    std::fs::write(
        project.path().join("echo.py"),
        "return (await cli_run('echo', 'ran'))['stdout']\n",
    )
    .unwrap();
    let toolplane = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .args(args)
            .current_dir(project.path())
            .env("HOME", home.path())
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .unwrap()
    };
    let out = toolplane(&["run", "echo.py"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "toolplane.toml is not trusted, so its [cli] (mode = \"allowlist\") is ignored"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("NameError: name 'cli_run' is not defined"),
        "{stderr}"
    );
    let trusted = toolplane(&["trust"]);
    let shown = String::from_utf8_lossy(&trusted.stdout);
    assert!(
        shown.contains(
            "let snippets run echo, printf, head, sh, env, pwd, nosuchbinary ([cli] allowlist)"
        ),
        "{shown}"
    );
    let out = toolplane(&["run", "echo.py"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "\"ran\\n\"\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `toolplane cli allow|deny|list` edit `[cli]` in place (comments kept) with the original's texts.
#[test]
fn cli_allow_deny_and_list_edit_the_config_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(&config, "# mine\n[results]\nmax_entries = 9 # keep\n").unwrap();
    let toolplane = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .args(args)
            .current_dir(dir.path())
            .env("HOME", dir.path())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(toolplane(&["cli", "list"]).1, "cli: disabled\n");
    assert_eq!(
        toolplane(&["cli", "allow", "echo", "nosuchbinary"]).1,
        "Allowed CLI binaries in toolplane.toml: echo, nosuchbinary (mode=allowlist)\n"
    );
    assert_eq!(
        toolplane(&["cli", "allow", "echo", "sh"]).1,
        "Allowed CLI binaries in toolplane.toml: echo, nosuchbinary, sh (mode=allowlist)\n"
    );
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(
        text.starts_with("# mine\n[results]\nmax_entries = 9 # keep\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "[cli]\nmode = \"allowlist\"\nallow = [\"echo\", \"nosuchbinary\", \"sh\"]\n"
        ),
        "{text}"
    );
    let listed = toolplane(&["cli", "list"]).1;
    assert!(
        listed.starts_with("cli: allowlist [echo, nosuchbinary, sh]\n  echo: /"),
        "{listed}"
    );
    assert!(
        listed.contains("\n  nosuchbinary: not found on PATH\n"),
        "{listed}"
    );
    assert_eq!(
        toolplane(&["cli", "deny", "cat"]),
        (
            Some(2),
            String::new(),
            "toolplane: not in the allowlist: cat; currently allowed: echo, nosuchbinary, sh\n"
                .into()
        )
    );
    assert_eq!(
        toolplane(&["cli", "deny", "sh", "nosuchbinary"]).1,
        "Denied sh, nosuchbinary in toolplane.toml; still allowed: echo\n"
    );
    assert_eq!(
        toolplane(&["cli", "deny", "echo"]).1,
        "Denied echo in toolplane.toml; the allowlist is now empty, so cli mode is set to disabled \
         \u{2014} re-enable with: toolplane cli allow <binary>\n"
    );
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .ends_with("[cli]\nmode = \"disabled\"\n")
    );
    for bad in ["a;b", "/bin/sh", "two words", ""] {
        let (code, _, stderr) = toolplane(&["cli", "allow", bad]);
        assert_eq!(code, Some(2), "{bad}");
        assert!(
            stderr.starts_with("toolplane: Invalid CLI binary name: "),
            "{stderr}"
        );
    }
}

/// What `tests/fixtures/cli_escalation_client.py` (the official Python SDK) saw: the snippets' values
/// over two runs, the prompts and the namespace manifest.
fn escalated(isolation: Isolation, answer: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(&config, "[cli]\nmode = \"allowlist\"\nallow = [\"echo\"]\n").unwrap();
    let client = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/cli_escalation_client.py"
    );
    let output = std::process::Command::new(mcp_python())
        .arg(client)
        .arg(env!("CARGO_BIN_EXE_toolplane"))
        .arg(&config)
        .arg(match isolation {
            Isolation::InProcess => "in-process",
            _ => "process",
        })
        .arg(answer)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// `serve mcp` over stdio asks the person (MCP elicitation) before refusing a binary the allowlist
/// does not name: once per binary; only an explicit "allow" grants it, for the life of the process;
/// a client that declines, cancels, answers "deny" or offers no elicitation gets exactly the refusal.
#[test]
fn serve_mcp_asks_the_person_about_a_refused_binary() {
    const REFUSED: &str = "PermissionError: CLI binary is not allowed by Toolplane policy: printf. \
                           Allowed binaries: echo. To allow it: toolplane cli allow printf";
    for isolation in isolations() {
        let granted = escalated(isolation, "allow");
        let values: Vec<&serde_json::Value> = granted["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| &r["value"])
            .collect();
        assert_eq!(
            values,
            [&json!(["granted", "granted"]); 2],
            "{isolation:?}: {granted}"
        );
        let prompts = granted["prompts"].as_array().unwrap();
        assert_eq!(prompts.len(), 1, "asked once: {granted}");
        assert_eq!(
            prompts[0]["message"],
            "The running snippet wants to execute the CLI binary 'printf', which is outside the \
             Toolplane allowlist (currently: echo). Allow it for the rest of this server session?"
        );
        assert_eq!(
            prompts[0]["schema"],
            json!({"type": "object", "properties": {"value": {"type": "string", "enum": ["allow", "deny"]}},
                   "required": ["value"]})
        );
        let manifest = granted["manifest"].as_str().unwrap();
        assert!(
            manifest.contains("## CLI\n\nAllowed binaries: echo"),
            "{manifest}"
        );
        assert!(
            manifest.contains("asks the person to allow it"),
            "{manifest}"
        );
        for answer in ["deny", "decline", "cancel", "none"] {
            let refused = escalated(isolation, answer);
            for run in refused["runs"].as_array().unwrap() {
                assert_eq!(
                    run["value"],
                    json!([REFUSED, REFUSED]),
                    "{answer}: {refused}"
                );
            }
            let asked = refused["prompts"].as_array().unwrap().len();
            assert_eq!(
                asked,
                usize::from(answer != "none"),
                "{answer}: asked once at most"
            );
        }
    }
}

/// Discovery shows `[cli]` though its capability is not in the registry: a search for a binary finds
/// `toolplane:cli/run`, its schema resolves, the footer, the search tool's description and the
/// namespace manifest name the bindings and their call shape.
#[tokio::test(flavor = "multi_thread")]
async fn serve_mcp_discovery_shows_the_cli_bindings() {
    use rmcp::ServiceExt as _;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(
        &config,
        "[cli]\nmode = \"allowlist\"\nallow = [\"echo\", \"kubectl-foo\"]\n",
    )
    .unwrap();
    let client =
        ().serve(common::serve_mcp(&config, &["--isolation", "in-process"]))
            .await
            .unwrap();
    let text = |result: rmcp::model::CallToolResult| {
        result.content[0].as_text().expect("text").text.clone()
    };
    let found = text(
        client
            .call_tool(common::tool_call(
                "search_capabilities",
                json!({"query": "echo"}),
            ))
            .await
            .unwrap(),
    );
    let surface = "CLI bindings for: echo \u{2014} shape `await echo('<subcommand>', flag=value)`, \
                   returning {'stdout','stderr','exit_code','ok'}; via cli_run only: kubectl-foo \u{2014} \
                   shape `await cli_run('kubectl-foo', '<subcommand>', {'flag': value})`";
    assert!(
        found.starts_with("- `await call_tool(\"toolplane:cli/run\""),
        "{found}"
    );
    assert!(found.contains("[toolplane:cli/run]"), "{found}");
    assert!(
        found.contains(&format!(
            "The namespace also binds surfaces search does not list: {surface}; `save_result`/`load_result`."
        )),
        "{found}"
    );
    let missed = text(
        client
            .call_tool(common::tool_call(
                "search_capabilities",
                json!({"query": "weather"}),
            ))
            .await
            .unwrap(),
    );
    assert!(missed.contains(surface), "{missed}");
    let schema = text(
        client
            .call_tool(common::tool_call(
                "get_capability_schemas",
                json!({"names": ["toolplane:cli/run"]}),
            ))
            .await
            .unwrap(),
    );
    assert!(schema.starts_with("### toolplane:cli/run"), "{schema}");
    assert!(!schema.contains("not found"), "{schema}");
    let tools = client.list_all_tools().await.unwrap();
    let search = tools
        .iter()
        .find(|t| t.name == "search_capabilities")
        .unwrap();
    assert!(
        search
            .description
            .as_deref()
            .unwrap_or_default()
            .contains(surface),
        "{search:?}"
    );
    let manifest = client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(
            "toolplane://namespace",
        ))
        .await
        .unwrap();
    let rmcp::model::ResourceContents::TextResourceContents { text: manifest, .. } =
        &manifest.contents[0]
    else {
        panic!("{manifest:?}")
    };
    assert!(
        manifest.contains("## CLI\n\nAllowed binaries: echo, kubectl-foo"),
        "{manifest}"
    );
    client.cancel().await.unwrap();
}
