//! Every rule of the result and artifact stores, with the reference's error texts (no VM involved).

use std::sync::Arc;

use toolplane::stores::{ArtifactStore, ManualClock, ResultStore};
use toolplane::{ArtifactsConfig, BuiltinBase, HostError, ResultsConfig};

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
    let (store, _) = results(ResultsConfig::default());
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

#[test]
fn same_label_gives_distinct_handles() {
    let (store, _) = results(ResultsConfig::default());
    let a = store.save_json("[1]", Some("same")).unwrap();
    let b = store.save_json("[2]", Some("same")).unwrap();
    assert_ne!(a, b);
    assert_eq!(&*store.payload(&a).unwrap(), "[1]");
    assert_eq!(&*store.payload(&b).unwrap(), "[2]");
}

#[test]
fn unknown_handle_names_the_handle() {
    let (store, _) = results(ResultsConfig::default());
    assert_eq!(
        message(store.payload("res_nope").unwrap_err()),
        "unknown or expired result handle: 'res_nope'"
    );
}

#[test]
fn disabled_store_refuses_save_and_load() {
    let (store, _) = results({
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
    let (store, _) = results(ResultsConfig::default());
    let h = store.save_json("1", None).unwrap();
    store.disable("results store is disabled");
    assert_eq!(
        message(store.payload(&h).unwrap_err()),
        "results store is disabled"
    );
}

#[test]
fn entry_cap() {
    let (store, _) = results({
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

#[test]
fn per_entry_cap_counts_the_label() {
    let (store, _) = results({
        let mut config = ResultsConfig::default();
        config.max_entry_bytes = 8;
        config
    });
    let big = format!("\"{}\"", "x".repeat(100));
    assert_eq!(
        message(store.save_json(&big, None).unwrap_err()),
        "result is 102 bytes, over the per-entry limit of 8 bytes; save a smaller projection"
    );
    let (store, _) = results({
        let mut config = ResultsConfig::default();
        config.max_entry_bytes = 16;
        config
    });
    let e = message(store.save_json("1", Some(&"l".repeat(100))).unwrap_err());
    assert!(e.contains("per-entry limit"), "{e}");
}

#[test]
fn total_cap() {
    let (store, _) = results({
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
    let (store, _) = results(ResultsConfig::default());
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

fn artifacts(config: ArtifactsConfig) -> (ArtifactStore, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new());
    (ArtifactStore::with_clock(&config, clock.clone()), clock)
}

#[test]
fn artifact_round_trip_and_describe() {
    let (store, _) = artifacts(ArtifactsConfig::default());
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
    let root = store.root_dir().unwrap();
    assert!(root.join(&h).join("r.bin").is_file());
}

#[test]
fn artifact_filenames_must_be_simple() {
    let (store, _) = artifacts(ArtifactsConfig::default());
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

#[test]
fn artifact_caps() {
    let (store, _) = artifacts({
        let mut config = ArtifactsConfig::default();
        config.max_entry_bytes = 8;
        config
    });
    assert_eq!(
        message(store.save(&[0; 9], None, None).unwrap_err()),
        "artifact is 9 bytes, over the per-artifact limit of 8 bytes; save a smaller file"
    );
    let (store, _) = artifacts({
        let mut config = ArtifactsConfig::default();
        config.max_entries = 1;
        config
    });
    store.save(b"a", None, None).unwrap();
    assert_eq!(
        message(store.save(b"b", None, None).unwrap_err()),
        "artifact store is full (1 artifacts); re-use an existing handle or save less"
    );
    let (store, _) = artifacts({
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

#[test]
fn artifact_labels_count_toward_the_caps() {
    // Labels are host memory: a 100 MB label once stood uncounted beside a 4-byte artifact (the
    // Python original does not count them; we do, as for results).
    let (store, _) = artifacts({
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
    let (store, _) = artifacts(ArtifactsConfig::default());
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
