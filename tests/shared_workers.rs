//! Runtimes built with one `Workers` share its zygote; others keep their own. (Alone in its test
//! binary: it counts this process's zygotes.)

#[path = "support/procfs.rs"]
mod procfs;

use toolplane::{Config, Isolation, Toolplane, Workers};

fn config(recursion_depth: usize) -> Config {
    let mut config = Config::default();
    config.toolplane.isolation = Some(Isolation::Process);
    config.toolplane.worker_path = Some(env!("CARGO_BIN_EXE_toolplane").into());
    config.limits.max_recursion_depth = recursion_depth;
    config
}

fn runtime(workers: Option<&Workers>, recursion_depth: usize) -> Toolplane {
    let builder = Toolplane::builder().config(config(recursion_depth));
    match workers {
        Some(workers) => builder.workers(workers),
        None => builder,
    }
    .build()
    .unwrap()
}

/// The zygotes this process started: its children with the zygote's environment (their own forked
/// children inherit that environment; their parent is the zygote).
fn zygotes() -> Vec<u32> {
    let me = std::process::id();
    procfs::zygotes()
        .into_iter()
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The fields after the command's closing parenthesis: state, then the parent's pid.
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            after.split_whitespace().nth(1) == Some(me.to_string().as_str())
        })
        .collect()
}

fn value(rt: &Toolplane, code: &str) -> String {
    let result = rt.execute(code, None).unwrap();
    assert!(result.error.is_none(), "{:?}", result.error);
    result.value.get().to_string()
}

/// How deep a snippet's recursion gets before its `RecursionError`.
const DEPTH: &str = "import sys\ndef f(n):\n    try:\n        return f(n + 1)\n    except RecursionError:\n        return n\nreturn f(0)";

#[test]
fn runtimes_given_one_workers_share_its_zygote() {
    assert!(zygotes().is_empty());
    let workers = Workers::new();
    let a = runtime(Some(&workers), 1000);
    let b = runtime(Some(&workers), 1000);
    assert_eq!(value(&a, "return 1"), "1");
    assert_eq!(value(&b, "return 2"), "2");
    assert_eq!(zygotes().len(), 1, "a and b share one zygote");

    // Each keeps its own stores.
    let handle = value(&a, "return await save_result([1, 2])");
    let inputs = serde_json::json!({"h": serde_json::from_str::<String>(&handle).unwrap()});
    let missing = b
        .execute("return await load_result(h)", inputs.as_object().cloned())
        .unwrap();
    assert_eq!(
        missing.error.expect("b cannot load a's result").error_type,
        "ValueError"
    );

    // A runtime of its own starts its own zygote; one sharing the workers with another recursion
    // limit gets a zygote built with that limit, and the limit holds.
    let own = runtime(None, 1000);
    assert_eq!(value(&own, "return 3"), "3");
    assert_eq!(zygotes().len(), 2);
    let shallow = runtime(Some(&workers), 100);
    let shallow_depth: u64 = value(&shallow, DEPTH).parse().unwrap();
    let deep_depth: u64 = value(&a, DEPTH).parse().unwrap();
    assert!(shallow_depth < 100, "{shallow_depth}");
    assert!(deep_depth > 500, "{deep_depth}");
    assert_eq!(zygotes().len(), 3);

    // The shared zygote outlives one of its runtimes, and ends with the last.
    drop(a);
    assert_eq!(value(&b, "return 4"), "4");
    drop((b, shallow, own, workers));
    let mut left = zygotes();
    for _ in 0..200 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
        left = zygotes();
    }
    assert!(left.is_empty(), "zygotes left: {left:?}");
}
