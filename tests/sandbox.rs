//! End-to-end snippets through `Toolplane::execute`: semantics, externals, stores, sandbox, limits.

mod common;

use std::sync::Arc;

use serde_json::{Value, json};
use toolplane::{Capability, Config, ExecutionResult, HostError, Registry, Toolplane};

// In-process memory limits need the counting allocator, as the binary installs it.
#[global_allocator]
static ALLOC: toolplane::CountingAllocator = toolplane::CountingAllocator;

fn run(runtime: &Toolplane, code: &str) -> ExecutionResult {
    runtime.execute(code, None).expect("no namespace collision")
}

fn run_with(runtime: &Toolplane, code: &str, inputs: Value) -> ExecutionResult {
    runtime
        .execute(code, inputs.as_object().cloned())
        .expect("no namespace collision")
}

fn value(result: &ExecutionResult) -> Value {
    assert!(
        result.error.is_none(),
        "unexpected error: {:?}",
        result.error
    );
    result.value_json()
}

fn error(result: &ExecutionResult) -> (&str, &str) {
    let e = result
        .error
        .as_ref()
        .unwrap_or_else(|| panic!("expected an error, got value {}", result.value));
    (e.error_type.as_str(), e.message.as_str())
}

/// `code`'s value is `expected` in a fresh run and in a new session of `rt`.
fn assert_value_fresh_and_in_session(
    rt: &Toolplane,
    code: &str,
    expected: &Value,
    isolation: toolplane::Isolation,
) {
    assert_eq!(&value(&run(rt, code)), expected, "{isolation:?}");
    let in_session = rt.session().execute(code, None).unwrap();
    assert_eq!(&value(&in_session), expected, "{isolation:?} session");
}

/// `code` run fresh in `rt` ends in a `kind` error whose message contains `part`.
fn assert_fresh_error(
    rt: &Toolplane,
    code: &str,
    kind: &str,
    part: &str,
    isolation: toolplane::Isolation,
) {
    let result = run(rt, code);
    let (found, message) = error(&result);
    assert_eq!(found, kind, "{isolation:?}: {message}");
    assert!(message.contains(part), "{isolation:?}: {message}");
}

fn config(toml: &str) -> Config {
    Config::from_toml_str(toml).unwrap()
}

#[test]
fn return_stdout_and_backend() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(&rt, "print('a')\nprint('b', 2)\nreturn 40 + 2");
    assert_eq!(value(&r), json!(42));
    assert_eq!(r.stdout, "a\nb 2\n");
    assert_eq!(r.backend, "rustpython");
    assert!(r.duration_ms > 0.0);
    assert_eq!(value(&run(&rt, "x = 1")), Value::Null);
    assert_eq!(value(&run(&rt, "")), Value::Null);
}

#[test]
fn stderr_is_captured_separately() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(
        &rt,
        "import sys\nsys.stderr.write('warn\\n')\nprint('x', file=sys.stderr)\nprint('out')",
    );
    assert_eq!(
        (r.stdout.as_str(), r.stderr.as_str()),
        ("out\n", "warn\nx\n")
    );
}

#[test]
fn inputs_become_globals_and_shadow_store_sugar() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run_with(
        &rt,
        "return [rows[1]['id'], flag, none, n * 2]",
        json!({"rows": [{"id": 1}, {"id": 2}], "flag": true, "none": null, "n": 21}),
    );
    assert_eq!(value(&r), json!([2, true, null, 42]));
    assert_eq!(
        value(&run_with(
            &rt,
            "return save_result",
            json!({"save_result": 5})
        )),
        json!(5)
    );
}

#[test]
fn inputs_may_not_take_call_tool_or_capability_aliases() {
    let registry = Arc::new(Registry::new());
    registry
        .register(Capability::new("orders/get", Ok))
        .unwrap();
    let rt = Toolplane::with_registry(Config::default(), registry).unwrap();
    let e = rt
        .execute(
            "return 1",
            json!({"orders_get": 1, "call_tool": 2})
                .as_object()
                .cloned(),
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "NamespaceCollisionError: Input names collide with Toolplane namespace bindings: call_tool, orders_get"
    );
}

#[test]
fn tracebacks_keep_snippet_line_numbers() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(&rt, "x = '''a\nb'''\ndef f():\n    return 1 / 0\n\nf()");
    let (kind, message) = error(&r);
    assert_eq!((kind, message), ("ZeroDivisionError", "division by zero"));
    let tb = &r.error.as_ref().unwrap().traceback;
    assert!(
        tb.contains("<snippet>\", line 6, in <module>\n    f()\n"),
        "{tb}"
    );
    assert!(
        tb.contains("<snippet>\", line 4, in f\n    return 1 / 0\n"),
        "{tb}"
    );
    // Multi-line strings keep their content (no textual re-indentation).
    assert_eq!(
        value(&run(&rt, "s = '''line1\nline2'''\nreturn s")),
        json!("line1\nline2")
    );
}

#[test]
fn syntax_errors_are_structured() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(&rt, "x = 1\ndef f(:\n  pass");
    let (kind, _) = error(&r);
    assert_eq!(kind, "SyntaxError");
    assert!(
        r.error.as_ref().unwrap().traceback.contains("line 2"),
        "{:?}",
        r.error
    );
}

#[test]
fn uncaught_errors_keep_output_printed_before() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(&rt, "print('before')\nraise ValueError('boom')");
    assert_eq!(error(&r), ("ValueError", "boom"));
    assert_eq!(r.stdout, "before\n");
}

#[test]
fn python_features_work() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let code = "import dataclasses, json, re, datetime, collections, random, asyncio\n\
                @dataclasses.dataclass\nclass P:\n    v: int\n\
                def g(n):\n    for i in range(n):\n        yield i\n\
                async def twice(x):\n    return 2 * x\n\
                c = collections.Counter('aab')\n\
                both = await asyncio.gather(twice(1), twice(2))\n\
                return [P(1).v, list(g(3)), c['a'], both, json.loads('[1]'), bool(re.match('a+', 'aa')), 0 <= random.random() < 1]";
    assert_eq!(
        value(&run(&rt, code)),
        json!([1, [0, 1, 2], 2, [2, 4], [1], true, true])
    );
}

#[test]
fn results_survive_across_runs_of_one_runtime() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let first = run(
        &rt,
        "rows = [{'id': i} for i in range(50)]\nh = await save_result(rows, label='rows')\nreturn {'count': len(rows), 'handle': h}",
    );
    let handle = value(&first)["handle"].as_str().unwrap().to_string();
    assert!(!first.stdout.contains("'id'"));
    let second = run_with(
        &rt,
        "rows = await load_result(h)\nreturn sum(r['id'] for r in rows)",
        json!({"h": handle}),
    );
    assert_eq!(value(&second), json!(1225));
    assert_eq!(
        &*rt.result_payload(&handle).unwrap(),
        &*format!(
            "[{}]",
            (0..50)
                .map(|i| format!("{{\"id\": {i}}}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    );
}

#[test]
fn canonical_json_rules_at_save() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let code = "import datetime\nh = await save_result({1: 'a', None: 'n', 2.5: 'f', False: 'b', 't': (1, 2), \
                'big': 10**30, 'd': datetime.date(2024, 1, 2), 'dt': datetime.datetime(2024, 1, 2, 3, 4, 5), 'u': 'é'})\nreturn h";
    let h = value(&run(&rt, code)).as_str().unwrap().to_string();
    assert_eq!(
        &*rt.result_payload(&h).unwrap(),
        r#"{"1": "a", "null": "n", "2.5": "f", "false": "b", "t": [1, 2], "big": 1000000000000000000000000000000, "d": "2024-01-02", "dt": "2024-01-02T03:04:05", "u": "\u00e9"}"#
    );
    // Big ints come back exact inside the sandbox.
    let back = run_with(
        &rt,
        "v = await load_result(h)\nreturn v['big'] == 10**30",
        json!({"h": h}),
    );
    assert_eq!(value(&back), json!(true));
}

#[test]
fn non_json_values_are_value_errors_naming_the_type() {
    let rt = Toolplane::new(Config::default()).unwrap();
    for (code, needles) in [
        (
            "await save_result({'v': float('nan')})",
            vec![
                "value of type 'dict' is not JSON-serializable",
                "save_artifact",
            ],
        ),
        (
            "await save_result([float('inf')])",
            vec!["not JSON-serializable"],
        ),
        (
            "await save_result(b'raw')",
            vec!["'bytes'", "save_artifact"],
        ),
        ("await save_result({1, 2})", vec!["'set'"]),
        (
            "await save_result(object())",
            vec!["'object'", "not JSON-serializable"],
        ),
        ("await save_result({(1, 2): 3})", vec!["keys must be str"]),
        (
            "x = []\nx.append(x)\nawait save_result(x)",
            vec!["Circular reference"],
        ),
        (
            "x = []\nfor _ in range(2000):\n    x = [x]\nawait save_result(x)",
            vec!["nesting deeper than"],
        ),
        (
            "await save_result([1], label=3)",
            vec!["result label must be a string, got 'int'"],
        ),
    ] {
        let r = run(&rt, code);
        let (kind, message) = error(&r);
        assert_eq!(kind, "ValueError", "{code}");
        for needle in needles {
            assert!(message.contains(needle), "{code}: {message}");
        }
    }
}

#[test]
fn store_errors_are_catchable_as_value_error() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(
        &rt,
        "try:\n    await load_result('res_doesnotexist')\nexcept ValueError as e:\n    return str(e)",
    );
    assert_eq!(
        value(&r),
        json!("unknown or expired result handle: 'res_doesnotexist'")
    );
}

#[test]
fn store_caps_from_config_are_loud() {
    let rt = Toolplane::new(config("[results]\nmax_entries = 1\n")).unwrap();
    let r = run(&rt, "await save_result(1)\nawait save_result(2)");
    assert!(error(&r).1.contains("full (1 entries)"));
    let rt = Toolplane::new(config("[results]\nmax_entry_bytes = 8\n")).unwrap();
    assert!(
        error(&run(&rt, "await save_result('x' * 100)"))
            .1
            .contains("smaller projection")
    );
    let rt = Toolplane::new(config(
        "[results]\nenabled = false\n[artifacts]\nenabled = false\n",
    ))
    .unwrap();
    let r = run(
        &rt,
        "out = []\nfor f in (lambda: save_result(1), lambda: load_result('res_x'), lambda: save_artifact(b'x'), lambda: load_artifact('art_x')):\n    try:\n        await f()\n    except ValueError as e:\n        out.append(str(e))\nreturn out",
    );
    assert_eq!(
        value(&r),
        json!([
            "results store is disabled",
            "results store is disabled",
            "artifact store is disabled",
            "artifact store is disabled"
        ])
    );
}

#[test]
fn call_tool_reaches_store_capabilities_without_sugar() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(
        &rt,
        "h = await call_tool('toolplane:results/save', {'value': {'a': 1}, 'label': None})\nreturn await call_tool('toolplane:results/load', {'handle': h})",
    );
    assert_eq!(value(&r), json!({"a": 1}));
    let r = run(
        &rt,
        "h = await call_tool('toolplane:artifacts/save', {'data_b64': 'AAE='})\nr = await call_tool('toolplane:artifacts/load', {'handle': h})\nreturn [r['data_b64'], r['size_bytes'], r['filename']]",
    );
    assert_eq!(value(&r), json!(["AAE=", 2, "artifact.bin"]));
}

#[test]
fn unknown_capability_is_lookup_error() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(
        &rt,
        "try:\n    await call_tool('mcp:nope/tool', {})\nexcept LookupError as e:\n    return str(e)",
    );
    assert!(
        value(&r)
            .as_str()
            .unwrap()
            .starts_with("Unknown capability: mcp:nope/tool")
    );
}

#[test]
fn artifacts_round_trip_and_are_listed_in_the_result() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(
        &rt,
        "a = await save_artifact(bytes([0, 1, 2, 255]) * 10, filename='r.bin', label='L')\nb = await load_artifact(a)\nreturn [a, len(b), b[:4] == bytes([0, 1, 2, 255])]",
    );
    let v = value(&r);
    let handle = v[0].as_str().unwrap();
    assert_eq!((&v[1], &v[2]), (&json!(40), &json!(true)));
    assert_eq!(r.artifacts.len(), 1);
    let art = &r.artifacts[0];
    assert_eq!(
        (
            art.handle.as_str(),
            art.filename.as_str(),
            art.size_bytes,
            art.label.as_deref()
        ),
        (handle, "r.bin", 40, Some("L"))
    );
    assert_eq!(art.uri, format!("toolplane://artifacts/{handle}"));
    assert_eq!(rt.artifact(handle).unwrap().1, [0u8, 1, 2, 255].repeat(10));
    assert!(
        run(&rt, "return 1").artifacts.is_empty(),
        "only this run's artifacts are listed"
    );
    let r = run(&rt, "await save_artifact({'a': 1})");
    assert_eq!(error(&r).0, "ValueError");
    assert!(
        error(&r)
            .1
            .contains("belong in the result store (save_result)")
    );
    assert!(
        error(&run(
            &rt,
            "await save_artifact(b'x', filename='../escape.bin')"
        ))
        .1
        .contains("filename")
    );
}

#[test]
fn the_artifact_directory_goes_with_the_runtime() {
    let rt = Toolplane::new(Config::default()).unwrap();
    value(&run(&rt, "await save_artifact(b'x')"));
    let root = rt.artifacts().root_dir().unwrap();
    assert!(root.is_dir());
    drop(rt);
    assert!(!root.exists());
}

#[test]
fn runs_are_fresh() {
    let rt = Toolplane::new(Config::default()).unwrap();
    value(&run(
        &rt,
        "import json, builtins, sys\njson.dumps = lambda *a, **k: 'PWNED'\nbuiltins.len = lambda x: -1\nsys.marker = 42\nx = 41",
    ));
    let r = run(
        &rt,
        "import json, sys\nreturn [json.dumps([1]), len([1, 2]), hasattr(sys, 'marker')]",
    );
    assert_eq!(value(&r), json!(["[1]", 2, false]));
    assert_eq!(error(&run(&rt, "return x")).0, "NameError");
}

#[test]
fn shared_registry_does_not_share_stores() {
    let registry = Arc::new(Registry::new());
    let a = Toolplane::with_registry(Config::default(), registry.clone()).unwrap();
    let b =
        Toolplane::with_registry(config("[results]\nenabled = false\n"), registry.clone()).unwrap();
    let c = Toolplane::with_registry(Config::default(), registry).unwrap();
    let h = value(&run(&a, "return await save_result([1])"))
        .as_str()
        .unwrap()
        .to_string();
    let r = run_with(&c, "return await load_result(h)", json!({"h": h}));
    assert!(error(&r).1.starts_with("unknown or expired result handle"));
    assert!(
        error(&run(&b, "await save_result(1)"))
            .1
            .contains("results store is disabled")
    );
}

#[test]
fn host_capabilities_are_keyword_only_and_errors_keep_their_builtin() {
    let registry = Arc::new(Registry::new());
    registry
        .register(
            Capability::new("orders/get", |p| Ok(json!({"id": p["id"], "total": 10})))
                .description("Fetch one order"),
        )
        .unwrap();
    registry
        .register(Capability::new("orders/deny", |_| {
            Err(HostError::permission("not yours"))
        }))
        .unwrap();
    registry
        .register(Capability::new("orders/boom", |_| panic!("tool exploded")))
        .unwrap();
    let rt = Toolplane::with_registry(Config::default(), registry).unwrap();
    assert_eq!(
        value(&run(&rt, "return await orders_get(id=3)")),
        json!({"id": 3, "total": 10})
    );
    assert_eq!(
        value(&run(&rt, "return await call_tool('orders/get', {'id': 4})")),
        json!({"id": 4, "total": 10})
    );
    let positional = run(&rt, "await orders_get(3)");
    let (kind, message) = error(&positional);
    assert_eq!(kind, "TypeError");
    assert!(
        message.contains("keyword arguments only")
            && message.contains("call it as await orders_get(param=value)"),
        "{message}"
    );
    assert_eq!(
        value(&run(
            &rt,
            "try:\n    await orders_deny()\nexcept PermissionError as e:\n    return str(e)"
        )),
        json!("not yours")
    );
    let boom = run(&rt, "await orders_boom()");
    let (kind, message) = error(&boom);
    assert_eq!(kind, "RuntimeError");
    assert!(message.contains("tool exploded"), "{message}");
    assert!(
        value(&run(&rt, "return 1")) == json!(1),
        "the host survived the panicking tool"
    );
}

#[test]
fn the_sandbox_has_no_host_access() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(
        &rt,
        "try:\n    open('/etc/passwd').read()\nexcept PermissionError as e:\n    return 'denied'",
    );
    assert_eq!(value(&r), json!("denied"));
    let r = run(
        &rt,
        "import os\nreturn [os.environ.get('HOME'), os.getenv('PATH'), os.path.join('a', 'b'), os.path.exists('/etc/passwd')]",
    );
    assert_eq!(value(&r), json!([null, null, "a/b", false]));
    for module in [
        "socket",
        "subprocess",
        "ctypes",
        "posix",
        "_thread",
        "_interpreters",
        "select",
        "gc",
    ] {
        let r = run(&rt, &format!("import {module}"));
        let refused = r.error.as_ref().map(|e| e.error_type.as_str());
        assert_eq!(refused, Some("ModuleNotFoundError"), "{module}");
    }
    let r = run(
        &rt,
        "import os\ntry:\n    os.listdir('/')\nexcept PermissionError as e:\n    return str(e)",
    );
    assert!(
        value(&r)
            .as_str()
            .unwrap()
            .contains("not available in the toolplane sandbox")
    );
    let r = run(
        &rt,
        "import sys, inspect\nm = sys.modules['marshal']\ntry:\n    m.loads(b'\\xe3')\nexcept PermissionError:\n    return 'refused'",
    );
    assert_eq!(value(&r), json!("refused"));
}

#[test]
fn time_limit_ends_even_catch_all_loops() {
    let rt = Toolplane::new(config("[limits]\ntimeout_seconds = 0.5\n")).unwrap();
    let r = run(
        &rt,
        "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass",
    );
    let (kind, message) = error(&r);
    assert_eq!(kind, "TimeoutError");
    assert!(
        message.starts_with("execution timed out after 0.5s"),
        "{message}"
    );
    assert!(
        r.duration_ms < 10_000.0,
        "generous bound: {}",
        r.duration_ms
    );
    let r = run(&rt, "import time\ntime.sleep(100)");
    assert_eq!(error(&r).0, "TimeoutError");
    assert!(r.duration_ms < 10_000.0);
    assert_eq!(value(&run(&rt, "return 'alive'")), json!("alive"));
}

/// The VM polls for the time limit's interrupt where CPython polls its eval breaker: on backward
/// jumps and at `RESUME` (a frame's entry, a generator's resumption), not before every instruction.
/// Every shape of endless run passes one of them: a plain loop, a loop that catches everything, a
/// generator driven by a `for`, a generator expression a builtin drains (`sum`, `list`, `str.join`
/// take its items at its `yield`, in its own frame, which polls at its loop), and a builtin that calls a
/// Python function forever with no backward jump in any Python frame, and builtins (`sum`, `max`,
/// `any`, `set`, `dict.update`, `deque`, `filter`, `islice`) draining an endless iterator written in
/// Rust, which run no Python frame at all: every item they take polls. Before, in process, those ran
/// on past the limit (`max` of an endless iterator aborted the host: it collected every item first).
/// A catastrophically backtracking regular expression runs in the regex engine, not in a frame: the
/// engine polls every few thousand steps, as CPython's does (before, in process, it ran for hours).
/// Each ends at the limit with a `TimeoutError`, in both engines, and the runtime answers the next run.
#[test]
fn the_time_limit_ends_endless_runs_of_every_shape() {
    let shapes = [
        ("loop", "while True:\n    pass"),
        (
            "catch-all loop",
            "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass",
        ),
        (
            "generator",
            "def gen():\n    while True:\n        yield 1\nfor _ in gen():\n    pass",
        ),
        ("generator expression", "sum(1 for _ in iter(int, 1))"),
        (
            "generator expression into a list",
            "list(0 for _ in iter(int, 1))",
        ),
        (
            "generator expression into a join",
            "''.join('' for _ in iter(int, 1))",
        ),
        (
            "builtin calling Python",
            "any(map(lambda x: False, iter(int, 1)))",
        ),
        (
            "sum of native ints",
            "import itertools\nsum(itertools.repeat(1))",
        ),
        (
            "sum of native floats",
            "import itertools\nsum(itertools.repeat(0.5))",
        ),
        (
            "sum of native complex numbers",
            "import itertools\nsum(itertools.repeat(1j), 0j)",
        ),
        (
            "max of a native count",
            "import itertools\nmax(itertools.count())",
        ),
        ("max of a callable iterator", "max(iter(int, 1))"),
        (
            "any of native falses",
            "import itertools\nany(itertools.repeat(False))",
        ),
        (
            "set of one native item",
            "import itertools\nset(itertools.repeat(1))",
        ),
        (
            "dict update from a native zip",
            "import itertools\n{}.update(zip(itertools.repeat(1), itertools.repeat(2)))",
        ),
        (
            "deque that keeps nothing",
            "import collections, itertools\ncollections.deque(itertools.count(), maxlen=0)",
        ),
        (
            "filter that never matches",
            "import itertools\nnext(filter(None, itertools.repeat(0)))",
        ),
        (
            "islice past a native count",
            "import itertools\nnext(itertools.islice(itertools.count(), 10**18, None))",
        ),
        (
            "catastrophic regex match",
            "import re\nre.match(r'(a+)+b', 'a' * 40)",
        ),
        (
            "catastrophic regex fullmatch",
            "import re\nre.fullmatch(r'(a*)*b', 'a' * 40)",
        ),
        (
            "catastrophic regex search",
            "import re\nre.search(r'(x+x+)+y', 'x' * 40)",
        ),
        (
            "catastrophic regex under sub",
            "import re\nre.sub(r'(a+)+b', '', 'a' * 40)",
        ),
        (
            "catastrophic regex under findall",
            "import re\nre.findall(r'(a+)+b', 'a' * 40)",
        ),
        (
            "catastrophic regex under split",
            "import re\nre.split(r'(a+)+b', 'a' * 40)",
        ),
        (
            "catastrophic regex from a scanner",
            "import re\nre.compile(r'(a+)+b').scanner('a' * 40).match()",
        ),
    ];
    each_ends_at_the_time_limit(&shapes);
}

/// Runs each `(name, code)` in both engines under a 0.3 s limit: each must end with a
/// `TimeoutError` (within a minute), and the runtime must answer a run afterwards.
fn each_ends_at_the_time_limit(shapes: &[(&'static str, &'static str)]) {
    for isolation in common::isolations() {
        let mut config = common::config_for(isolation);
        config.limits.timeout_seconds = 0.3;
        let rt = Arc::new(Toolplane::new(config).unwrap());
        for &(name, code) in shapes {
            let (tx, rx) = std::sync::mpsc::channel();
            let runtime = rt.clone();
            std::thread::spawn(move || {
                let _ = tx.send(run(&runtime, code));
            });
            let r = rx
                .recv_timeout(std::time::Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("{isolation:?}, {name}: the run never ended"));
            assert_eq!(error(&r).0, "TimeoutError", "{isolation:?}, {name}");
        }
        assert_eq!(
            value(&run(&rt, "return 'alive'")),
            json!("alive"),
            "{isolation:?}"
        );
    }
}

/// A `for` loop over an endless iterator written in Rust asks it for each element without the poll
/// `next()` makes (session 50): the loop's back edge polls instead, once an element, so a loop with
/// an empty body, one that only `continue`s, a comprehension and a loop over a dict's keys that never
/// ends all stop at the time limit with a `TimeoutError`, in both engines, and the runtime answers
/// the next run.
#[test]
fn the_time_limit_ends_for_loops_over_endless_native_iterators() {
    let shapes = [
        (
            "for over a native count",
            "import itertools
for _ in itertools.count():
    pass",
        ),
        (
            "for over iter(callable, sentinel)",
            "for _ in iter(int, 1):
    pass",
        ),
        (
            "for that only continues",
            "import itertools
for _ in itertools.repeat(1):
    continue",
        ),
        (
            "list comprehension over a native count",
            "import itertools
[0 for _ in itertools.count()]
return 1",
        ),
        (
            "for over a dict's keys, cycled",
            "import itertools
for _ in itertools.cycle({1: 2}):
    pass",
        ),
        (
            "for over a map of a native count",
            "import itertools
for _ in map(abs, itertools.count()):
    pass",
        ),
    ];
    each_ends_at_the_time_limit(&shapes);
}

#[test]
fn freeing_deep_and_reentrant_garbage_leaves_the_host_running() {
    // Containers freed while a `__del__` builds and frees containers of its own, and a nesting of
    // lists, dicts and tuples far deeper than the native stack could unwind one call a level: the
    // run ends with its value, in both engines, and the next run finds the runtime alive.
    let code = "freed = []\n\
class Noisy:\n    def __init__(self, n):\n        self.n = n\n    def __del__(self):\n        junk = [{'k': [i, (i, str(i))]} for i in range(4)]\n        freed.append(len(junk))\n\
holder = [{'obj': Noisy(i), 'list': [Noisy(i)], 't': (Noisy(i),)} for i in range(50)]\n\
holder = None\n\
nested = None\n\
for i in range(200000):\n    nested = [{'i': i, 'next': (nested,)}]\n\
nested = None\n\
return sum(freed)";
    for (isolation, rt) in common::runtimes() {
        assert_eq!(value(&run(&rt, code)), json!(600), "{isolation:?}");
        assert_eq!(
            value(&run(&rt, "return 'alive'")),
            json!("alive"),
            "{isolation:?}"
        );
    }
}

#[test]
fn recursion_is_a_python_error_never_a_crash() {
    // Direct recursion, recursion whose calls bind keywords, defaults, `*args` and `**kwargs` or go
    // through a bound-method object, and recursion through native code (a callback under `map` or
    // `sorted`, one binding a default), with the default limit and with a limit the stack could never hold.
    let recursions = [
        "def f(n):\n    return f(n + 1)\nf(0)",
        "def f(n):\n    return f(n + 1)\nlist(map(f, [0]))",
        "def f(*a):\n    return f(*a)\nf(1, 2)",
        "def f(n, step=1):\n    return f(n + step, step=step)\nf(0)",
        "def f(*a, **k):\n    return f(*a, **k)\nf(1, k=2)",
        "class C:\n    def m(self, n=0):\n        return g(n + 1)\ng = C().m\ng()",
        "def f(n):\n    return f(n + 1)\nsorted([1, 2], key=f)",
        "def f(n, d=1):\n    return sorted([n + d], key=f)\nf(0)",
    ];
    for (isolation, rt) in common::runtimes() {
        for code in recursions {
            for prelude in ["", "import sys\nsys.setrecursionlimit(10**6)\n"] {
                assert_eq!(
                    error(&run(&rt, &format!("{prelude}{code}"))).0,
                    "RecursionError",
                    "{isolation:?}: {prelude}{code}"
                );
            }
        }
        assert_eq!(
            value(&run(&rt, "return 'alive'")),
            json!("alive"),
            "{isolation:?}"
        );
    }
    let rt = Toolplane::new(Config::default()).unwrap();
    assert_eq!(
        error(&run(&rt, "x = eval('(' * 100000 + ')' * 100000)")).0,
        "SyntaxError"
    );
    let r = run(
        &rt,
        "a = []\nfor _ in range(100000):\n    a = [a]\nrepr(a)\nreturn 'done'",
    );
    assert!(
        r.error
            .as_ref()
            .is_none_or(|e| e.error_type == "RecursionError"),
        "{:?}",
        r.error
    );
}

#[test]
fn output_is_capped() {
    let rt = Toolplane::new(config("[limits]\nmax_output_bytes = 1000\n")).unwrap();
    let r = run(
        &rt,
        "print('kept')\nfor i in range(1000):\n    try:\n        print('x' * 100)\n    except MemoryError:\n        pass\nreturn 'swallowed'",
    );
    let (kind, message) = error(&r);
    assert_eq!(kind, "MemoryError");
    assert!(
        message.contains("output limit of 1000 bytes") && message.contains("print less"),
        "{message}"
    );
    assert!(r.stdout.starts_with("kept\n"));
    assert!(r.stdout.len() <= 1000);
}

#[test]
fn unawaited_calls_in_values_and_output_are_reported() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(&rt, "return save_result(1)");
    assert_eq!(error(&r).0, "UnawaitedToolCallError");
    assert!(error(&r).1.contains("await"));
    assert_eq!(
        error(&run(&rt, "print(load_result('x'))")).0,
        "UnawaitedToolCallError"
    );
    assert_eq!(
        value(&run(&rt, "p = save_result(1)\nh = await p\nreturn h[:4]")),
        json!("res_")
    );
}

/// Replies to calls a run never awaited (a megabyte each, more than a socket holds) reach a session
/// after the run ended; they must not be read as the start of the next run's messages.
#[test]
fn late_replies_do_not_disturb_the_next_run() {
    for (isolation, rt) in common::runtimes() {
        let session = rt.session();
        let saved = session
            .execute(
                "big = 'x' * (1 << 20)\nh = await save_result(big)\n\
                 pending = [load_result(h) for _ in range(4)]\nreturn len(pending)",
                None,
            )
            .unwrap();
        assert_eq!(saved.value.get(), "4", "{isolation:?}: {:?}", saved.error);
        for round in 0..3 {
            let next = session
                .execute("return len(await load_result(h)) + 1", None)
                .unwrap();
            assert_eq!(
                next.value.get(),
                (1 << 20 | 1).to_string(),
                "{isolation:?} round {round}: {:?}",
                next.error
            );
        }
    }
}

#[test]
fn return_values_must_be_json_shaped() {
    let rt = Toolplane::new(Config::default()).unwrap();
    assert_eq!(
        value(&run(&rt, "return (1, {'a': (2,)})")),
        json!([1, {"a": [2]}])
    );
    assert_eq!(value(&run(&rt, "return {3}")), json!([3]));
    let r = run(&rt, "return object()");
    assert_eq!(error(&r).0, "TypeError");
    assert!(error(&r).1.contains("'object'"));
}

#[test]
fn memory_limit_ends_the_run_and_the_host_and_stores_carry_on() {
    let rt = Toolplane::new(config("[limits]\nmax_memory_mb = 64\n")).unwrap();
    let saved = value(&run(&rt, "return await save_result([1, 2, 3])"))
        .as_str()
        .unwrap()
        .to_string();
    for code in [
        "x = [0] * (10 ** 9)",
        "x = 'a' * 10**10",
        "x = bytearray(10**10)",
        "a = []\nwhile True:\n    a.append('x' * 1000000)",
        "d = {}\ni = 0\nwhile True:\n    d[i] = [i]\n    i += 1",
        "a = []\nwhile True:\n    try:\n        a.append('x' * 1000000)\n    except MemoryError:\n        pass",
    ] {
        let r = run(&rt, code);
        let (kind, message) = error(&r);
        assert_eq!(kind, "MemoryError", "{code}");
        assert!(message.contains("max_memory_mb"), "{code}: {message}");
    }
    let back = run_with(&rt, "return await load_result(h)", json!({"h": saved}));
    assert_eq!(
        value(&back),
        json!([1, 2, 3]),
        "a handle saved before the limits still loads"
    );
    assert_eq!(value(&run(&rt, "return len([0] * 1000)")), json!(1000));
}

/// `json.dumps` / `json.loads` with default arguments take a native path; it must agree with the json
/// module's own encoder and decoder (forced here with an explicit `cls`) on every value, error included.
#[test]
fn json_fast_path_agrees_with_the_json_module() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let code = r#"
import json
from json import dumps as imported_dumps
cases = [None, True, 1, -0, 2**100, 1.5, -0.0, 1e300, "é\n\"\\", [1, [2, (3, 4)]],
         {"a": 1, 1: 2, 1.5: 3, True: 4, None: 5}, {"k": [{"x": "y"}] * 3}, float("nan"), {1, 2},
         [float("inf")], "a" + chr(0xd800), [[[[]]]], {"nested": {"deep": [None, False]}}]
out = []
for c in cases:
    for fast_dumps in (json.dumps, imported_dumps):
        try:
            fast = fast_dumps(c)
        except Exception as e:
            fast = type(e).__name__ + ": " + str(e)
        try:
            slow = json.dumps(c, cls=json.JSONEncoder)
        except Exception as e:
            slow = type(e).__name__ + ": " + str(e)
        if fast != slow:
            out.append(["dumps", repr(c), fast, slow])
texts = ['{"a": [1, 2.5, -0, 1e400, "\\u00e9", "\\ud800"]}', ' [1, 2] ', '1', '"x"', 'NaN',
         '[Infinity]', '{"a":1,"a":2}', '[1,]', '{"big": 123456789012345678901234567890}', '-0.0',
         '1E5', '"\\t\\n"', '', '{', b'[1]', '[{"a": 1, "b": "x"}, {"a": 2, "b": "y"}, {"b": 3, "a": 4}]',
         '[{"k\\u00e9": 1, "b": "x\\ny"}, {"k\\u00e9": 2, "b": "p\\"q"}, {"kй": "é\\u00e9"}]']
for t in texts:
    try:
        fast = repr(json.loads(t))
    except Exception as e:
        fast = type(e).__name__
    try:
        slow = repr(json.loads(t, cls=json.JSONDecoder))
    except Exception as e:
        slow = type(e).__name__
    if fast != slow:
        out.append(["loads", repr(t), fast, slow])
return [out, json._toolplane_fast]
"#;
    assert_eq!(value(&run(&rt, code)), json!([[], true]));
}

/// Interpreters end on the sandbox thread after the runtime (or session) is dropped. Nothing they print
/// then may reach the host's stderr: no run is capturing it. Checked in a child process (this test
/// binary, re-run on this test alone), whose whole stderr must stay empty.
#[test]
fn ending_interpreters_print_nothing_to_the_host() {
    const CHILD: &str = "TOOLPLANE_TEST_ENDING_CHILD";
    if std::env::var_os(CHILD).is_none() {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "ending_interpreters_print_nothing_to_the_host",
                "--test-threads=1",
                "--nocapture",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "child failed: {stdout}");
        assert!(
            stdout.contains("1 passed"),
            "the child ran no test: {stdout}"
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
        return;
    }
    let threads = || {
        std::fs::read_to_string("/proc/self/status")
            .unwrap()
            .lines()
            .find_map(|l| {
                l.strip_prefix("Threads:")
                    .map(|n| n.trim().parse::<usize>().unwrap())
            })
            .unwrap()
    };
    let before = threads();
    let mut config = Config::default();
    config.toolplane.isolation = Some(toolplane::Isolation::InProcess);
    // An object whose __del__ raises, left in the namespace: it goes when its interpreter ends.
    let noisy = "class Noisy:\n    def __del__(self):\n        raise ValueError('from __del__')\nkept = Noisy()\nreturn 1";
    {
        let rt = Toolplane::new(config).unwrap();
        assert_eq!(value(&run(&rt, noisy)), json!(1));
        assert_eq!(value(&run(&rt, "return 2")), json!(2));
        let session = rt.session();
        assert_eq!(value(&session.execute(noisy, None).unwrap()), json!(1));
    }
    // The sandbox threads end after finalizing their interpreters (the used one and the spare).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while threads() > before && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(threads(), before, "sandbox threads still running");
}

/// A snippet can leave a cycle whose `__del__` never returns: nothing frees it during the run, so the
/// interpreter's final collection (on the sandbox thread, after the reply, outside any run's limit)
/// would call it and never come back, and every later run would wait forever. Ending is held to a
/// limit of its own.
#[test]
fn a_del_that_never_returns_does_not_stall_later_runs() {
    let mut config = Config::default();
    config.toolplane.isolation = Some(toolplane::Isolation::InProcess);
    let rt = Arc::new(Toolplane::new(config).unwrap());
    let stuck = "class Stuck:\n    def __del__(self):\n        while True:\n            try:\n                pass\n            except BaseException:\n                pass\ns = Stuck()\ns.me = s\ndel s\nreturn 1";
    assert_eq!(value(&run(&rt, stuck)), json!(1));
    let (tx, rx) = std::sync::mpsc::channel();
    let runtime = rt.clone();
    std::thread::spawn(move || {
        let _ = tx.send(run(&runtime, "return 2").value_json());
    });
    let next = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the run after it never came back");
    assert_eq!(next, json!(2));
}

/// A snippet that replaces the prelude's sink stream (which an ending interpreter used to build, with no
/// limit armed) or leaves a stream whose `__del__` never returns: the interpreter still ends within its
/// ending limit and the next run comes back. Both engines; a session run that resets itself too.
#[test]
fn replaced_streams_do_not_stall_an_ending_interpreter() {
    let replaced = "import sys\nclass Loop:\n    def __init__(self):\n        while True:\n            try:\n                pass\n            except BaseException:\n                pass\nsys.modules['_toolplane'].DiscardStream = Loop\nreturn 1";
    let stuck_stream = "import sys\nclass Stream:\n    def write(self, s):\n        return len(s)\n    def __del__(self):\n        while True:\n            try:\n                pass\n            except BaseException:\n                pass\nsys.stdout = Stream()\nreturn 1";
    for isolation in common::isolations() {
        let config = common::config_for(isolation);
        let rt = Arc::new(Toolplane::new(config).unwrap());
        for (name, code) in [("replaced sink", replaced), ("stuck stream", stuck_stream)] {
            let (tx, rx) = std::sync::mpsc::channel();
            let runtime = rt.clone();
            let code = code.to_string();
            std::thread::spawn(move || {
                let first = run(&runtime, &code).value_json();
                let session = runtime.session();
                let reset = session
                    .execute(&format!("await reset_session()\n{code}"), None)
                    .unwrap()
                    .value_json();
                let _ = tx.send((first, reset, run(&runtime, "return 2").value_json()));
            });
            let (first, reset, next) = rx
                .recv_timeout(std::time::Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("{isolation:?}, {name}: a run never came back"));
            assert_eq!(
                (first, reset, next),
                (json!(1), json!(1), json!(2)),
                "{isolation:?}, {name}"
            );
        }
    }
}

/// A relative import is checked by the module it resolves to: a crafted `__package__` once made
/// `__import__('', {'__package__': 'subprocess'}, None, ['x'], 1)` an import of `subprocess` that the
/// allowlist never saw. Both engines.
#[test]
fn relative_imports_are_checked_by_the_name_they_resolve_to() {
    let code = "out = []\nfor args in [('', {'__package__': 'subprocess'}, None, ['x'], 1), \
                ('x', {'__package__': 'tempfile.y'}, None, [], 2), \
                ('', {'__name__': 'shutil.z'}, None, ['q'], 1)]:\n    try:\n        __import__(*args)\n        \
                out.append('imported')\n    except ModuleNotFoundError as e:\n        out.append(e.name)\n\
                from json import decoder\nreturn out";
    for isolation in common::isolations() {
        let config = common::config_for(isolation);
        let rt = Toolplane::new(config).unwrap();
        assert_eq!(
            value(&run(&rt, code)),
            json!(["subprocess", "tempfile", "shutil"]),
            "{isolation:?}"
        );
    }
}

/// What the allowed modules import on their own, lazily or from native code (`_strptime` from
/// `datetime`'s Rust code, `_compat_pickle` from `pickle`'s, an `encodings` module from `codecs`),
/// still loads with the import check on every path.
#[test]
fn the_allowed_modules_load_what_they_need() {
    let code = "import datetime, time, pickle, codecs, inspect, logging, decimal\n\
                return [datetime.datetime.strptime('2020-03', '%Y-%m').month, \
                time.strptime('2021', '%Y').tm_year, pickle.loads(pickle.dumps({'a': (1, 2)}, 0)), \
                b'\\x80'.decode('cp1251'), codecs.lookup('koi8_r').name, \
                inspect.signature(lambda a, b=1: 0).parameters['b'].default, \
                str(decimal.Decimal('1.10') + 1), logging.getLogger('x').name]";
    for (isolation, rt) in common::runtimes() {
        assert_eq!(
            value(&run(&rt, code)),
            json!([3, 2021, {"a": [1, 2]}, "\u{402}", "koi8-r", 1, "2.10", "x"]),
            "{isolation:?}"
        );
    }
}

/// The value of every number a snippet returns, as Python's `json.dumps` writes it.
pub const EXACT_NUMBERS_CODE: &str = "return {'big': 2**70, 'neg': -2**100, 'huge': 10**400, 'max': 1e308, \
                                      'negzero': -0.0, 'nested': [2**70, {'k': [-0.0, -2**100]}]}";

fn exact_numbers_text() -> String {
    format!(
        "{{\"big\": 1180591620717411303424, \"neg\": -1267650600228229401496703205376, \"huge\": 1{}, \
         \"max\": 1e+308, \"negzero\": -0.0, \"nested\": [1180591620717411303424, {{\"k\": [-0.0, \
         -1267650600228229401496703205376]}}]}}",
        "0".repeat(400)
    )
}

/// No number changes on its way from the VM to the caller, in either engine, fresh or in a session.
#[test]
fn numbers_reach_the_caller_exactly() {
    for isolation in common::isolations() {
        let config = common::config_for(isolation);
        let rt = Toolplane::new(config).unwrap();
        let fresh = run(&rt, EXACT_NUMBERS_CODE);
        assert!(fresh.ok(), "{isolation:?}: {:?}", fresh.error);
        assert_eq!(fresh.value.get(), exact_numbers_text(), "{isolation:?}");
        let session = rt.session();
        let kept = session.execute(EXACT_NUMBERS_CODE, None).unwrap();
        assert_eq!(
            kept.value.get(),
            exact_numbers_text(),
            "{isolation:?} session"
        );
        // Serialised whole (the CLI's --json), the value is the same text.
        let line = serde_json::to_string(&fresh).unwrap();
        assert!(line.contains(&exact_numbers_text()), "{line}");
        assert_eq!(
            run(&rt, "return 10**400").value.get(),
            format!("1{}", "0".repeat(400))
        );
    }
}

/// Numbers reach the snippet exactly too: inputs parsed from JSON text keep every digit, as
/// `json.loads` does, and `value_json` and the host's store keep them on the way out.
#[test]
fn inputs_and_json_values_keep_every_digit() {
    let inputs: serde_json::Value = serde_json::from_str(
        r#"{"big": 1180591620717411303424, "neg": -1267650600228229401496703205376, "f": 0.1, "inf": 1e400}"#,
    )
    .unwrap();
    let serde_json::Value::Object(inputs) = inputs else {
        unreachable!()
    };
    for (isolation, rt) in common::runtimes() {
        let result = rt
            .execute(
                "return [big == 2**70, neg == -2**100, type(big).__name__, f, inf == float('inf'), big + 1]",
                Some(inputs.clone()),
            )
            .unwrap();
        assert!(result.ok(), "{isolation:?}: {:?}", result.error);
        assert_eq!(
            result.value.get(),
            "[true, true, \"int\", 0.1, true, 1180591620717411303425]",
            "{isolation:?}"
        );
        assert_eq!(
            result.value_json()[5].to_string(),
            "1180591620717411303425",
            "{isolation:?}"
        );
    }
    let store = toolplane::stores::ResultStore::new(&Default::default());
    let handle = store
        .save(&serde_json::Value::Object(inputs), None)
        .unwrap();
    assert_eq!(
        &*store.payload(&handle).unwrap(),
        r#"{"big": 1180591620717411303424, "neg": -1267650600228229401496703205376, "f": 0.1, "inf": 1e+400}"#
    );
    assert_eq!(
        store.load(&handle).unwrap()["neg"].to_string(),
        "-1267650600228229401496703205376"
    );
}

/// `from __future__ import …` at the top of a snippet applies to it, as at the top of a Python file;
/// the fresh snippet's body once went into `async def` whole, where a future import is a
/// `SyntaxError` ("from __future__ imports must occur at the beginning of the file").
#[test]
fn future_imports_at_the_top_of_a_snippet_apply_to_it() {
    let code = "'''A docstring may come first.'''\nfrom __future__ import annotations\n\
                def f(x: Undefined) -> list[Nowhere]:\n    return x\n\
                return f(1), f.__annotations__";
    let expected = json!([1, {"x": "Undefined", "return": "list[Nowhere]"}]);
    for (isolation, rt) in common::runtimes() {
        assert_value_fresh_and_in_session(&rt, code, &expected, isolation);
        // Anywhere else it is still the error Python makes it.
        let late = "x = 1\nfrom __future__ import annotations\nreturn x";
        assert_fresh_error(&rt, late, "SyntaxError", "beginning of the file", isolation);
    }
}

/// A function's `global NAME` reaches the snippet's own top-level `NAME`, as in a Python file and in
/// the original: a fresh snippet's body once went into `async def` whole, where its top-level names
/// are the function's locals and `global count` inside a helper found no `count` (`NameError`).
#[test]
fn a_global_statement_in_a_function_reaches_the_snippets_top_level_names() {
    let code = "count = 0\nlog = []\n\
                def bump(by=1):\n    global count\n    count += by\n    return count\n\
                class Tally:\n    def add(self, item):\n        global log, seen\n        \
                log = log + [item]\n        seen = True\n\
                def outer():\n    count = 'shadowed'\n    def inner():\n        global count\n        \
                count *= 10\n    inner()\n    return count\n\
                bump()\nbump(2)\nTally().add('a')\nTally().add('b')\nkept = outer()\n\
                total = sum(count for _ in range(2))\n\
                return [count, log, seen, kept, total]";
    let expected = json!([30, ["a", "b"], true, "shadowed", 60]);
    for (isolation, rt) in common::runtimes() {
        assert_value_fresh_and_in_session(&rt, code, &expected, isolation);
        // An annotated top-level name too (a function's scope refuses `global` for an annotated
        // name; a module's does not).
        let annotated =
            "score: int = 0\ndef up():\n    global score\n    score += 5\nup()\nreturn score";
        assert_eq!(value(&run(&rt, annotated)), json!(5), "{isolation:?}");
        // Names no function declares global stay the snippet's own, and a `global` that names
        // nothing the snippet binds is still the NameError it is in Python.
        let unbound = "def f():\n    global nowhere\n    return nowhere\nreturn f()";
        assert_fresh_error(&rt, unbound, "NameError", "'nowhere'", isolation);
        // A top-level assignment before the snippet's own `global` is still Python's SyntaxError.
        let late = "x = 1\nglobal x\ndef f():\n    global x\nreturn x";
        let message = "assigned to before global declaration";
        assert_fresh_error(&rt, late, "SyntaxError", message, isolation);
    }
}

/// A lone surrogate written in a string literal stays in the `str` (CPython keeps it; the compiler
/// of an AST made it U+FFFD), and `save_result` refuses it as it refuses `chr(0xD800)`.
#[test]
fn lone_surrogates_in_source_stay_in_the_string() {
    for isolation in common::isolations() {
        let config = common::config_for(isolation);
        surrogates_stay(&Toolplane::new(config).unwrap());
    }
}

fn surrogates_stay(rt: &Toolplane) {
    let code = "s = 'a\\ud800b'\nt = f'x\\uDC00{1}'\nu = \"\\U0000d801\"\n\
                return [ord(s[1]), len(s), [ord(c) for c in t], ord(u), s == 'a' + chr(0xD800) + 'b']";
    assert_eq!(
        value(&run(rt, code)),
        json!([0xD800, 3, [120, 0xDC00, 49], 0xD801, true])
    );
    let session = rt.session();
    let kept = session
        .execute("s = '\\ud800'\nreturn ord(s)", None)
        .unwrap();
    assert_eq!(kept.value_json(), json!(0xD800));
    let literal = run(rt, "await save_result('\\ud800')");
    let (kind, message) = error(&literal);
    assert_eq!(kind, "ValueError", "{message}");
    let built = run(rt, "await save_result(chr(0xD800))");
    assert_eq!(error(&built), (kind, message));
}

/// A value's own conversion may run snippet code (a class posing as `datetime.date` has its own
/// `isoformat`) that changes the container being written: the writer re-reads it and never sees a
/// freed item, in both engines, for save_result, return values and json.dumps alike.
#[test]
fn containers_changed_while_they_are_written_stay_sound() {
    let code = "import datetime, json\n\
        class date(datetime.date):\n    __module__ = 'datetime'\n    def isoformat(self):\n        \
        rows.clear()\n        meta['late'] = [1, 2]\n        return 'x'\n\
        rows = [date(2024, 1, 2), 1, 'two', [3]]\n\
        meta = {'a': date(2024, 1, 2), 'b': 2}\n\
        saved = await load_result(await save_result(rows))\n\
        loaded = await load_result(await save_result(meta))\n\
        rows = [date(2024, 1, 2), 1, 'two', [3]]\n\
        return [saved, loaded, rows, json.loads(json.dumps([1, 2.5]))]";
    for (isolation, rt) in common::runtimes() {
        let r = run(&rt, code);
        // The list ends where it was cleared; the dict shows the entry added on the way; the
        // return value is written while `rows` is cleared again.
        assert_eq!(
            value(&r),
            json!([["x"], {"a": "x", "b": 2, "late": [1, 2]}, ["x"], [1, 2.5]]),
            "{isolation:?}"
        );
    }
}

/// Floats, ints and texts keep Python's json.dumps spelling through the writer's fast paths.
#[test]
fn scalars_are_written_as_python_writes_them() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(
        &rt,
        "import json\nvals = [0.5, -0.0, 1e16, 1.5e-07, 123456789.125, 2**63, -2**63, 2**64, -2**70, 7, \
         'plain', 'q\"b\\\\', 'caf\\u00e9', '\\n', True, None]\n\
         h = await save_result(vals)\nreturn [json.dumps(vals), h]",
    );
    let pair = value(&r);
    let expected = r#"[0.5, -0.0, 1e+16, 1.5e-07, 123456789.125, 9223372036854775808, -9223372036854775808, 18446744073709551616, -1180591620717411303424, 7, "plain", "q\"b\\", "caf\u00e9", "\n", true, null]"#;
    assert_eq!(pair[0], json!(expected));
    assert_eq!(
        &*rt.result_payload(pair[1].as_str().unwrap()).unwrap(),
        expected
    );
}

/// The parser shares one `str` per recent key (a fixed cache where keys may evict each other): many
/// distinct keys, long keys and keys with escapes all come back as they were saved.
#[test]
fn keys_come_back_exactly_through_the_key_cache() {
    let rt = Toolplane::new(Config::default()).unwrap();
    let r = run(
        &rt,
        "import json\nwide = {f'k{i}': i for i in range(5000)}\n\
         rows = [{'id': i, 'x' * 70: i, 'caf\\u00e9': i, 'a\"b': i} for i in range(50)]\n\
         value = {'wide': wide, 'rows': rows}\n\
         back = await load_result(await save_result(value))\n\
         return [back == value, json.loads(json.dumps(value)) == value, list(back['wide'])[4999], \
         sorted(back['rows'][49])]",
    );
    assert_eq!(
        value(&r),
        json!([
            true,
            true,
            "k4999",
            ["a\"b", "caf\u{e9}", "id", "x".repeat(70)]
        ])
    );
}

/// A fresh run's interpreter may keep the run's finished locals past the reply when they are plain
/// data (freeing them then costs the run nothing). Anything whose freeing runs code — a `__del__`, a
/// suspended generator's `finally`, also deep inside plain containers — is still freed inside the run,
/// where its output is the run's.
#[test]
fn locals_whose_freeing_runs_code_are_freed_inside_the_run() {
    let snippets = [
        "class Noisy:\n    def __del__(self):\n        print('freed')\nrows = [{'id': 1, 'obj': Noisy()}]\nreturn 1",
        "def gen():\n    try:\n        yield 1\n    finally:\n        print('freed')\nit = gen()\nnext(it)\nreturn 1",
        "class Noisy:\n    def __del__(self):\n        print('freed')\nkept = ({'a': [1, 2.5, 'x', None, b'y', (True, Noisy())]},)\nreturn 1",
    ];
    for (isolation, rt) in common::runtimes() {
        for snippet in snippets {
            let result = run(&rt, snippet);
            assert_eq!(
                value(&result),
                json!(1),
                "{isolation:?}: {:?}",
                result.error
            );
            assert_eq!(result.stdout, "freed\n", "{isolation:?}: {snippet}");
        }
    }
}
