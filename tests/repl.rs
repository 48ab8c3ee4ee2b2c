//! `toolplane repl`: through a pipe (one JSON line per entry) and through a real pseudo-terminal.

mod common;

use std::process::Command;

use serde_json::Value;

fn piped(args: &[&str], input: &str) -> (Vec<Value>, i32) {
    let out = common::output_with_stdin(
        Command::new(env!("CARGO_BIN_EXE_toolplane"))
            .arg("repl")
            .args(args),
        input,
    );
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (lines, out.status.code().unwrap_or(-1))
}

#[test]
fn piped_entries_share_a_session_and_meta_commands_answer_in_json() {
    for isolation in ["process", "in-process"] {
        let input = "x = 41\n\ndef f(y):\n    return y + x\n\nf(1)\n\nh = await save_result([1, 2], label='nums')\nh\n\n\
                     :results\n\n:load res_nope\n\n:reset\n\nx\n";
        let (all, code) = piped(&["--isolation", isolation], input);
        assert_eq!(code, 0);
        assert_eq!(all[2]["value"], 42, "{isolation}: {all:?}");
        let handle = all[3]["value"].as_str().unwrap().to_string();
        let results = &all[4];
        assert_eq!(results["command"], ":results");
        assert_eq!(results["output"][0]["handle"], handle.as_str());
        assert_eq!(results["output"][0]["label"], "nums");
        assert_eq!(results["output"][0]["size_bytes"], 10);
        // An unknown handle gets the store's own message.
        assert!(
            all[5]["output"]
                .as_str()
                .unwrap()
                .contains("unknown or expired result handle")
        );
        assert_eq!(all[6]["command"], ":reset");
        assert_eq!(all[7]["error"]["type"], "NameError", "{isolation}: {all:?}");
    }
}

#[test]
fn piped_fresh_mode_keeps_only_the_store() {
    let (out, code) = piped(
        &["--fresh", "--isolation", "in-process"],
        "x = 1\nh = await save_result({'a': 1})\nh\n\nx\n\n:reset\n",
    );
    assert_eq!(code, 0);
    let handle = out[0]["value"].as_str().unwrap();
    assert!(handle.starts_with("res_"));
    assert_eq!(out[1]["error"]["type"], "NameError");
    assert!(
        out[2]["output"]
            .as_str()
            .unwrap()
            .contains("every entry runs fresh")
    );
}

#[test]
fn piped_load_and_quit() {
    let (out, code) = piped(
        &["--isolation", "in-process"],
        "return await save_result({'k': [1, 2]})\n\n:quit\n\nreturn 'not reached'\n",
    );
    assert_eq!(code, 0);
    assert_eq!(out.len(), 1, "{out:?}");
}

fn terminal(isolation: &str) -> rexpect::session::PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolplane"));
    command
        .args(["repl", "--isolation", isolation])
        .env("NO_COLOR", "1")
        .env(
            "XDG_DATA_HOME",
            std::env::temp_dir().join("toolplane-repl-test"),
        );
    let mut session = rexpect::session::spawn_command(command, Some(20_000)).unwrap();
    session.exp_string(">>> ").unwrap();
    session
}

/// Sends a line once the prompt is back (the line editor drops typeahead when it starts).
fn line(session: &mut rexpect::session::PtySession, text: &str, prompt: &str) {
    session.send_line(text).unwrap();
    session.exp_string(prompt).unwrap();
}

#[test]
fn terminal_session_multiline_interrupt_and_exit() {
    for isolation in ["process", "in-process"] {
        let mut p = terminal(isolation);
        line(&mut p, "x = 5", ">>> ");
        line(&mut p, "def f(y):", "... ");
        line(&mut p, "    z = y * x", "... ");
        line(&mut p, "    return z", "... ");
        line(&mut p, "", ">>> ");
        p.send_line("f(2)").unwrap();
        p.exp_string("10").unwrap();
        p.exp_string(">>> ").unwrap();
        line(
            &mut p,
            "h = await save_result(f(3), label='fifteen')",
            ">>> ",
        );
        p.send_line(":results").unwrap();
        let (_, row) = p.exp_regex("res_[A-Za-z0-9_-]+ +fifteen").unwrap();
        p.exp_string(">>> ").unwrap();
        let handle = row.split_whitespace().next().unwrap().to_string();
        p.send_line(&format!(":load {handle}")).unwrap();
        p.exp_string("15").unwrap();
        p.exp_string(">>> ").unwrap();
        // Ctrl-C interrupts a running snippet; the session lives on.
        p.send_line("while True: pass").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(500));
        p.send_control('c').unwrap();
        p.exp_string("KeyboardInterrupt").unwrap();
        p.exp_string(">>> ").unwrap();
        p.send_line("x + 1").unwrap();
        p.exp_string("6").unwrap();
        p.exp_string(">>> ").unwrap();
        // Ctrl-C at the prompt clears the line.
        p.send("abc").unwrap();
        p.send_control('c').unwrap();
        p.exp_string(">>> ").unwrap();
        line(&mut p, ":reset", ">>> ");
        p.send_line("x").unwrap();
        p.exp_string("NameError").unwrap();
        p.exp_string(">>> ").unwrap();
        p.send_control('d').unwrap();
        p.exp_eof().unwrap();
        match p.process().wait().unwrap() {
            nix::sys::wait::WaitStatus::Exited(_, code) => assert_eq!(code, 0),
            other => panic!("{isolation}: {other:?}"),
        }
    }
}

/// `:tools` lists what a snippet can call: no capability here, and `[cli]`'s bindings.
#[test]
fn piped_tools_lists_the_cli_bindings() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toolplane.toml");
    std::fs::write(&config, "[cli]\nmode = \"allowlist\"\nallow = [\"echo\"]\n").unwrap();
    let config = config.display().to_string();
    let (out, code) = piped(
        &["--isolation", "in-process", "--config", &config],
        ":tools\n\nreturn (await echo('hi'))['stdout']\n",
    );
    assert_eq!(code, 0);
    assert_eq!(out[0]["command"], ":tools");
    assert_eq!(out[0]["output"]["capabilities"], serde_json::json!([]));
    assert_eq!(
        out[0]["output"]["cli"],
        "CLI bindings for: echo \u{2014} shape `await echo('<subcommand>', flag=value)`, returning \
         {'stdout','stderr','exit_code','ok'}"
    );
    assert_eq!(out[1]["value"], "hi\n", "{out:?}");
    let (out, _) = piped(&["--isolation", "in-process"], ":tools\n");
    assert_eq!(out[0]["output"]["cli"], Value::Null);
}
