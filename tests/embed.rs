//! The embedding API: the builder, typed and async host tools, tool errors, name precedence, and the
//! async execute variants — in both isolation modes where the rule crosses the process boundary.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{err, ok};
use serde_json::{Value, json};
use toolplane::{Capability, Config, Error, HostError, Isolation, Limits, Registry, Toolplane};

fn builder(isolation: Isolation) -> toolplane::ToolplaneBuilder {
    let mut config = Config::default();
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    Toolplane::builder().config(config).isolation(isolation)
}

fn modes() -> [Isolation; 2] {
    [Isolation::InProcess, Isolation::Process]
}

fn run(runtime: &Toolplane, code: &str) -> toolplane::ExecutionResult {
    runtime.execute(code, None).expect("execute")
}

#[derive(serde::Deserialize, toolplane::schemars::JsonSchema)]
struct GetOrder {
    /// The order id.
    id: u32,
    #[serde(default)]
    with_lines: bool,
}

#[derive(serde::Serialize)]
struct Order {
    id: u32,
    total: f64,
    lines: Option<Vec<&'static str>>,
}

fn orders_get() -> Capability {
    Capability::typed("orders/get", |args: GetOrder| {
        if args.id == 0 {
            return Err(HostError::lookup("no order 0"));
        }
        Ok(Order {
            id: args.id,
            total: f64::from(args.id) * 1.5,
            lines: args.with_lines.then(|| vec!["a", "b"]),
        })
    })
    .description("Fetch one order")
}

#[test]
fn builder_registers_tools_and_rejects_duplicates() {
    let runtime = builder(Isolation::InProcess)
        .limits(Limits::default().with_timeout(Duration::from_secs(7)))
        .tool(orders_get())
        .build()
        .unwrap();
    assert_eq!(runtime.config().limits.timeout_seconds, 7.0);
    assert_eq!(runtime.isolation(), Isolation::InProcess);
    assert_eq!(
        ok(run(
            &runtime,
            "return await orders_get(id=2, with_lines=True)"
        )),
        json!({"id": 2, "total": 3.0, "lines": ["a", "b"]})
    );
    let duplicate = Toolplane::builder()
        .tool(Capability::new("x/y", Ok))
        .tool(Capability::new("x/y", Ok))
        .build()
        .unwrap_err();
    assert!(
        matches!(&duplicate, Error::DuplicateCapability(name) if name == "x/y"),
        "{duplicate:?}"
    );
    assert_eq!(duplicate.to_string(), "Capability already registered: x/y");
    let mut bad = Config::default();
    bad.limits.timeout_seconds = -1.0;
    assert!(matches!(
        Toolplane::builder().config(bad).build(),
        Err(Error::Config(_))
    ));
}

#[test]
fn typed_tools_derive_their_schema_and_explain_bad_arguments() {
    let cap = orders_get();
    assert_eq!(cap.params_schema["required"], json!(["id"]));
    assert_eq!(cap.params_schema["properties"]["id"]["type"], "integer");
    for isolation in modes() {
        let runtime = builder(isolation).tool(orders_get()).build().unwrap();
        let (kind, message) = err(run(&runtime, "return await orders_get(id='seven')"));
        assert_eq!(kind, "TypeError", "{isolation:?}");
        assert!(
            message.starts_with("bad arguments for orders/get:"),
            "{message}"
        );
        assert!(
            message.ends_with("call it as await orders_get(id=<integer>, with_lines=<boolean>?)"),
            "{message}"
        );
        let (kind, message) = err(run(&runtime, "return await orders_get(3)"));
        assert_eq!(kind, "TypeError");
        assert!(
            message.contains("call it as await orders_get(id=<integer>, with_lines=<boolean>?)"),
            "{message}"
        );
        assert_eq!(
            ok(run(
                &runtime,
                "try:\n    await orders_get(id=0)\nexcept LookupError as e:\n    return str(e)"
            )),
            "no order 0"
        );
    }
}

#[test]
fn tool_errors_pick_the_builtin_and_panics_stay_in_the_snippet() {
    type MakeError = fn(&str) -> HostError;
    let kinds: [(&str, MakeError, &str); 5] = [
        ("value", |m| HostError::value(m), "ValueError"),
        (
            "permission",
            |m| HostError::permission(m),
            "PermissionError",
        ),
        ("lookup", |m| HostError::lookup(m), "LookupError"),
        ("type", |m| HostError::type_error(m), "TypeError"),
        ("runtime", |m| HostError::runtime(m), "RuntimeError"),
    ];
    for isolation in modes() {
        let mut b = builder(isolation);
        for (name, make, _) in kinds {
            b = b.tool(Capability::new(format!("fail/{name}"), move |_| {
                Err(make("no"))
            }));
        }
        let runtime = b
            .tool(Capability::new("fail/panic", |_| panic!("tool exploded")))
            .tool(Capability::new_async("fail/async_panic", |_| async {
                panic!("async tool exploded")
            }))
            .build()
            .unwrap();
        for (name, _, builtin) in kinds {
            let (kind, message) = err(run(&runtime, &format!("await fail_{name}()")));
            assert_eq!(kind, builtin, "{isolation:?} {name}");
            assert!(message.starts_with("no"), "{message}");
        }
        for (call, text) in [
            ("fail_panic()", "tool exploded"),
            ("fail_async_panic()", "async tool exploded"),
        ] {
            let (kind, message) = err(run(&runtime, &format!("await {call}")));
            assert_eq!(kind, "RuntimeError", "{isolation:?}");
            assert!(
                message.contains("panicked") && message.contains(text),
                "{message}"
            );
        }
        assert_eq!(ok(run(&runtime, "return 1")), 1, "the host carries on");
    }
}

#[test]
fn async_tools_dispatch_when_called_and_overlap() {
    for isolation in modes() {
        let runtime = builder(isolation)
            .tool(
                Capability::new_async("slow/echo", |p| async move {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    Ok(p)
                })
                .alias("slow_echo"),
            )
            .build()
            .unwrap();
        ok(run(&runtime, "return 1")); // start the worker outside the timing
        let started = Instant::now();
        let value = ok(run(
            &runtime,
            "fs = [slow_echo(i=i) for i in range(4)]\nreturn [(await f)['i'] for f in fs]",
        ));
        let elapsed = started.elapsed();
        assert_eq!(value, json!([0, 1, 2, 3]));
        // Sequential would be 800 ms; a generous bound that still proves the overlap.
        assert!(
            elapsed < Duration::from_millis(700),
            "{isolation:?}: {elapsed:?}"
        );
        // Awaited one by one they still work (and the answers match their calls).
        assert_eq!(
            ok(run(
                &runtime,
                "return [(await slow_echo(i=i))['i'] for i in range(2)]"
            )),
            json!([0, 1])
        );
    }
}

#[test]
fn a_tool_that_never_answers_ends_at_the_time_limit() {
    for isolation in modes() {
        let runtime = builder(isolation)
            .limits(Limits::default().with_timeout(Duration::from_millis(500)))
            .tool(Capability::new_async("slow/never", |_| async {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok(Value::Null)
            }))
            .build()
            .unwrap();
        let (kind, message) = err(run(&runtime, "await slow_never()"));
        assert_eq!(kind, "TimeoutError", "{isolation:?}: {message}");
        assert_eq!(ok(run(&runtime, "return 2")), 2);
    }
}

#[test]
fn name_precedence() {
    // No alias takes a name every snippet has (call_tool, reset_session, the store sugar, a builtin),
    // and an alias two capabilities would share is neither's, whatever the order they came in: the
    // canonical names always work. Inputs shadow only the sugar.
    let registry = Arc::new(Registry::new());
    registry
        .register(Capability::new("x/save", |_| Ok(json!("the tool"))).alias("save_result"))
        .unwrap();
    registry
        .register(Capability::new("x/call", |_| Ok(json!("hijacked"))).alias("call_tool"))
        .unwrap();
    registry
        .register(Capability::new("x/print", |_| Ok(json!("hijacked"))).alias("print"))
        .unwrap();
    registry
        .register(Capability::new("my/files_read", |_| Ok(json!("mine"))).alias("my_files_read"))
        .unwrap();
    registry
        .register(Capability::new("my-files/read", |_| Ok(json!("theirs"))).alias("my_files_read"))
        .unwrap();
    registry
        .register(Capability::new("x/get", Ok).alias("get"))
        .unwrap();
    let runtime = Toolplane::with_registry(Config::default(), registry).unwrap();
    let handle = ok(run(&runtime, "return await save_result(value=1)"));
    assert!(handle.as_str().unwrap().starts_with("res_"), "{handle}");
    assert_eq!(
        ok(run(&runtime, "return await call_tool('x/save', {})")),
        "the tool"
    );
    assert_eq!(
        ok(run(
            &runtime,
            "print('still print')\nreturn ['my_files_read' in globals(), \
             await call_tool('my/files_read', {}), await call_tool('my-files/read', {})]"
        )),
        json!([false, "mine", "theirs"])
    );
    assert_eq!(
        ok(run(&runtime, "return await call_tool('x/get', {'a': 1})")),
        json!({"a": 1})
    );
    let inputs = |v: Value| v.as_object().cloned();
    let shadow = runtime
        .execute("return load_result", inputs(json!({"load_result": 5})))
        .unwrap();
    assert_eq!(ok(shadow), 5);
    let clash = runtime
        .execute("return 1", inputs(json!({"get": 1, "call_tool": 2})))
        .unwrap_err();
    assert_eq!(
        clash.to_string(),
        "NamespaceCollisionError: Input names collide with Toolplane namespace bindings: call_tool, get"
    );
}

#[test]
fn hidden_tools_are_callable_but_not_listed() {
    let runtime = Toolplane::builder()
        .tool(Capability::new("ops/secret", |_| Ok(json!(7))).hidden(true))
        .build()
        .unwrap();
    assert_eq!(ok(run(&runtime, "return await call_tool('ops/secret')")), 7);
    assert_eq!(err(run(&runtime, "return await secret()")).0, "NameError");
    let registry = runtime.registry();
    assert!(registry.search("", None).is_empty());
    assert!(registry.callable_namespace().is_empty());
    assert_eq!(registry.lookup(&["ops/secret".into()]).0.len(), 1);
}

#[test]
fn stores_are_reachable_from_the_host() {
    let runtime = Toolplane::new(Config::default()).unwrap();
    let out = ok(run(
        &runtime,
        "return [await save_result({'a': 1}), await save_artifact(b'hi', filename='h.txt')]",
    ));
    assert_eq!(
        &*runtime.result_payload(out[0].as_str().unwrap()).unwrap(),
        r#"{"a": 1}"#
    );
    let (info, bytes) = runtime.artifact(out[1].as_str().unwrap()).unwrap();
    assert_eq!(
        (info.filename.as_str(), bytes.as_slice()),
        ("h.txt", &b"hi"[..])
    );
    assert!(runtime.result_payload("res_nope").is_err());
}

#[tokio::test(flavor = "current_thread")]
async fn execute_async_does_not_block_a_current_thread_runtime() {
    let runtime = Toolplane::builder()
        .tool(Capability::new_async("t/wait", |p| async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            Ok(p)
        }))
        .build()
        .unwrap();
    // A timer on this same single thread keeps ticking while the run is in flight.
    let ticks = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let counter = ticks.clone();
    let ticker = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(5)).await;
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    });
    let result = runtime
        .execute_async("return (await t_wait(v=1))['v'] + sum(range(300000))", None)
        .await
        .unwrap();
    ticker.abort();
    assert_eq!(ok(result), json!(1 + (0..300_000u64).sum::<u64>()));
    assert!(ticks.load(std::sync::atomic::Ordering::Relaxed) > 0);
    let session = runtime.session();
    session.execute_async("x = 41", None).await.unwrap();
    assert_eq!(ok(session.execute_async("x + 1", None).await.unwrap()), 42);
}

/// Every constructor validates: a limit that would panic or mean nothing is an error, never a panic
/// at the first run.
#[test]
fn every_constructor_validates_the_config() {
    for bad in [f64::NAN, -1.0, 0.0, f64::INFINITY] {
        let mut config = Config::default();
        config.limits.timeout_seconds = bad;
        let refused = |e: toolplane::Error| {
            assert!(
                e.to_string().contains("limits.timeout_seconds"),
                "{bad}: {e}"
            )
        };
        refused(Toolplane::new(config.clone()).unwrap_err());
        refused(
            Toolplane::with_registry(config.clone(), std::sync::Arc::new(Registry::new()))
                .unwrap_err(),
        );
        refused(Toolplane::builder().config(config).build().unwrap_err());
    }
    let with_timeout = |timeout| {
        Toolplane::builder()
            .limits(Limits::default().with_timeout(timeout))
            .build()
    };
    assert!(with_timeout(Duration::ZERO).is_err());
    assert!(with_timeout(Duration::from_secs(86_401)).is_err());
    let runtime = with_timeout(Duration::from_millis(1500)).unwrap();
    assert_eq!(runtime.config().limits.timeout_seconds, 1.5);
}

/// The README's embedding example is the program `tests/external/run` builds and runs outside this
/// repository (a fresh resolve, the library without default features): it cannot drift from code that
/// is known to build for an application.
#[test]
fn the_readme_embedding_example_is_the_external_crate() {
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("## Embedding").expect("an Embedding section")..];
    let start = section.find("```rust\n").expect("a rust block") + "```rust\n".len();
    let end = start + section[start..].find("```\n").expect("the block's end");
    assert_eq!(
        &section[start..end],
        include_str!("external/src/main.rs"),
        "README.md's embedding example and tests/external/src/main.rs differ"
    );
}

/// Issue 32 §6: 10 000 un-awaited calls each reached the server, held host memory outside the run's
/// budget, and were not all cancelled. A run now has at most `[limits] max_pending_calls` calls it has
/// not awaited: the next one raises `RuntimeError` where it is made and is never dispatched; awaiting
/// one frees its place; and every call still running when the run ends is dropped.
#[test]
fn un_awaited_calls_are_capped_and_cancelled_when_the_run_ends() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    struct CountDrop(Arc<AtomicUsize>);
    impl Drop for CountDrop {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    for isolation in modes() {
        let started = Arc::new(AtomicUsize::new(0));
        let dropped = Arc::new(AtomicUsize::new(0));
        let (s, d) = (started.clone(), dropped.clone());
        let limits = Limits::default().with_max_pending_calls(5);
        let runtime = builder(isolation)
            .limits(limits)
            .tool(
                Capability::new_async("slow/count", move |p| {
                    s.fetch_add(1, Ordering::SeqCst);
                    let guard = CountDrop(d.clone());
                    async move {
                        let _guard = guard;
                        let seconds = p["seconds"].as_f64().unwrap_or(3600.0);
                        tokio::time::sleep(Duration::from_secs_f64(seconds)).await;
                        Ok(p)
                    }
                })
                .alias("slow_count"),
            )
            .build()
            .unwrap();
        let value = ok(run(
            &runtime,
            "calls = [slow_count(seconds=0.01)]
try:
    for i in range(10):
        calls.append(slow_count())
except RuntimeError as e:
    refused = str(e)
first = await calls[0]
calls.append(slow_count())  # awaiting one freed its place
try:
    handle = save_result(1)
except RuntimeError as e:
    return [len(calls), first['seconds'], refused, 'store calls count too']
return [len(calls), first['seconds'], refused]",
        ));
        assert_eq!(value[0], 6, "{isolation:?}: {value}");
        assert_eq!(value[1], 0.01, "{isolation:?}: {value}");
        let refused = value[2].as_str().unwrap();
        assert!(
            refused.contains("started 5 calls it has not awaited")
                && refused.contains("[limits] max_pending_calls"),
            "{isolation:?}: {refused}"
        );
        assert_eq!(value[3], "store calls count too", "{isolation:?}");
        // Only the calls within the cap reached the tool: the first, four more, and one after the await.
        assert_eq!(started.load(Ordering::SeqCst), 6, "{isolation:?}");
        // Every call the run left running was dropped when it ended.
        let deadline = Instant::now() + Duration::from_secs(5);
        while dropped.load(Ordering::SeqCst) < 6 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(dropped.load(Ordering::SeqCst), 6, "{isolation:?}");
    }
}

#[test]
fn max_pending_calls_is_checked() {
    for (value, text) in [
        (0, "limits.max_pending_calls must be greater than 0"),
        (10_001, "limits.max_pending_calls must be at most 10000"),
    ] {
        let limits = Limits::default().with_max_pending_calls(value);
        let error = builder(Isolation::InProcess)
            .limits(limits)
            .build()
            .unwrap_err();
        assert!(error.to_string().contains(text), "{error}");
    }
}

/// Issue 32 §1: replies a run has not awaited sat outside its memory budget (25 pending 60 MiB replies
/// took the in-process host to 1.7 GB under a 512 MiB limit). Now they count against it: a reply
/// that does not fit beside the ones waiting is a `MemoryError` when awaited, and the host holds at
/// most the run's limit of them. Both engines.
#[test]
fn replies_not_awaited_yet_count_against_the_memory_limit() {
    for isolation in modes() {
        let limits = Limits::default().with_max_memory_mb(100);
        let runtime = builder(isolation)
            .limits(limits)
            .tool(
                Capability::new_async("big/text", |_| async {
                    Ok(Value::String("x".repeat(20 << 20)))
                })
                .alias("big_text"),
            )
            .build()
            .unwrap();
        let value = ok(run(
            &runtime,
            "import time
calls = [big_text() for _ in range(8)]
time.sleep(1)
outcomes = []
for call in calls:
    try:
        text = await call
        outcomes.append(len(text))
        del text
    except MemoryError as e:
        outcomes.append(str(e))
return outcomes",
        ));
        let outcomes = value.as_array().unwrap();
        let delivered = outcomes
            .iter()
            .filter(|o| o.as_u64() == Some(20 << 20))
            .count();
        let refused: Vec<&str> = outcomes.iter().filter_map(|o| o.as_str()).collect();
        assert!(delivered >= 1, "{isolation:?}: {value}");
        assert!(!refused.is_empty(), "{isolation:?}: {value}");
        for text in refused {
            assert!(
                text.contains("does not fit in the run's memory limit of 100 MiB")
                    && text.contains("[limits] max_memory_mb"),
                "{isolation:?}: {text}"
            );
        }
        assert_eq!(ok(run(&runtime, "return 1")), 1);
    }
}

/// With process isolation, an async tool's reply to a child that does not read it (the snippet never
/// awaits it) once blocked a worker thread of the tools' runtime until that run ended; two such
/// replies blocked both, and every other run's async calls waited. They are written by a thread of
/// the run's own now: another run's call is answered while the first still sleeps.
#[test]
fn replies_a_child_does_not_read_block_no_other_run() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let runtime = Arc::new(
        builder(Isolation::Process)
            .tool(
                Capability::new_async("big/reply", |_| async {
                    Ok(Value::String("x".repeat(4 << 20)))
                })
                .alias("big_reply"),
            )
            .tool(Capability::new_async("quick/echo", |p| async move { Ok(p) }).alias("quick_echo"))
            .build()
            .unwrap(),
    );
    ok(run(&runtime, "return 1")); // the zygote, started
    let first_done = Arc::new(AtomicBool::new(false));
    let first = {
        let (runtime, done) = (runtime.clone(), first_done.clone());
        std::thread::spawn(move || {
            let result = run(
                &runtime,
                "import time\ncalls = [big_reply() for _ in range(6)]\ntime.sleep(8)\nreturn 'slept'",
            );
            done.store(true, Ordering::SeqCst);
            result
        })
    };
    std::thread::sleep(Duration::from_millis(1500)); // the replies are out and stuck
    assert_eq!(ok(run(&runtime, "return (await quick_echo(n=7))['n']")), 7);
    assert!(
        !first_done.load(Ordering::SeqCst),
        "the other run's call waited for the sleeping run to end"
    );
    assert_eq!(ok(first.join().unwrap()), "slept");
}

/// A snippet's failure says its kind, from the limits, the contract's error mapping and the parser, in
/// both engines; anything else is `Other` with its Python type name.
#[test]
fn a_failure_says_its_kind() {
    use toolplane::{Capability, ErrorKind, HostError};
    for isolation in modes() {
        let runtime = builder(isolation)
            .limits(Limits::default().with_timeout(Duration::from_millis(500)))
            .tool(Capability::new("guarded/op", |_| {
                Err(HostError::permission("not for you"))
            }))
            .build()
            .unwrap();
        for (code, kind) in [
            ("while True:\n    pass", ErrorKind::Timeout),
            ("x = 'a' * (1 << 40)", ErrorKind::Memory),
            ("def f(n):\n    return f(n + 1)\nf(0)", ErrorKind::Recursion),
            ("await guarded_op()", ErrorKind::Permission),
            ("await call_tool('no/such', {})", ErrorKind::Lookup),
            ("return {}['k']", ErrorKind::Lookup),
            ("await load_result('res_nope')", ErrorKind::Value),
            ("await guarded_op(1)", ErrorKind::Type),
            ("return (", ErrorKind::Syntax),
            ("return 1 / 0", ErrorKind::Other("ZeroDivisionError".into())),
        ] {
            let error = run(&runtime, code)
                .error
                .unwrap_or_else(|| panic!("{isolation:?}: {code:?} did not fail"));
            assert_eq!(error.kind(), kind, "{isolation:?}: {code:?}: {error:?}");
        }
    }
}
