//! Every rule of the result and artifact stores, with the reference's error texts (no VM involved):
//! the rules that hold for any backend are checked in process and on a real Redis (`[stores] url`),
//! the clock's and the directory's in process, Redis's own (TTL, scopes, caps across replicas) on it.

mod common;

use std::sync::Arc;

use toolplane::stores::{ArtifactStore, ManualClock, ResultStore};
use toolplane::{
    ArtifactsConfig, BuiltinBase, Config, HostError, Isolation, ResultsConfig, Toolplane,
};

/// Where a test's stores keep their entries.
struct Backend {
    redis: Option<common::RedisServer>,
}

/// The backends a contract test runs against: in process, and on a Redis started for it.
fn backends() -> [Backend; 2] {
    [
        Backend { redis: None },
        Backend {
            redis: Some(common::RedisServer::start()),
        },
    ]
}

impl Backend {
    /// A runtime whose stores have these caps, on this backend.
    fn runtime(&self, results: ResultsConfig, artifacts: ArtifactsConfig) -> Toolplane {
        let mut config = Config::default();
        config.toolplane.isolation = Some(Isolation::InProcess);
        config.results = results;
        config.artifacts = artifacts;
        if let Some(redis) = &self.redis {
            config.stores.url = redis.url();
        }
        Toolplane::new(config).unwrap()
    }

    fn results(&self, config: ResultsConfig) -> Arc<ResultStore> {
        match &self.redis {
            None => Arc::new(ResultStore::new(&config)),
            Some(_) => self
                .runtime(config, ArtifactsConfig::default())
                .results()
                .clone(),
        }
    }

    fn artifacts(&self, config: ArtifactsConfig) -> Arc<ArtifactStore> {
        match &self.redis {
            None => Arc::new(ArtifactStore::new(&config)),
            Some(_) => self
                .runtime(ResultsConfig::default(), config)
                .artifacts()
                .clone(),
        }
    }
}

fn results(config: ResultsConfig) -> (ResultStore, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new());
    (ResultStore::with_clock(&config, clock.clone()), clock)
}

fn message(e: HostError) -> String {
    assert_eq!(
        e.base,
        BuiltinBase::ValueError,
        "store errors are ValueError: {e}"
    );
    e.message
}

#[test]
fn round_trip_keeps_payload_verbatim() {
    for backend in backends() {
        let store = backend.results(ResultsConfig::default());
        let h = store
            .save_json(r#"{"b": [1, 2], "a": "\u00e9"}"#, Some("rows"))
            .unwrap();
        assert!(h.starts_with("res_") && h.len() == 26);
        assert_eq!(
            &*store.payload(&h).unwrap(),
            r#"{"b": [1, 2], "a": "\u00e9"}"#
        );
        assert_eq!(
            store.load(&h).unwrap(),
            serde_json::json!({"b": [1, 2], "a": "é"})
        );
    }
}

#[test]
fn same_label_gives_distinct_handles() {
    for backend in backends() {
        let store = backend.results(ResultsConfig::default());
        let a = store.save_json("[1]", Some("same")).unwrap();
        let b = store.save_json("[2]", Some("same")).unwrap();
        assert_ne!(a, b);
        assert_eq!(&*store.payload(&a).unwrap(), "[1]");
        assert_eq!(&*store.payload(&b).unwrap(), "[2]");
    }
}

#[test]
fn unknown_handle_names_the_handle() {
    for backend in backends() {
        let store = backend.results(ResultsConfig::default());
        assert_eq!(
            message(store.payload("res_nope").unwrap_err()),
            "unknown or expired result handle: 'res_nope'"
        );
    }
}

#[test]
fn disabled_store_refuses_save_and_load() {
    for backend in backends() {
        let store = backend.results({
            let mut config = ResultsConfig::default();
            config.enabled = false;
            config
        });
        assert_eq!(
            message(store.save_json("1", None).unwrap_err()),
            "results store is disabled"
        );
        assert_eq!(
            message(store.payload("res_x").unwrap_err()),
            "results store is disabled"
        );
        let store = backend.results(ResultsConfig::default());
        let h = store.save_json("1", None).unwrap();
        store.disable("results store is disabled");
        assert_eq!(
            message(store.payload(&h).unwrap_err()),
            "results store is disabled"
        );
    }
}

#[test]
fn entry_cap() {
    for backend in backends() {
        let store = backend.results({
            let mut config = ResultsConfig::default();
            config.max_entries = 1;
            config
        });
        store.save_json("1", None).unwrap();
        assert_eq!(
            message(store.save_json("2", None).unwrap_err()),
            "result store is full (1 entries); re-use an existing handle or save less"
        );
    }
}

#[test]
fn per_entry_cap_counts_the_label() {
    for backend in backends() {
        let store = backend.results({
            let mut config = ResultsConfig::default();
            config.max_entry_bytes = 8;
            config
        });
        let big = format!("\"{}\"", "x".repeat(100));
        assert_eq!(
            message(store.save_json(&big, None).unwrap_err()),
            "result is 102 bytes, over the per-entry limit of 8 bytes; save a smaller projection"
        );
        let store = backend.results({
            let mut config = ResultsConfig::default();
            config.max_entry_bytes = 16;
            config
        });
        let e = message(store.save_json("1", Some(&"l".repeat(100))).unwrap_err());
        assert!(e.contains("per-entry limit"), "{e}");
    }
}

#[test]
fn total_cap() {
    for backend in backends() {
        let store = backend.results({
            let mut config = ResultsConfig::default();
            config.max_total_bytes = 30;
            config
        });
        let twenty = format!("\"{}\"", "x".repeat(18));
        store.save_json(&twenty, None).unwrap();
        assert_eq!(
            message(store.save_json(&twenty, None).unwrap_err()),
            "result store would exceed its total limit of 30 bytes; save a smaller projection or re-use an existing handle"
        );
        assert_eq!(store.total_bytes(), 20);
    }
}

#[test]
fn ttl_is_lazy_from_save_time_and_frees_the_slot() {
    let (store, clock) = results({
        let mut config = ResultsConfig::default();
        config.ttl_seconds = 10.0;
        config.max_entries = 1;
        config
    });
    let h = store.save_json("1", None).unwrap();
    clock.advance(10.0);
    assert!(
        store.payload(&h).is_ok(),
        "exactly at the TTL the entry still lives"
    );
    clock.advance(1.0);
    assert!(
        message(store.payload(&h).unwrap_err()).starts_with("unknown or expired result handle")
    );
    assert!(
        store.save_json("2", None).is_ok(),
        "the expired entry's slot is free again"
    );
    assert_eq!(store.total_bytes(), 1);
}

#[test]
fn rust_values_are_saved_in_canonical_form() {
    for backend in backends() {
        let store = backend.results(ResultsConfig::default());
        let h = store
            .save(
                &serde_json::json!({"x": 1.0, "y": "ü", "z": [true, null]}),
                None,
            )
            .unwrap();
        assert_eq!(
            &*store.payload(&h).unwrap(),
            r#"{"x": 1.0, "y": "\u00fc", "z": [true, null]}"#
        );
    }
}

fn artifacts(config: ArtifactsConfig) -> (ArtifactStore, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new());
    (ArtifactStore::with_clock(&config, clock.clone()), clock)
}

#[test]
fn artifact_round_trip_and_describe() {
    for backend in backends() {
        let store = backend.artifacts(ArtifactsConfig::default());
        let data: Vec<u8> = [0u8, 1, 2, 255].repeat(10);
        let h = store.save(&data, Some("r.bin"), Some("L")).unwrap();
        assert!(h.starts_with("art_") && h.len() == 26);
        assert_eq!(store.load(&h).unwrap(), data);
        let info = store.describe(&h).unwrap();
        assert_eq!(
            (
                info.filename.as_str(),
                info.size_bytes,
                info.label.as_deref()
            ),
            ("r.bin", 40, Some("L"))
        );
        let default = store.save(b"x", None, None).unwrap();
        assert_eq!(store.describe(&default).unwrap().filename, "artifact.bin");
        match backend.redis {
            None => {
                let root = store.root_dir().unwrap();
                assert!(root.join(&h).join("r.bin").is_file());
            }
            // On Redis nothing is on this host's disk.
            Some(_) => assert!(store.root_dir().is_none()),
        }
        let listed: Vec<String> = store.list().into_iter().map(|i| i.handle).collect();
        assert_eq!(listed, [h, default]);
    }
}

/// "Oldest first" holds for entries saved within one millisecond too: Redis's index ordered ties
/// by their (random) handles, so a listing of quick saves came out shuffled.
#[test]
fn listings_keep_save_order_within_one_millisecond() {
    for backend in backends() {
        let results = backend.results(ResultsConfig::default());
        let artifacts = backend.artifacts(ArtifactsConfig::default());
        let mut saved_results = Vec::new();
        let mut saved_artifacts = Vec::new();
        // Within the artifact store's default cap of 32 entries.
        for i in 0..30 {
            saved_results.push(results.save_json(&format!("[{i}]"), None).unwrap());
            saved_artifacts.push(artifacts.save(&[i as u8], None, None).unwrap());
        }
        let listed: Vec<String> = results.list().into_iter().map(|i| i.handle).collect();
        assert_eq!(
            listed,
            saved_results,
            "results, redis: {}",
            backend.redis.is_some()
        );
        let listed: Vec<String> = artifacts.list().into_iter().map(|i| i.handle).collect();
        assert_eq!(
            listed,
            saved_artifacts,
            "artifacts, redis: {}",
            backend.redis.is_some()
        );
    }
}

#[test]
fn artifact_filenames_must_be_simple() {
    for backend in backends() {
        let store = backend.artifacts(ArtifactsConfig::default());
        for bad in [
            "../escape.bin",
            "a/b.bin",
            ".hidden",
            "",
            "-x",
            "a b",
            "é.bin",
            "a\n",
        ] {
            let e = message(store.save(b"x", Some(bad), None).unwrap_err());
            assert!(
                e.starts_with("artifact filename must be a simple name like 'report.parquet'"),
                "{bad:?}: {e}"
            );
        }
        assert!(
            store
                .save(b"x", Some("Report_v1.2-final.csv"), None)
                .is_ok()
        );
    }
}

#[test]
fn artifact_caps() {
    for backend in backends() {
        let store = backend.artifacts({
            let mut config = ArtifactsConfig::default();
            config.max_entry_bytes = 8;
            config
        });
        assert_eq!(
            message(store.save(&[0; 9], None, None).unwrap_err()),
            "artifact is 9 bytes, over the per-artifact limit of 8 bytes; save a smaller file"
        );
        let store = backend.artifacts({
            let mut config = ArtifactsConfig::default();
            config.max_entries = 1;
            config
        });
        store.save(b"a", None, None).unwrap();
        assert_eq!(
            message(store.save(b"b", None, None).unwrap_err()),
            "artifact store is full (1 artifacts); re-use an existing handle or save less"
        );
        let store = backend.artifacts({
            let mut config = ArtifactsConfig::default();
            config.max_total_bytes = 10;
            config
        });
        store.save(&[0; 6], None, None).unwrap();
        assert_eq!(
            message(store.save(&[0; 6], None, None).unwrap_err()),
            "artifact store would exceed its total limit of 10 bytes; save a smaller file"
        );
    }
}

#[test]
fn artifact_labels_count_toward_the_caps() {
    for backend in backends() {
        // Labels are host memory: a 100 MB label once stood uncounted beside a 4-byte artifact (the
        // Python original does not count them; we do, as for results).
        let store = backend.artifacts({
            let mut config = ArtifactsConfig::default();
            config.max_entry_bytes = 8;
            config.max_total_bytes = 12;
            config
        });
        let err = store
            .save(b"abcd", None, Some(&"l".repeat(1000)))
            .unwrap_err();
        assert_eq!(
            err.message,
            "artifact is 1004 bytes with its 1000-byte label, over the per-artifact limit of 8 bytes; save a smaller file"
        );
        store.save(b"abcd", None, Some("four")).unwrap();
        let err = store.save(b"abcd", None, Some("ab")).unwrap_err();
        assert!(
            err.message.contains("total limit of 12 bytes"),
            "{}",
            err.message
        );
        store.save(b"ab", None, Some("cd")).unwrap();
    }
}

#[test]
fn artifact_expiry_deletes_the_file() {
    let (store, clock) = artifacts({
        let mut config = ArtifactsConfig::default();
        config.ttl_seconds = 10.0;
        config
    });
    let h = store.save(b"bytes", None, None).unwrap();
    let dir = store.root_dir().unwrap().join(&h);
    assert!(dir.is_dir());
    clock.advance(11.0);
    assert_eq!(
        message(store.load(&h).unwrap_err()),
        format!("unknown or expired artifact handle: '{h}'")
    );
    assert!(!dir.exists(), "expiry removes the bytes from disk");
}

#[test]
fn close_and_disable_remove_the_directory() {
    let (store, _) = artifacts(ArtifactsConfig::default());
    store.save(b"x", None, None).unwrap();
    let root = store.root_dir().unwrap();
    store.close();
    assert!(!root.exists());
    store.save(b"y", None, None).unwrap();
    let root = store.root_dir().unwrap();
    store.disable("artifact store is disabled");
    assert!(!root.exists());
    assert_eq!(
        message(store.save(b"z", None, None).unwrap_err()),
        "artifact store is disabled"
    );
}

#[test]
fn a_deleted_directory_is_recreated() {
    let (store, _) = artifacts(ArtifactsConfig::default());
    store.save(b"x", None, None).unwrap();
    std::fs::remove_dir_all(store.root_dir().unwrap()).unwrap();
    let h = store.save(b"again", None, None).unwrap();
    assert_eq!(store.load(&h).unwrap(), b"again");
}

/// Another local user must not read artifacts: the root and every artifact's directory are 0700 and
/// every file 0600, however permissive the umask (the modes are given at creation, never widened).
#[cfg(unix)]
#[test]
fn artifacts_are_private_to_the_owner_whatever_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    // SAFETY: umask only changes the mode bits of files created while it is set.
    let previous = unsafe { libc::umask(0) };
    let (store, _) = artifacts(ArtifactsConfig::default());
    store.save(b"secret", Some("a.txt"), None).unwrap();
    let root = store.root_dir().unwrap();
    std::fs::remove_dir_all(&root).unwrap();
    let second = store.save(b"again", Some("b.txt"), None).unwrap();
    // SAFETY: as above.
    unsafe { libc::umask(previous) };
    let root = store.root_dir().unwrap();
    assert_eq!(mode(&root), 0o700, "root {root:?}");
    assert_eq!(mode(&root.join(&second)), 0o700);
    assert_eq!(mode(&root.join(&second).join("b.txt")), 0o600);
    let third = store.save(b"more", None, None).unwrap();
    assert_eq!(mode(&root.join(&third)), 0o700);
    assert_eq!(mode(&root.join(&third).join("artifact.bin")), 0o600);
}

#[test]
fn an_overlong_filename_is_refused_for_its_length() {
    for backend in backends() {
        let store = backend.artifacts(ArtifactsConfig::default());
        let long = "a".repeat(300);
        assert_eq!(
            message(store.save(b"x", Some(&long), None).unwrap_err()),
            "artifact filename is 300 bytes long, over the limit of 255 bytes; use a shorter name"
        );
        assert!(store.save(b"x", Some(&"a".repeat(255)), None).is_ok());
        // A long name with a bad character is refused for the character.
        let e = message(
            store
                .save(b"x", Some(&format!("{long}/")), None)
                .unwrap_err(),
        );
        assert!(
            e.starts_with("artifact filename must be a simple name"),
            "{e}"
        );
    }
}

/// On Redis an entry expires by Redis's own TTL (one clock for every replica): gone after
/// `ttl_seconds`, unlisted, and its bytes no longer count.
#[test]
fn redis_entries_expire_by_redis_ttl() {
    let redis = common::RedisServer::start();
    let backend = Backend { redis: Some(redis) };
    let mut config = ResultsConfig::default();
    config.ttl_seconds = 0.3;
    config.max_entries = 1;
    let store = backend.results(config);
    let h = store.save_json("[1]", Some("soon")).unwrap();
    assert_eq!(store.list()[0].label.as_deref(), Some("soon"));
    std::thread::sleep(std::time::Duration::from_millis(600));
    assert_eq!(
        message(store.payload(&h).unwrap_err()),
        format!("unknown or expired result handle: '{h}'")
    );
    assert!(store.list().is_empty());
    // The slot is free again (the save purges the expired entry from the index).
    store.save_json("[2]", None).unwrap();
    assert_eq!(store.total_bytes(), 3);
}

/// Two runtimes on one Redis are two replicas: a client scope of the same name reaches the same
/// entries from both, another name never does, and the caps hold across them even when both save
/// at once (the check and the insert are one script).
#[test]
fn redis_scopes_are_shared_by_name_across_replicas_and_caps_hold_atomically() {
    let redis = common::RedisServer::start();
    let backend = Backend { redis: Some(redis) };
    let mut results = ResultsConfig::default();
    results.max_entries = 25;
    let (one, two) = (
        backend.runtime(results.clone(), ArtifactsConfig::default()),
        backend.runtime(results, ArtifactsConfig::default()),
    );
    let (alice_one, alice_two, bob_two) = (
        one.client_scope("alice"),
        two.client_scope("alice"),
        two.client_scope("bob"),
    );
    let h = alice_one.results().save_json("\"hers\"", None).unwrap();
    assert_eq!(&*alice_two.results().payload(&h).unwrap(), "\"hers\"");
    assert_eq!(
        message(bob_two.results().payload(&h).unwrap_err()),
        format!("unknown or expired result handle: '{h}'")
    );
    // The runtimes' own stores are scopes of their own.
    assert!(one.results().payload(&h).is_err() && two.results().payload(&h).is_err());
    let a = alice_one
        .artifacts()
        .save(b"bytes", Some("f.txt"), Some("L"))
        .unwrap();
    assert_eq!(alice_two.artifacts().load(&a).unwrap(), b"bytes");
    assert_eq!(
        alice_two.artifacts().describe(&a).unwrap().filename,
        "f.txt"
    );
    assert!(bob_two.artifacts().load(&a).is_err());

    // 2 replicas × 40 saves at once into alice's 25 slots (one is taken): exactly 24 succeed.
    let saved = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|threads| {
        for scope in [&alice_one, &alice_two] {
            for _ in 0..4 {
                threads.spawn(|| {
                    for i in 0..10 {
                        match scope.results().save_json(&i.to_string(), None) {
                            Ok(_) => {
                                saved.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                            }
                            Err(e) => assert_eq!(
                                e.message,
                                "result store is full (25 entries); re-use an existing handle or save less"
                            ),
                        }
                    }
                });
            }
        }
    });
    assert_eq!(saved.into_inner(), 24);
    assert_eq!(alice_two.results().list().len(), 25);
}

/// A Redis that is not there: the runtime does not start, and says where it looked without a
/// password; a Redis that goes away mid-life turns saves and loads into store errors, never a panic.
#[test]
fn an_unreachable_redis_is_a_clear_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut config = Config::default();
    config.toolplane.isolation = Some(Isolation::InProcess);
    config.stores.url = format!("redis://:hunter2@127.0.0.1:{port}/0");
    let e = Toolplane::new(config).unwrap_err().to_string();
    assert!(
        e.contains("stores.url: cannot use the store on Redis"),
        "{e}"
    );
    assert!(!e.contains("hunter2"), "{e}");

    let redis = common::RedisServer::start();
    let backend = Backend { redis: Some(redis) };
    let store = backend.results(ResultsConfig::default());
    let h = store.save_json("1", None).unwrap();
    drop(backend);
    assert_eq!(
        message(store.payload(&h).unwrap_err()),
        message(store.save_json("2", None).unwrap_err())
    );
    let e = message(store.save_json("2", None).unwrap_err());
    assert!(e.starts_with("the store on Redis did not answer"), "{e}");
    assert!(store.list().is_empty());
}
