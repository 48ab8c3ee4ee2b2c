//! Persistent sessions: namespace kept across runs, failed runs keep state, reset, inputs, the
//! rebinding guard, and unawaited-call detection.

mod common;

use common::{err, ok};
use serde_json::{Value, json};
use toolplane::{Config, ExecutionResult, Session, Toolplane};

fn run(session: &Session, code: &str) -> ExecutionResult {
    session.execute(code, None).unwrap()
}

#[test]
fn namespace_persists_and_return_or_trailing_expression_is_the_value() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let s = rt.session();
    assert_eq!(
        ok(run(&s, "x = 41\ndef inc(v):\n    return v + 1")),
        Value::Null
    );
    assert_eq!(ok(run(&s, "return inc(x)")), json!(42));
    assert_eq!(ok(run(&s, "x = 1\nx + 1")), json!(2));
    assert_eq!(
        ok(run(&s, "if x:\n    return 'early'\nreturn 'late'")),
        json!("early")
    );
    assert_eq!(
        ok(run(&s, "h = await save_result([x])\nawait load_result(h)")),
        json!([1])
    );
}

#[test]
fn a_failed_run_keeps_what_ran_before_the_error() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let s = rt.session();
    ok(run(&s, "x = 1"));
    assert_eq!(err(run(&s, "x = 2\n1/0")).0, "ZeroDivisionError");
    assert_eq!(ok(run(&s, "return x")), json!(2));
}

#[test]
fn reset_clears_after_the_run_and_keeps_the_stores() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let s = rt.session();
    ok(run(&s, "x = 1"));
    let msg = ok(run(
        &s,
        "m = await reset_session()\nh = await save_result([1, 2])\nreturn [m, x, h]",
    ));
    assert!(msg[0].as_str().unwrap().contains("cleared after this run"));
    assert_eq!(
        msg[1],
        json!(1),
        "the rest of the run still sees the old variables"
    );
    assert_eq!(err(run(&s, "return x")).0, "NameError");
    let h = msg[2].as_str().unwrap();
    assert_eq!(
        ok(s.execute(
            "return await load_result(h)",
            json!({"h": h}).as_object().cloned()
        )
        .unwrap()),
        json!([1, 2])
    );
    ok(run(&s, "y = 1"));
    s.reset();
    assert_eq!(err(run(&s, "return y")).0, "NameError");
}

#[test]
fn inputs_live_for_one_run_unless_rebound() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let s = rt.session();
    let with = |code: &str, inputs: Value| s.execute(code, inputs.as_object().cloned()).unwrap();
    ok(run(&s, "n = 'kept'"));
    assert_eq!(
        ok(with("return [n, m]", json!({"n": 1, "m": 2}))),
        json!([1, 2])
    );
    assert_eq!(
        ok(run(&s, "return [n, 'm' in dir()]")),
        json!(["kept", false])
    );
    ok(with("k = k + 1", json!({"k": 1})));
    ok(with("j = j", json!({"j": 5})));
    assert_eq!(ok(run(&s, "return k")), json!(2), "a rebound input stays");
}

#[test]
fn assigning_a_binding_is_rejected_before_the_run() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let s = rt.session();
    for code in [
        "reset_session = 1",
        "import math as save_result",
        "from math import sqrt as load_result",
        "def call_tool():\n    pass",
        "for save_artifact in []:\n    pass",
    ] {
        let (kind, message) = err(run(&s, &format!("marker = 1\n{code}")));
        assert_eq!(kind, "NamespaceCollisionError", "{code}");
        assert!(
            message.contains("assigns to Toolplane bindings"),
            "{message}"
        );
    }
    assert_eq!(
        err(run(&s, "return marker")).0,
        "NameError",
        "rejected runs do not execute at all"
    );
    assert!(
        ok(run(&s, "return await reset_session()"))
            .as_str()
            .unwrap()
            .contains("cleared")
    );
    // Names inside a function body are local and harmless.
    assert_eq!(
        ok(run(
            &s,
            "def f():\n    save_result = 3\n    return save_result\nreturn f()"
        )),
        json!(3)
    );
}

#[test]
fn sessions_do_not_share_a_vm_and_fresh_runs_stay_fresh() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let a = rt.session();
    let b = rt.session();
    ok(run(&a, "x = 'a'"));
    assert_eq!(err(run(&b, "return x")).0, "NameError");
    assert_eq!(err(rt.execute("return x", None).unwrap()).0, "NameError");
}

#[test]
fn a_timed_out_in_process_session_run_says_state_may_be_partial_and_the_session_lives() {
    // With process isolation (the default on Linux) the run is rolled back instead: tests/process.rs.
    let rt = Toolplane::new(
        Config::from_toml_str(
            "[toolplane]\nisolation = \"in-process\"\n[limits]\ntimeout_seconds = 0.5\n",
        )
        .unwrap(),
    )
    .unwrap();
    let s = rt.session();
    ok(run(&s, "n = 1"));
    let (kind, message) = err(run(&s, "n = 99\nwhile True:\n    pass"));
    assert_eq!(kind, "TimeoutError");
    assert!(message.contains("partially updated"), "{message}");
    assert_eq!(ok(run(&s, "return n + 1")), json!(100));
}

#[test]
fn unawaited_calls_are_caught_before_the_run() {
    let rt = Toolplane::new(Config::default()).unwrap();
    for runner in [true, false] {
        let s = rt.session();
        let exec = |code: &str| {
            if runner {
                run(&s, code)
            } else {
                rt.execute(code, None).unwrap()
            }
        };
        let (kind, message) = err(exec("x = 1\nsave_result(x)\nreturn 2"));
        assert_eq!(kind, "UnawaitedToolCallError");
        assert!(
            message.contains("'save_result' on line 2") && message.contains("add `await`"),
            "{message}"
        );
        let (_, message) = err(exec("s = f'{load_result(1)}'"));
        assert!(message.contains("f-string"), "{message}");
        assert_eq!(
            ok(exec("p = save_result(1)\nreturn (await p)[:4]")),
            json!("res_"),
            "deferred awaits are fine"
        );
    }
}

/// A session's code is `<session>` in its tracebacks, with its source lines.
#[test]
fn session_tracebacks_name_the_session() {
    let runtime = toolplane::Toolplane::new(toolplane::Config::default()).unwrap();
    let session = runtime.session();
    let r = session
        .execute("def f(d):\n    return d['k']\n", None)
        .unwrap();
    assert!(r.ok());
    let r = session.execute("x = 1\nf({})", None).unwrap();
    let error = r.error.unwrap();
    assert_eq!(
        error.traceback,
        "Traceback (most recent call last):\n  File \"<session>\", line 2, in <module>\n    f({})\n  \
         File \"<session>\", line 2, in f\nKeyError: 'k'"
    );
}
