//! Derives the import graph from the bytecode of the modules this build freezes, and checks it against
//! the table in `table.rs` (which the runtime uses, so that no start-up pays for the derivation).
//!
//! When the frozen standard library, the shims in `stdlib-shims/`, the native modules or the lists in
//! `imports.rs` change, the check fails; `TOOLPLANE_BLESS=1 cargo t --lib import_graph` writes the
//! table anew, and the diff shows what a snippet can now reach.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use rustpython_vm::bytecode::{CodeObject, ConstantData, Instruction, OpArgState};
use rustpython_vm::frozen::FrozenModule;

use super::{ALLOWED_IMPORTS, DYNAMIC_PACKAGES, IMPORT_GRAPH, NATIVE_IMPORTS, STARTUP_MODULES};

/// The graph as derived: every held module, and the held modules each imports.
struct Derived {
    held: BTreeSet<String>,
    imports: HashMap<String, BTreeSet<String>>,
}

fn closure(frozen: HashMap<&str, FrozenModule>, natives: BTreeSet<&str>) -> Derived {
    let exists = |name: &str| frozen.contains_key(name) || natives.contains(name);
    let mut held = BTreeSet::new();
    let mut imports = HashMap::new();
    let mut todo: Vec<String> = ALLOWED_IMPORTS
        .iter()
        .chain(STARTUP_MODULES)
        .chain(&["builtins"])
        .map(|name| name.to_string())
        .collect();
    for package in DYNAMIC_PACKAGES {
        let prefix = format!("{package}.");
        todo.extend(
            frozen
                .keys()
                .filter(|name| name.starts_with(&prefix))
                .map(|name| name.to_string()),
        );
    }
    while let Some(name) = todo.pop() {
        if !exists(&name) || held.contains(&name) {
            continue;
        }
        // Importing `a.b.c` imports `a` and `a.b` first.
        let mut parent = name.as_str();
        while let Some((up, _)) = parent.rsplit_once('.') {
            todo.push(up.to_string());
            parent = up;
        }
        if let Some((_, names)) = NATIVE_IMPORTS.iter().find(|(native, _)| *native == name) {
            let found: BTreeSet<String> = names
                .iter()
                .filter(|module| exists(module))
                .map(|module| module.to_string())
                .collect();
            todo.extend(found.iter().cloned());
            imports.insert(name.clone(), found);
        }
        if let Some(module) = frozen.get(name.as_str()) {
            let code = module.code.decode(rustpython_vm::bytecode::BasicBag);
            let package = if module.package {
                name.as_str()
            } else {
                name.rsplit_once('.').map_or("", |(up, _)| up)
            };
            let mut found = Vec::new();
            imports_in(&code, package, &mut found);
            // Importing `a.b` imports the package `a` first.
            let parents: Vec<String> = found
                .iter()
                .flat_map(|module| {
                    module
                        .match_indices('.')
                        .map(|(dot, _)| module[..dot].to_string())
                        .collect::<Vec<_>>()
                })
                .collect();
            found.extend(parents);
            found.retain(|module| exists(module));
            todo.extend(found.iter().cloned());
            imports.insert(name.clone(), found.into_iter().collect());
        }
        held.insert(name);
    }
    Derived { held, imports }
}

/// Pushes every module name `code` (and the code nested in it) may import onto `out`: each
/// `import n` as `n` and, read as a relative import, under each package enclosing `package`; each
/// `from m import x` also as the submodule `m.x`. Names that are no module are dropped later.
fn imports_in(code: &CodeObject<ConstantData>, package: &str, out: &mut Vec<String>) {
    let mut bases = vec![""];
    let mut enclosing = package;
    loop {
        bases.push(enclosing);
        match enclosing.rsplit_once('.') {
            Some((up, _)) => enclosing = up,
            None => break,
        }
    }
    let joined = |base: &str, name: &str| match (base.is_empty(), name.is_empty()) {
        (true, _) => name.to_string(),
        (false, true) => base.to_string(),
        (false, false) => format!("{base}.{name}"),
    };
    let mut state = OpArgState::default();
    let mut imported: Vec<String> = Vec::new();
    for unit in code.instructions.iter() {
        let (op, arg) = state.get(*unit);
        let Some(name) = code.names.get(u32::from(arg) as usize) else {
            continue;
        };
        match op {
            Instruction::ImportName { .. } => {
                imported = bases.iter().map(|base| joined(base, name)).collect();
                out.extend(imported.iter().cloned());
            }
            Instruction::ImportFrom { .. } => {
                out.extend(imported.iter().map(|module| joined(module, name)));
            }
            _ => {}
        }
    }
    for constant in code.constants.iter() {
        if let ConstantData::Code { code } = constant {
            imports_in(code, package, out);
        }
    }
}

/// The text of `table.rs` for a derived graph: sorted, one module a line, modules that import nothing
/// held left out of `IMPORTS`.
fn render(graph: &Derived) -> String {
    let mut text = String::from(
        "//! The import graph of the frozen standard library (see `ImportGraph`).\n\
         //! Generated by `TOOLPLANE_BLESS=1 cargo t --lib import_graph` (src/vm/imports/derive.rs): do not edit.\n\n\
         /// Every module an interpreter holds, sorted.\n\
         pub(super) const HELD: &[&str] = &[\n",
    );
    for name in &graph.held {
        let _ = writeln!(text, "    {name:?},");
    }
    text.push_str(
        "];\n\n/// The held modules each held module imports, sorted by module; each list sorted.\n\
         pub(super) const IMPORTS: &[(&str, &[&str])] = &[\n",
    );
    let sorted: BTreeMap<_, _> = graph.imports.iter().collect();
    for (module, imports) in sorted {
        if imports.is_empty() {
            continue;
        }
        let list: Vec<String> = imports.iter().map(|name| format!("{name:?}")).collect();
        let _ = writeln!(text, "    ({module:?}, &[{}]),", list.join(", "));
    }
    text.push_str("];\n");
    text
}

#[test]
fn import_graph_table_matches_the_frozen_modules() {
    let (frozen, natives) = crate::vm::interpreter::unpruned_modules();
    let derived = closure(frozen.into_iter().collect(), natives.into_iter().collect());
    let expected = render(&derived);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/vm/imports/table.rs");
    let current = std::fs::read_to_string(path).unwrap_or_default();
    if current == expected {
        return;
    }
    if std::env::var_os("TOOLPLANE_BLESS").is_some() {
        std::fs::write(path, &expected).expect("write the import graph table");
        return;
    }
    panic!(
        "src/vm/imports/table.rs is not the import graph of the modules this build freezes; \
         `TOOLPLANE_BLESS=1 cargo t --lib import_graph` writes it anew (review its diff)"
    );
}

#[test]
fn import_graph_answers_from_the_table() {
    assert!(IMPORT_GRAPH.holds("json"));
    assert!(IMPORT_GRAPH.holds("json.decoder"));
    assert!(!IMPORT_GRAPH.holds("gc"), "a removed native module");
    assert!(!IMPORT_GRAPH.holds("_posixsubprocess"), "not compiled in");
    assert!(IMPORT_GRAPH.imports_of("json").contains(&"json.decoder"));
    assert!(IMPORT_GRAPH.imports_of("no such module").is_empty());
}
