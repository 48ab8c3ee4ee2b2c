//! What a snippet can import, on every path.
//!
//! Three layers:
//! - the interpreter holds only the allowed modules and what they import themselves ([`IMPORT_GRAPH`]):
//!   its frozen standard library and native modules are cut down to that closure, found in their
//!   bytecode (and, for natives, in a table of what their Rust code imports);
//! - the `_imp` functions every finder and loader calls load a module outside the allowlist only once a
//!   module this interpreter loaded imports it itself ([`guard_loaders`]), so `builtins.__import__`,
//!   `importlib.import_module`, a relative import, a loader reached through `object.__subclasses__()`
//!   or a pickle naming a module all stop at the same rule;
//! - a snippet's own `__import__` ([`guarded_import`]) refuses a module outside [`ALLOWED_IMPORTS`]
//!   with a message that says why.

use std::collections::BTreeSet;

use rustpython_vm::function::FuncArgs;
use rustpython_vm::{AsObject as _, PyObjectRef, PyResult, VirtualMachine};

/// Top-level modules a snippet may import. What is not compiled in cannot be imported at all (there is
/// no `posix`, `socket`, `_ctypes`, `select` or file importer in this build); this list is the friendly
/// front door on top of that boundary.
pub const ALLOWED_IMPORTS: &[&str] = &[
    "__future__",
    "abc",
    "array",
    "ast",
    "asyncio",
    "base64",
    "binascii",
    "bisect",
    "builtins",
    "bz2",
    "calendar",
    "cmath",
    "codecs",
    "collections",
    "colorsys",
    "contextlib",
    "contextvars",
    "copy",
    "copyreg",
    "csv",
    "dataclasses",
    "datetime",
    "decimal",
    "difflib",
    "enum",
    "errno",
    "fnmatch",
    "fractions",
    "functools",
    "graphlib",
    "gzip",
    "hashlib",
    "heapq",
    "hmac",
    "html",
    "inspect",
    "io",
    "ipaddress",
    "itertools",
    "json",
    "keyword",
    "logging",
    "lzma",
    "math",
    "numbers",
    "operator",
    "os",
    "pathlib",
    "pickle",
    "pprint",
    "queue",
    "random",
    "re",
    "reprlib",
    "secrets",
    "shlex",
    "stat",
    "statistics",
    "string",
    "struct",
    "sys",
    "textwrap",
    "time",
    "tomllib",
    "traceback",
    "types",
    "typing",
    "unicodedata",
    "urllib",
    "uuid",
    "warnings",
    "weakref",
    "zlib",
];

/// Modules the interpreter itself or our prelude load, besides what the allowed ones import.
const STARTUP_MODULES: &[&str] = &[
    "_frozen_importlib",
    "_frozen_importlib_external",
    "_toolplane",
    "_toolplane_host",
    "_contextvars",
    "_ast",
    // For `_ast.Tuple.dims` (`interpreter::give_ast_tuple_a_native_dims`), also when `_ast` loads late.
    "_operator",
    "codecs",
    "copyreg",
    "encodings",
];

/// What native modules import by name from their Rust code (no bytecode shows it), from RustPython's
/// sources. `builtins` stands for the interpreter's core, which is always loaded.
const NATIVE_IMPORTS: &[(&str, &[&str])] = &[
    (
        "builtins",
        &[
            "_contextvars",
            "_frozen_importlib_external",
            "_pycodecs",
            "_warnings",
            "annotationlib",
            "copy",
            "copyreg",
            "functools",
            "importlib._bootstrap_external",
            "locale",
            "marshal",
            "re",
            "string.templatelib",
            "traceback",
            "typing",
            "warnings",
        ],
    ),
    ("_blake2", &["_hashlib"]),
    ("_datetime", &["_strptime", "time"]),
    ("_md5", &["_hashlib"]),
    (
        "_pickle",
        &[
            "_codecs",
            "_compat_pickle",
            "codecs",
            "copyreg",
            "functools",
        ],
    ),
    ("_sha1", &["_hashlib"]),
    ("_sha256", &["_hashlib"]),
    ("_sha3", &["_hashlib"]),
    ("_sha512", &["_hashlib"]),
    ("array", &["collections.abc"]),
    ("time", &["_strptime"]),
];

/// Packages whose submodules are imported by computed names (`codecs.lookup` imports
/// `encodings.<name>`): all their submodules are held.
const DYNAMIC_PACKAGES: &[&str] = &["encodings"];

/// What the frozen standard library imports: every module an interpreter holds (the allowed modules,
/// what the interpreter and our prelude load, and, transitively, every module their code imports at
/// any depth of the code, a function's lazy `import _strptime` included), and for each the held
/// modules its code (or, for a native one, its Rust code) imports.
///
/// Derived from the bytecode of the frozen modules, which takes tens of milliseconds: too much for the
/// start-up every run waits on. So the graph is a table in the source (`imports/table.rs`), and a
/// test derives it again from the modules this build freezes and fails when the two differ, naming
/// the command that writes the table anew (`derive.rs`).
pub(crate) struct ImportGraph {
    /// Sorted.
    held: &'static [&'static str],
    /// Sorted by module; each list sorted. Modules that import nothing held are left out.
    imports: &'static [(&'static str, &'static [&'static str])],
}

/// The import graph of the frozen standard library and the native modules this build holds.
pub(crate) static IMPORT_GRAPH: ImportGraph = ImportGraph {
    held: table::HELD,
    imports: table::IMPORTS,
};

#[rustfmt::skip]
mod table;

#[cfg(test)]
mod derive;

impl ImportGraph {
    /// Whether an interpreter holds the module `name` at all.
    pub(crate) fn holds(&self, name: &str) -> bool {
        self.held.binary_search(&name).is_ok()
    }

    /// The held modules that `module`'s code imports.
    fn imports_of(&self, module: &str) -> &'static [&'static str] {
        self.imports
            .binary_search_by(|(name, _)| (*name).cmp(module))
            .map_or(&[], |found| self.imports[found].1)
    }
}

impl ImportGraph {
    /// Whether the importer may load `name` now: a module under an allowed top-level name, one the
    /// interpreter needs, or one that a module it already loaded imports itself (`_strptime` once
    /// `datetime` is loaded). `loaded` holds the modules this interpreter's loaders handed out, never
    /// what a snippet put in `sys.modules`. So a snippet reaches, by any path, only the allowed
    /// modules and what they would load on their own.
    fn may_load(&self, name: &str, loaded: &BTreeSet<String>) -> bool {
        if !self.holds(name) {
            return false;
        }
        let top = name.split('.').next().unwrap_or_default();
        ALLOWED_IMPORTS.contains(&top)
            || STARTUP_MODULES.contains(&name)
            || DYNAMIC_PACKAGES.contains(&top)
            || loaded
                .iter()
                .any(|module| self.imports_of(module).contains(&name))
    }
}

impl ImportGraph {
    /// Whether a loaded native module imports `name` from its Rust code (`datetime.strptime` imports
    /// `_strptime`): such an import comes through the calling snippet's `__import__`.
    fn imported_natively(&self, name: &str, loaded: &BTreeSet<String>) -> bool {
        NATIVE_IMPORTS.iter().any(|(native, imports)| {
            imports.contains(&name)
                && (*native == "builtins" || loaded.contains(*native))
                && self.holds(name)
        })
    }
}

/// Puts the import check where every path to a module's code passes: the `_imp` functions the
/// importer's finders and loaders call (`find_frozen`, `is_builtin`, `create_builtin`,
/// `get_frozen_object`, ...). Whether a snippet calls `__import__`, `builtins.__import__`,
/// `importlib.import_module`, a loader it found through `object.__subclasses__()`, or `_imp` itself,
/// a module that [`ImportGraph::may_load`] refuses is not found. The originals are held by the native
/// replacements only, out of a snippet's reach. Called once the interpreter's own imports are done:
/// what is in `sys.modules` then was loaded by the interpreter, not a snippet. Returns the snippets'
/// `__import__` ([`guarded_import`]), which shares what the loaders handed out.
pub(crate) fn guard_loaders(vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    use std::cell::RefCell;
    use std::rc::Rc;
    let graph = &IMPORT_GRAPH;
    let modules = vm.sys_module.get_attr("modules", vm)?;
    let loaded: BTreeSet<String> = modules
        .downcast::<rustpython_vm::builtins::PyDict>()
        .map_err(|_| vm.new_runtime_error("sys.modules is not a dict"))?
        .keys_vec()
        .iter()
        .filter_map(|key| key.downcast_ref::<rustpython_vm::builtins::PyStr>())
        .map(|key| key.to_string())
        .collect();
    let started_with = Rc::new(loaded.clone());
    let loaded = Rc::new(RefCell::new(loaded));
    let imp = vm.import("_imp", 0)?;
    // (function, what it answers for a module that may not load: `None` = raise ImportError,
    // whether a success means the module's code or module was handed out)
    type Refusal = Option<fn(&VirtualMachine) -> PyObjectRef>;
    let guarded: [(&'static str, Refusal, bool); 7] = [
        ("find_frozen", Some(|vm| vm.ctx.none()), true),
        ("is_frozen", Some(|vm| vm.ctx.new_bool(false).into()), false),
        ("is_builtin", Some(|vm| vm.ctx.new_int(0).into()), false),
        ("is_frozen_package", None, false),
        ("get_frozen_object", None, true),
        ("init_frozen", None, true),
        ("create_builtin", None, true),
    ];
    for (function, refusal, hands_out) in guarded {
        let original = imp.get_attr(function, vm)?;
        let loaded = loaded.clone();
        let started_with = started_with.clone();
        let check = move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
            let name = module_name_argument(function, &args, vm)?;
            // A native module made again would come with its original functions: `_imp`'s among
            // them, unguarded.
            let made_again = function == "create_builtin"
                && started_with.contains(&name)
                && vm
                    .sys_module
                    .get_attr("modules", vm)?
                    .get_item(name.as_str(), vm)
                    .is_err();
            if !made_again && graph.may_load(&name, &loaded.borrow()) {
                let answer = original.call(args, vm)?;
                if function == "create_builtin" && name == "_ast" {
                    // `_ast` alone needs this: it is the one module `prepare` patches, and an interpreter
                    // built alone (`interpreter::build_alone`) loads it late. As at start-up, `Tuple`
                    // gets its native `dims` (else `ast.py` hangs Python code on it) and the node
                    // classes, built-in types, are frozen before any code can reach them. Every import
                    // path to `_ast`, `compile(..., PyCF_ONLY_AST)`'s included, passes here.
                    super::interpreter::give_ast_tuple_a_native_dims(vm, &answer)?;
                    super::interpreter::freeze_builtin_types(vm);
                }
                if hands_out && !vm.is_none(&answer) {
                    loaded.borrow_mut().insert(name);
                }
                return Ok(answer);
            }
            match refusal {
                Some(answer) => Ok(answer(vm)),
                None => Err(
                    vm.new_import_error(format!("No module named '{name}'"), vm.ctx.new_str(name))
                ),
            }
        };
        imp.set_attr(function, vm.new_function(function, check), vm)?;
    }
    let import = move |args: FuncArgs, vm: &VirtualMachine| -> PyResult {
        guarded_import(args, vm, &|name| {
            graph.imported_natively(name, &loaded.borrow())
        })
    };
    Ok(vm.new_function("__import__", import).into())
}

/// The module an `_imp` function is asked about: its `name` argument, or `spec.name` for
/// `create_builtin(spec)`.
fn module_name_argument(function: &str, args: &FuncArgs, vm: &VirtualMachine) -> PyResult<String> {
    let argument = args
        .args
        .first()
        .or_else(|| {
            args.kwargs.get(if function == "create_builtin" {
                "spec"
            } else {
                "name"
            })
        })
        .ok_or_else(|| vm.new_type_error(format!("{function}() missing its first argument")))?;
    let name = if function == "create_builtin" {
        argument.get_attr("name", vm)?
    } else {
        argument.clone()
    };
    name.downcast_ref::<rustpython_vm::builtins::PyStr>()
        .map(|name| name.to_string())
        .ok_or_else(|| vm.new_type_error(format!("{function}(): the module name must be a str")))
}

/// The absolute name a relative import (`level` > 0) of `name` stands for, from the `globals` it is
/// given (`__package__`, else `__name__`), as the importer resolves it; `None` when it has no package
/// (the importer then refuses it).
fn resolve_relative(
    args: &rustpython_vm::function::FuncArgs,
    name: &str,
    level: i64,
    vm: &VirtualMachine,
) -> Option<String> {
    let globals = args.args.get(1).or_else(|| args.kwargs.get("globals"))?;
    let text = |key: &str| -> Option<String> {
        let value = globals.get_item(key, vm).ok()?;
        value
            .downcast_ref::<rustpython_vm::builtins::PyStr>()
            .map(|s| s.to_string())
    };
    let package = text("__package__").filter(|p| !p.is_empty()).or_else(|| {
        let module = text("__name__")?;
        let is_package = globals.get_item("__path__", vm).is_ok();
        Some(if is_package {
            module
        } else {
            module
                .rsplit_once('.')
                .map_or(String::new(), |(parent, _)| parent.to_string())
        })
    })?;
    let mut base = package.as_str();
    for _ in 1..level {
        base = base.rsplit_once('.').map_or("", |(parent, _)| parent);
    }
    if base.is_empty() {
        return None;
    }
    Some(if name.is_empty() {
        base.to_string()
    } else {
        format!("{base}.{name}")
    })
}

/// `__import__` for snippets: a module outside the allowlist, that no loaded module imports itself,
/// gets a friendly error (relative imports checked by the name they resolve to); the rest go to the
/// real importer, whose loaders are guarded too ([`guard_loaders`]).
fn guarded_import(
    args: FuncArgs,
    vm: &VirtualMachine,
    imported_natively: &dyn Fn(&str) -> bool,
) -> PyResult {
    let name: Option<String> = args.args.first().and_then(|n| {
        n.downcast_ref::<rustpython_vm::builtins::PyStr>()
            .map(|s| s.to_string())
    });
    let level = args
        .args
        .get(4)
        .or_else(|| args.kwargs.get("level"))
        .and_then(|l| l.try_to_value::<i64>(vm).ok())
        .unwrap_or(0);
    // A relative import is checked by the module it names: `__import__('', {'__package__':
    // 'subprocess'}, None, ['x'], 1)` is an import of `subprocess`.
    let resolved = match (&name, level) {
        (Some(name), 0) => Some(name.clone()),
        (Some(name), level) => resolve_relative(&args, name, level, vm),
        (None, _) => None,
    };
    // Outside the allowlist, a snippet's import is refused, and told why. The standard library's own
    // imports come here too (a module a snippet imports runs with the snippet's builtins, and a native
    // module imports through the calling frame's): those go to the importer, whose loaders decide
    // ([`guard_loaders`]) — which is also what holds when a snippet passes itself off as a module.
    let refused_top = resolved.as_deref().and_then(|name| {
        let top = name.split('.').next().unwrap_or_default();
        (!ALLOWED_IMPORTS.contains(&top)).then(|| (name.to_string(), top.to_string()))
    });
    if let Some((name, top)) = &refused_top
        && !imported_natively(name)
        && !imported_by_a_module(&args, vm)
    {
        return Err(not_in_the_sandbox(name, top, vm));
    }
    let real_import: PyObjectRef = vm.builtins.get_attr("__import__", vm)?;
    let modules = vm.sys_module.get_attr("modules", vm)?;
    let loaded_before = modules.length(vm)?;
    let module = real_import
        .call(args, vm)
        .map_err(|error| match &refused_top {
            Some((name, top))
                if error.fast_isinstance(vm.ctx.exceptions.module_not_found_error)
                    && error
                        .as_object()
                        .get_attr("name", vm)
                        .ok()
                        .and_then(|missing| {
                            missing
                                .downcast_ref::<rustpython_vm::builtins::PyStr>()
                                .map(|m| m.to_string())
                        })
                        .is_some_and(|missing| missing == *name || missing == *top) =>
            {
                not_in_the_sandbox(name, top, vm)
            }
            _ => error,
        })?;
    if modules.length(vm)? != loaded_before {
        super::interpreter::freeze_builtin_types(vm);
    }
    if name.as_deref() == Some("json") && level == 0 {
        // Native json.dumps / json.loads for the default arguments (see `_toolplane.fast_json`).
        let prelude = vm
            .sys_module
            .get_attr("modules", vm)?
            .get_item("_toolplane", vm)?;
        prelude
            .get_attr("fast_json", vm)?
            .call((module.clone(),), vm)?;
    }
    Ok(module)
}

/// Whether an `__import__` call comes from the code of a loaded module: its `globals` are the namespace
/// of the module `sys.modules` holds under their `__name__`.
fn imported_by_a_module(args: &FuncArgs, vm: &VirtualMachine) -> bool {
    let Some(globals) = args.args.get(1).or_else(|| args.kwargs.get("globals")) else {
        return false;
    };
    let Ok(name) = globals.get_item("__name__", vm) else {
        return false;
    };
    let module = vm
        .sys_module
        .get_attr("modules", vm)
        .and_then(|modules| modules.get_item(&*name, vm));
    module
        .and_then(|module| module.get_attr("__dict__", vm))
        .is_ok_and(|namespace| namespace.is(globals))
}

/// The `ModuleNotFoundError` a snippet gets for a module outside the sandbox (`name` = its top level).
fn not_in_the_sandbox(
    name: &str,
    top: &str,
    vm: &VirtualMachine,
) -> rustpython_vm::builtins::PyBaseExceptionRef {
    let exc = vm.new_exception_msg(
        vm.ctx.exceptions.module_not_found_error.to_owned(),
        format!(
            "No module named '{name}' in the toolplane sandbox: only a curated standard library is \
             available (json, re, datetime, collections, math, ...), with no host files, network or \
             processes; reach the outside world through the capabilities (call_tool)"
        )
        .into(),
    );
    let _ = exc.as_object().set_attr("name", vm.ctx.new_str(top), vm);
    exc
}
