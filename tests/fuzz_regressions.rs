//! What the fuzz targets (`fuzz/`) check, run by `cargo test` on the kept regression inputs
//! (`fuzz/regressions/<target>/`) and on a deterministic pseudo-random corpus, so a fixed crash stays
//! fixed without a nightly toolchain.

mod common;

use std::path::Path;

use toolplane::{Config, Toolplane};

fn regressions(target: &str) -> Vec<Vec<u8>> {
    files_in(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/regressions")
            .join(target),
    )
}

/// The files of `dir` (none if it is missing), in a fixed order.
fn files_in(dir: &Path) -> Vec<Vec<u8>> {
    let mut inputs: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| std::fs::read(e.ok()?.path()).ok())
                .collect()
        })
        .unwrap_or_default();
    inputs.sort();
    inputs
}

/// xorshift: the same corpus on every run.
fn corpus(count: usize, max_len: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let len = (next() as usize) % max_len;
            (0..len).map(|_| next() as u8).collect()
        })
        .collect()
}

#[test]
fn convert_round_trips() {
    let inputs = regressions("convert");
    for data in inputs
        .iter()
        .chain(&corpus(3000, 64, 0x9e37_79b9_7f4a_7c15))
    {
        toolplane::sandbox::fuzzing::convert_round_trip(data);
    }
}

#[test]
fn configs_parse_or_say_why() {
    let mut texts: Vec<String> = regressions("config")
        .into_iter()
        .filter_map(|b| String::from_utf8(b).ok())
        .collect();
    let pieces = [
        "[limits]",
        "[results]",
        "[toolplane]",
        "[session]",
        "[artifacts]",
        "[cli]",
        "\n",
        "=",
        "timeout_seconds",
        "max_memory_mb",
        "enabled",
        "isolation",
        "\"process\"",
        "true",
        "-1",
        "1e309",
        "nan",
        "[",
        "]",
        "\"",
        "'''",
        "0",
        "max_entries",
        "[mcp.servers.x]",
        "{}",
        "[[x]]",
    ];
    for data in corpus(3000, 24, 0x2545_f491_4f6c_dd1d) {
        texts.push(
            data.iter()
                .map(|b| pieces[usize::from(*b) % pieces.len()])
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    for text in texts {
        match Config::from_toml_str(&text) {
            Ok(config) => config.validate().expect("a parsed config is valid"),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn snippets_end_as_results() {
    let mut config = Config::default();
    config.limits.timeout_seconds = 0.5;
    config.limits.max_memory_mb = 64;
    config.limits.session_max_memory_mb = 64;
    let runtime = Toolplane::new(config).unwrap();
    let session = runtime.session();
    let words = [
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ":",
        "\n",
        "    ",
        "await ",
        "return ",
        "lambda ",
        "yield ",
        "x",
        "1",
        "'s'",
        "+",
        "*",
        "**",
        "for ",
        "in ",
        "if ",
        "def f",
        "class C",
        "save_result",
        "(x)",
        ",",
        "=",
        "async ",
        "with ",
        "import json",
        "raise ",
        "try:",
        "except:",
        "not ",
        "global x",
        "nonlocal x",
        "del x",
        "assert ",
        "f'{x}'",
        "b''",
        "...",
        "@",
        "->",
        "match x:",
        "case _:",
        "\\",
        "#",
        "\"\"\"",
        "9",
    ];
    // The example snippets are the fuzzer's seed corpus too.
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/snippets");
    let mut snippets: Vec<String> = regressions("snippet")
        .into_iter()
        .chain(files_in(&examples))
        .filter_map(|b| String::from_utf8(b).ok())
        .collect();
    for data in corpus(400, 16, 0xda94_2042_e4dd_58b5) {
        snippets.push(
            data.iter()
                .map(|b| words[usize::from(*b) % words.len()])
                .collect(),
        );
    }
    for code in snippets {
        let result = session.execute(&code, None).unwrap();
        if let Some(error) = &result.error {
            assert_ne!(
                error.error_type, "SandboxCrashedError",
                "{code:?}: {}",
                error.message
            );
        }
        session.reset();
    }
    assert!(session.execute("return 1", None).unwrap().ok());
}

/// The `snippet` target's compile and teardown shapes (`toolplane::sandbox::fuzzing::shaped_snippet`),
/// each with a few fragments, in a session of each engine: every run ends as a result (never a crashed
/// sandbox), and the session answers a plain run after it.
#[test]
fn shaped_snippets_end_as_results() {
    let fragments = [
        "pass",
        "import time\ntime.sleep(10 ** 6)",
        "while True:\n    pass",
        "raise ValueError('x' * 100000)",
    ];
    for isolation in common::isolations() {
        let mut config = common::config_for(isolation);
        config.limits.timeout_seconds = 0.5;
        config.limits.max_memory_mb = 64;
        config.limits.session_max_memory_mb = 64;
        let runtime = Toolplane::new(config).unwrap();
        let session = runtime.session();
        for shape in 0..8u8 {
            for fragment in fragments {
                let mut data = vec![shape, 0x04, 0x00];
                data.extend_from_slice(fragment.as_bytes());
                let code = toolplane::sandbox::fuzzing::shaped_snippet(&data);
                let result = session.execute(&code, None).unwrap();
                let label = format!("{isolation:?} shape {shape} {fragment:?}");
                if let Some(error) = &result.error {
                    assert_ne!(
                        error.error_type, "SandboxCrashedError",
                        "{label}: {}",
                        error.message
                    );
                }
                session.reset();
                let after = session.execute("return 1 + 1", None).unwrap();
                assert!(
                    after.ok(),
                    "{label}: the session did not recover: {:?}",
                    after.error
                );
            }
        }
    }
}
