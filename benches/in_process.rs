//! Criterion figures for the in-process engine and the host-side stores: the parts of a run that do not
//! cross a process boundary, measured with criterion's statistics (outliers, confidence intervals, and a
//! comparison with the previous `cargo bench` of this machine).
//!
//! `cargo bench --ignore-rust-version --bench in_process` (a filter after `--` picks benchmarks, e.g.
//! `-- session`). Whole-process and cross-process figures, and the side-by-side peers, are in
//! `benches/toolplane.rs` (`cargo perf`) and `bench/compare`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};
use toolplane::ResultsConfig;
use toolplane::stores::ResultStore;
use toolplane::{Capability, Config, Isolation, Registry, Session, Toolplane};

fn in_process_runtime() -> Toolplane {
    let registry = Arc::new(Registry::new());
    registry
        .register(Capability::new("bench/echo", Ok).alias("echo"))
        .expect("register echo");
    let mut config = Config::default();
    config.toolplane.isolation = Some(Isolation::InProcess);
    Toolplane::with_registry(config, registry).unwrap()
}

/// Runs `code` in `session` and returns its value; a failed run fails the benchmark.
fn run(session: &Session, code: &str) -> Value {
    let result = session.execute(code, None).expect("execute");
    if let Some(error) = result.error {
        panic!(
            "benchmark snippet failed: {}: {}",
            error.error_type, error.message
        );
    }
    result.value_json()
}

/// Session runs: the warm VM, a namespace kept across runs, the cost of one snippet end to end.
fn session_runs(c: &mut Criterion) {
    let runtime = in_process_runtime();
    let session = runtime.session();
    run(&session, "x = 1");
    let mut group = c.benchmark_group("session");
    for (name, code, expected) in [
        ("return x + 1", "return x + 1", json!(2)),
        (
            "json round trip",
            "import json\nreturn json.loads(json.dumps({'a': [x, 2, 3]}))",
            json!({"a": [1, 2, 3]}),
        ),
        ("one tool call", "return (await echo(v=x))['v']", json!(1)),
        (
            "100 tool calls",
            "t = 0\nfor i in range(100):\n    t += (await echo(v=i))['v']\nreturn t",
            json!(4950),
        ),
        (
            "fib(20)",
            "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\nreturn fib(20)",
            json!(6765),
        ),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| assert_eq!(run(&session, black_box(code)), expected))
        });
    }
    group.finish();
}

/// A fresh in-process run builds a new interpreter each time (milliseconds: the reason process
/// isolation forks a warm one instead).
fn fresh_runs(c: &mut Criterion) {
    let runtime = in_process_runtime();
    let mut group = c.benchmark_group("fresh");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(4));
    group.bench_function("return 1 + 1", |b| {
        b.iter(|| {
            let result = runtime.execute(black_box("return 1 + 1"), None).unwrap();
            assert_eq!(result.value_json(), json!(2));
        })
    });
    group.finish();
}

/// The result store on its own (no sandbox): canonical encoding, caps and handle minting on save, the
/// stored text parsed back on load.
fn result_store(c: &mut Criterion) {
    let config = ResultsConfig::default();
    let mut group = c.benchmark_group("result store");
    for (label, items) in [("1 KiB", 1), ("1 MiB", 1000)] {
        // Lists of 990-character strings: about 1,000 bytes each, as in bench/compare.
        let value = Value::Array(vec![Value::String("x".repeat(990)); items]);
        let bytes = serde_json::to_string(&value).unwrap().len() as u64;
        group.throughput(Throughput::Bytes(bytes));
        // A new store per save (the store refuses saves past its caps); it is dropped untimed.
        group.bench_with_input(BenchmarkId::new("save", label), &value, |b, value| {
            b.iter_batched(
                || ResultStore::new(&config),
                |store| {
                    store.save(black_box(value), None).expect("save");
                    store
                },
                BatchSize::SmallInput,
            )
        });
        let store = ResultStore::new(&config);
        let handle = store.save(&value, None).expect("save");
        group.bench_with_input(BenchmarkId::new("load", label), &handle, |b, handle| {
            b.iter(|| store.load(black_box(handle)).expect("load"))
        });
    }
    group.finish();
}

criterion_group!(benches, session_runs, fresh_runs, result_store);
criterion_main!(benches);
