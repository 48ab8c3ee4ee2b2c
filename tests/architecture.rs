//! The rooms of `docs/architecture.md`, read off the sources: which top-level module of the crate names
//! which other (`crate::x` in code, not in comments or doc links; a root re-export such as
//! `crate::Toolplane` counts as a breach, since it hides the module it comes from), checked against the
//! dependencies the architecture allows, and checked to have no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each room and the rooms it may use (docs/architecture.md → Layout).
const ALLOWED: &[(&str, &[&str])] = &[
    ("namespace", &[]),
    ("host_error", &[]),
    ("canonical", &[]),
    ("execution", &[]),
    ("cancel", &[]),
    ("error", &["host_error"]),
    ("config", &["error"]),
    ("audit", &["config", "namespace"]),
    ("secrets", &["config"]),
    ("stores", &["canonical", "config", "host_error"]),
    (
        "capabilities",
        &[
            "audit",
            "canonical",
            "config",
            "error",
            "host_error",
            "namespace",
            "stores",
        ],
    ),
    (
        "vm",
        &[
            "cancel",
            "canonical",
            "capabilities",
            "execution",
            "namespace",
            "stores",
        ],
    ),
    (
        "engine",
        &[
            "audit",
            "cancel",
            "capabilities",
            "config",
            "execution",
            "host_error",
            "vm",
        ],
    ),
    ("sandbox", &["vm"]),
    (
        "commands",
        &[
            "audit",
            "canonical",
            "capabilities",
            "config",
            "host_error",
            "namespace",
        ],
    ),
    (
        "mcp_client",
        &["audit", "capabilities", "config", "engine", "secrets"],
    ),
    (
        "runtime",
        &[
            "audit",
            "cancel",
            "capabilities",
            "commands",
            "config",
            "engine",
            "error",
            "execution",
            "mcp_client",
            "namespace",
            "stores",
            "vm",
        ],
    ),
    (
        "mcp",
        &[
            "audit",
            "cancel",
            "capabilities",
            "commands",
            "config",
            "error",
            "execution",
            "namespace",
            "runtime",
            "stores",
        ],
    ),
    (
        "cli",
        &[
            "canonical",
            "capabilities",
            "commands",
            "config",
            "engine",
            "error",
            "execution",
            "mcp",
            "mcp_client",
            "namespace",
            "runtime",
            "sandbox",
            "secrets",
        ],
    ),
];

/// The top-level module a source file belongs to.
fn room_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    first.to_string_lossy().trim_end_matches(".rs").to_string()
}

fn rust_files(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// What each room names of the others: `room → {(named room, first place it is named)}`.
fn edges() -> BTreeMap<String, BTreeMap<String, String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for file in files {
        let room = room_of(&src, &file);
        if room == "lib" || room == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let mut rest = line;
            while let Some(at) = rest.find("crate::") {
                let before = &rest[..at];
                let after = &rest[at + "crate::".len()..];
                rest = after;
                // An intra-doc link target, `[..](crate::x)`, is documentation, not an edge.
                if before.ends_with("](") || before.ends_with("::") {
                    continue;
                }
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name.is_empty() || name == room {
                    continue;
                }
                edges
                    .entry(room.clone())
                    .or_default()
                    .entry(name)
                    .or_insert_with(|| {
                        format!(
                            "{}:{}",
                            file.strip_prefix(&src).unwrap().display(),
                            number + 1
                        )
                    });
            }
        }
    }
    edges
}

#[test]
fn rooms_use_only_what_the_architecture_allows() {
    let allowed: BTreeMap<&str, BTreeSet<&str>> = ALLOWED
        .iter()
        .map(|(room, uses)| (*room, uses.iter().copied().collect()))
        .collect();
    let mut breaches = Vec::new();
    for (room, named) in edges() {
        let Some(may_use) = allowed.get(room.as_str()) else {
            breaches.push(format!("{room}: a room docs/architecture.md does not list"));
            continue;
        };
        for (other, at) in named {
            if !may_use.contains(other.as_str()) {
                breaches.push(format!("{room} uses crate::{other} at {at}"));
            }
        }
    }
    assert!(breaches.is_empty(), "{}", breaches.join("\n"));
}

#[test]
fn the_allowed_dependencies_have_no_cycle() {
    // Depth-first search over the allowed graph (which the sources are checked against above).
    let graph: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    fn visit<'a>(
        room: &'a str,
        graph: &BTreeMap<&'a str, &'a [&'a str]>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) {
        if done.contains(room) {
            return;
        }
        assert!(
            !path.contains(&room),
            "a cycle: {} -> {room}",
            path.join(" -> ")
        );
        path.push(room);
        for next in graph.get(room).copied().unwrap_or_default() {
            visit(next, graph, path, done);
        }
        path.pop();
        done.insert(room);
    }
    let mut done = BTreeSet::new();
    for room in graph.keys() {
        visit(room, &graph, &mut Vec::new(), &mut done);
    }
}

/// The library prints nothing of its own: it emits `tracing` events, which an embedding application
/// routes, filters or drops (the CLI's subscriber prints them). Only the CLI prints, and the processes
/// the library starts print to their own stderr: a worker, and a server jail's launcher (whose stderr is
/// the server's, passed on as the server's events). Tests (`mod tests` to the end of a file) may print.
#[test]
fn the_library_does_not_print() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let own_processes = ["engine/worker.rs", "engine/server_jail.rs"];
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut prints = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap().display().to_string();
        if relative.starts_with("cli/")
            || relative == "main.rs"
            || own_processes.contains(&relative.as_str())
        {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.starts_with("mod tests") {
                break;
            }
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if [
                "eprintln!",
                "println!",
                "eprint!(",
                "print!(",
                "io::stderr()",
                "io::stdout()",
            ]
            .iter()
            .any(|print| code.contains(print))
            {
                prints.push(format!("{relative}:{}: {code}", number + 1));
            }
        }
    }
    assert!(prints.is_empty(), "{}", prints.join("\n"));
}
