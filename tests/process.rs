//! Process isolation: forked workers from a zygote. Freshness, the hostile battery (each case ends with
//! a clean Python error, the host alive and an earlier handle still loadable), crash reporting and
//! session rollback. Linux only.
#![cfg(target_os = "linux")]

mod common;

use common::{err, ok};
use serde_json::json;
use toolplane::{Config, Isolation, Toolplane};

fn config(timeout: f64, memory_mb: usize) -> Config {
    let mut config = Config::default();
    config.toolplane.isolation = Some(Isolation::Process);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config.limits.timeout_seconds = timeout;
    config.limits.max_memory_mb = memory_mb;
    config.limits.session_max_memory_mb = memory_mb;
    config
}

fn runtime() -> Toolplane {
    Toolplane::new(config(2.0, 256)).unwrap()
}

fn saved_handle(rt: &Toolplane) -> String {
    let value = ok(rt
        .execute("return await save_result({'kept': True})", None)
        .unwrap());
    value.as_str().unwrap().to_string()
}

fn assert_still_loads(rt: &Toolplane, handle: &str) {
    let code = format!("return await load_result({handle:?})");
    assert_eq!(ok(rt.execute(&code, None).unwrap()), json!({"kept": true}));
}

#[test]
fn runs_work_and_share_the_stores() {
    let rt = runtime();
    assert_eq!(rt.isolation(), Isolation::Process);
    let result = rt
        .execute(
            "print('hi')\nimport sys\nsys.stderr.write('e')\nh = await save_artifact(b'abc', filename='a.txt')\nreturn h",
            None,
        )
        .unwrap();
    assert_eq!(result.stdout, "hi\n");
    assert_eq!(result.stderr, "e");
    assert_eq!(result.backend, "rustpython");
    assert_eq!(result.artifacts.len(), 1);
    assert_eq!(result.artifacts[0].filename, "a.txt");
    let artifact = ok(result);
    let handle = saved_handle(&rt);
    assert_still_loads(&rt, &handle);
    let code = format!(
        "return (await load_artifact({:?})).decode()",
        artifact.as_str().unwrap()
    );
    assert_eq!(ok(rt.execute(&code, None).unwrap()), json!("abc"));
    let (kind, message) = err(rt.execute("1/0", None).unwrap());
    assert_eq!(kind, "ZeroDivisionError");
    assert!(message.contains("division by zero"));
    let (kind, message) = err(rt.execute("await call_tool('no/such')", None).unwrap());
    assert_eq!(kind, "LookupError");
    assert!(message.starts_with("Unknown capability: no/such"));
}

#[test]
fn every_run_starts_fresh() {
    let rt = runtime();
    let tamper = "import json, sys, builtins\njson.dumps = lambda *a: 'PWNED'\nbuiltins.len = lambda x: -1\nsys.marker = 42\nsecret = 1\nreturn 0";
    ok(rt.execute(tamper, None).unwrap());
    let check = "import json, sys\nreturn [json.dumps([1, 2]), getattr(sys, 'marker', None), len('abc'), 'secret' in globals()]";
    for _ in 0..3 {
        assert_eq!(
            ok(rt.execute(check, None).unwrap()),
            json!(["[1, 2]", null, 3, false])
        );
    }
}

#[test]
fn random_numbers_differ_between_children() {
    let rt = runtime();
    // `random` is imported in the zygote (by `statistics`): each child must reseed its copy.
    let draw =
        "import random, uuid\nreturn [random.random(), random.getrandbits(64), str(uuid.uuid4())]";
    let draws: Vec<serde_json::Value> = (0..10)
        .map(|_| ok(rt.execute(draw, None).unwrap()))
        .collect();
    for (i, what) in ["random.random()", "random.getrandbits(64)", "uuid.uuid4()"]
        .iter()
        .enumerate()
    {
        let distinct: std::collections::HashSet<String> =
            draws.iter().map(|d| d[i].to_string()).collect();
        assert_eq!(
            distinct.len(),
            10,
            "children drew the same {what}: {draws:?}"
        );
    }
}

/// Runs from several threads at once drain the pool faster than it refills: each still gets a child
/// of its own (nothing left by another run, its own random draw) and its own answer.
#[test]
fn concurrent_fresh_runs_each_get_a_fresh_child() {
    let rt = runtime();
    let draws = std::sync::Mutex::new(std::collections::HashSet::new());
    std::thread::scope(|scope| {
        for thread in 0..4 {
            let (rt, draws) = (&rt, &draws);
            scope.spawn(move || {
                for run in 0..25 {
                    let code = format!(
                        "assert 'leftover' not in globals()\nleftover = 1\nimport random\n\
                         return [{thread}, {run}, random.random()]"
                    );
                    let value = ok(rt.execute(&code, None).unwrap());
                    assert_eq!(
                        (value[0].clone(), value[1].clone()),
                        (json!(thread), json!(run))
                    );
                    draws.lock().unwrap().insert(value[2].to_string());
                }
            });
        }
    });
    assert_eq!(draws.lock().unwrap().len(), 100, "a child served two runs");
}

#[test]
fn hostile_battery_ends_cleanly_and_the_host_carries_on() {
    let rt = Toolplane::new(config(2.0, 128)).unwrap();
    let handle = saved_handle(&rt);
    let cases: &[(&str, &[&str])] = &[
        ("x = [0] * 10**10", &["MemoryError"]),
        (
            "d = {}\ni = 0\nwhile True:\n    d[i] = [i]\n    i += 1",
            &["MemoryError"],
        ),
        ("x = 'a' * 10**10", &["MemoryError"]),
        ("x = bytearray(10**10)", &["MemoryError"]),
        // Native bigint work: killed at the deadline, or stopped at the memory cap first.
        ("x = 10**(10**8)", &["TimeoutError", "MemoryError"]),
        (
            "import re\nre.match(r'(a+)+$', 'a' * 40 + 'b')",
            &["TimeoutError"],
        ),
        ("import time\ntime.sleep(100)", &["TimeoutError"]),
        // Deep nesting in repr: a RecursionError, or (with the worker's deep stack) a result. Deep
        // enough to stress repr, shallow enough to finish well inside the 2 s limit on a busy machine.
        (
            "x = []\nfor i in range(100000):\n    x = [x]\nr = repr(x)\nraise RecursionError('completed') if len(r) > 1 else None",
            &["RecursionError"],
        ),
        (
            "while True:\n    try:\n        while True: pass\n    except BaseException: pass",
            &["TimeoutError"],
        ),
        ("def f(): return f()\nf()", &["RecursionError"]),
        (
            "import marshal\nmarshal.loads(b'\\xff' * 64)",
            &[
                "ModuleNotFoundError",
                "ValueError",
                "PermissionError",
                "EOFError",
                "TypeError",
            ],
        ),
    ];
    for (code, expected) in cases {
        let (kind, message) = err(rt.execute(code, None).unwrap());
        assert!(
            expected.contains(&kind.as_str()),
            "{code:?}: got {kind}: {message}"
        );
        assert_still_loads(&rt, &handle);
    }
    assert_eq!(ok(rt.execute("return 1 + 1", None).unwrap()), json!(2));
}

#[test]
fn session_keeps_state_and_rolls_back_at_a_limit() {
    let rt = Toolplane::new(config(1.0, 256)).unwrap();
    let session = rt.session();
    ok(session.execute("n = 1", None).unwrap());
    // A soft timeout (the VM's own interrupt): the holder is replaced by the standby.
    let (kind, message) = err(session
        .execute(
            "n = 99\nh = await save_result('from the timed-out run')\nwhile True:\n    pass",
            None,
        )
        .unwrap());
    assert_eq!(kind, "TimeoutError");
    assert!(message.contains("rolled back"), "{message}");
    assert!(!message.contains("partially updated"), "{message}");
    assert_eq!(ok(session.execute("return n", None).unwrap()), json!(1));
    assert_eq!(
        ok(session.execute("'h' in globals()", None).unwrap()),
        json!(false)
    );
    // The handle saved before the limit stands.
    let handles = rt.results().list();
    assert_eq!(handles.len(), 1);
    let code = format!("return await load_result({:?})", handles[0].handle);
    assert_eq!(
        ok(session.execute(&code, None).unwrap()),
        json!("from the timed-out run")
    );
    // A native operation the interrupt cannot reach: the host kills the holder.
    let (kind, message) = err(session.execute("n = 5\nx = 10**(10**8)", None).unwrap());
    assert_eq!(kind, "TimeoutError");
    assert!(message.contains("rolled back"), "{message}");
    assert_eq!(
        ok(session.execute("n += 1\nreturn n", None).unwrap()),
        json!(2)
    );
    // A failed run keeps what ran before the error (no rollback for a snippet's own errors).
    let (kind, _) = err(session.execute("n = 10\n1/0", None).unwrap());
    assert_eq!(kind, "ZeroDivisionError");
    assert_eq!(ok(session.execute("return n", None).unwrap()), json!(10));
}

/// Garbage whose `__del__` never returns, left in a session: the collection that meets it ends a run at
/// the time limit, and the rollback brings the garbage back. The promoted standby collects it under a
/// limit of its own, so one run times out and the session then works again (it used to time out forever).
#[test]
fn a_session_recovers_from_garbage_whose_del_never_returns() {
    let rt = Toolplane::new(config(1.0, 256)).unwrap();
    let session = rt.session();
    let stuck = "class Stuck:\n    def __del__(self):\n        while True:\n            try:\n                pass\n            except BaseException:\n                pass\nfor _ in range(3):\n    x = Stuck()\n    x.me = x\ndel x\nkept = 7";
    ok(session.execute(stuck, None).unwrap());
    // Enough allocation to set off a collection.
    let churn = "junk = [[] for _ in range(100000)]\nreturn kept";
    let outcomes: Vec<_> = (0..4)
        .map(|_| session.execute(churn, None).unwrap())
        .collect();
    let timeouts = outcomes.iter().filter(|r| r.error.is_some()).count();
    assert!(timeouts <= 1, "{timeouts} of 4 runs failed: {outcomes:?}");
    for late in &outcomes[2..] {
        assert_eq!(late.error, None);
        assert_eq!(late.value_json(), json!(7));
    }
}

#[test]
fn session_reset_and_memory_cap() {
    let rt = Toolplane::new(config(5.0, 64)).unwrap();
    let session = rt.session();
    ok(session.execute("a = 1", None).unwrap());
    let message = ok(session
        .execute("return await reset_session()", None)
        .unwrap());
    assert!(message.as_str().unwrap().contains("cleared"), "{message}");
    assert_eq!(
        ok(session.execute("'a' in globals()", None).unwrap()),
        json!(false)
    );
    // The cap is cumulative: two runs that each stay under it, together over it.
    ok(session.execute("big1 = 'x' * (40 * 2**20)", None).unwrap());
    let (kind, message) = err(session.execute("big2 = 'y' * (40 * 2**20)", None).unwrap());
    assert_eq!(kind, "MemoryError", "{message}");
    assert!(message.contains("[session] max_memory_mb"), "{message}");
    // Rolled back: big1 is still there, big2 is not; freeing makes room again.
    assert_eq!(
        ok(session
            .execute("['big1' in globals(), 'big2' in globals()]", None)
            .unwrap()),
        json!([true, false])
    );
    ok(session.execute("del big1", None).unwrap());
    ok(session
        .execute("big2 = 'y' * (40 * 2**20)\nreturn len(big2)", None)
        .unwrap());
}

#[test]
fn sessions_never_share_a_process() {
    let rt = runtime();
    let a = rt.session();
    let b = rt.session();
    ok(a.execute("who = 'a'", None).unwrap());
    ok(b.execute("who = 'b'", None).unwrap());
    assert_eq!(ok(a.execute("return who", None).unwrap()), json!("a"));
    assert_eq!(ok(b.execute("return who", None).unwrap()), json!("b"));
}

#[test]
fn process_isolation_is_the_default_and_needs_its_worker() {
    // The library's default engine is the jailed one (docs/sandbox.md).
    let rt = Toolplane::new(Config::default()).unwrap();
    assert_eq!(rt.isolation(), Isolation::Process);
    assert_eq!(ok(rt.execute("return 1 + 1", None).unwrap()), json!(2));
    let mut cfg = Config::default();
    cfg.toolplane.worker_path = Some("/nonexistent/toolplane".into());
    assert!(matches!(
        Toolplane::new(cfg),
        Err(toolplane::Error::NoWorker(_))
    ));
    // In process only when asked for.
    let mut cfg = Config::default();
    cfg.toolplane.isolation = Some(Isolation::InProcess);
    cfg.toolplane.worker_path = Some("/nonexistent/toolplane".into());
    assert_eq!(
        Toolplane::new(cfg).unwrap().isolation(),
        Isolation::InProcess
    );
}

#[test]
fn a_missing_worker_is_a_clear_error() {
    // When the runtime is built, not at its first run.
    let mut cfg = config(2.0, 128);
    cfg.toolplane.worker_path = Some("/nonexistent/toolplane".into());
    let Err(toolplane::Error::NoWorker(message)) = Toolplane::new(cfg) else {
        panic!("a runtime was built without its worker");
    };
    assert!(message.contains("/nonexistent/toolplane"), "{message}");
    assert!(message.contains("worker_main_if_requested"), "{message}");
    let mut cfg = config(2.0, 128);
    cfg.toolplane.worker_path = Some("/bin/true".into());
    let rt = Toolplane::new(cfg).unwrap();
    let (kind, message) = err(rt.execute("return 1", None).unwrap());
    assert_eq!(kind, "SandboxError");
    assert!(
        message.contains("did not start as a toolplane worker"),
        "{message}"
    );
}
