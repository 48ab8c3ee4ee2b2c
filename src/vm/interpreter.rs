//! The locked-down interpreter: no host modules compiled in, risky modules removed, a frozen stdlib,
//! our shims, and a private `__builtins__` whose `__import__` only admits an allowlist.

use rustpython_vm::builtins::{PyDictRef, PyModule};
use rustpython_vm::signal::{UserSignalSender, user_signal_channel};
use rustpython_vm::{
    AsObject as _, Interpreter, PyObjectRef, PyRef, PyResult, Settings, VirtualMachine,
};

/// Python modules we ship into the sandbox (`stdlib-shims/`), frozen into the binary.
static SHIMS: &rustpython_vm::frozen::FrozenLib =
    rustpython_vm::py_freeze!(dir = "../../stdlib-shims");

/// Native modules removed from the interpreter before it starts: they give a snippet nothing but risk
/// (crafted bytecode, sub-interpreters, test hooks, heap walks).
const REMOVED_NATIVE_MODULES: &[&str] = &[
    "_interpreters",
    "_interpchannels",
    "_interpqueues",
    "_testinternalcapi",
    "_remote_debugging",
    "gc",
    "_symtable",
];

/// One interpreter, set up for snippets.
pub(crate) struct SandboxVm {
    pub interp: Interpreter,
    pub signal_tx: UserSignalSender,
    pub prelude: PyRef<PyModule>,
    pub builtins: PyDictRef,
    /// The stream an ending interpreter prints to, made before any snippet ran: a snippet may replace
    /// the prelude's `DiscardStream`, and its replacement must not run when the interpreter ends.
    sink: PyObjectRef,
    /// The last fresh run's finished frame, when its locals hold only plain data: freeing them (a
    /// large result loaded with `load_result`, say) is left to the end of this interpreter — after the
    /// reply; never, in a process child, which exits — instead of inside the run. See
    /// `snippet::keep_plain_locals`.
    pub(crate) kept_frame: std::cell::RefCell<Option<PyObjectRef>>,
}

/// How long Python code may run while an interpreter ends (a snippet object's `__del__`, freed by the
/// final collections) before it is interrupted at every instruction: no run's limit covers that time.
const ENDING_LIMIT: std::time::Duration = std::time::Duration::from_secs(1);

impl SandboxVm {
    /// Imports `name` outside any run (the zygote warms its children's imports this way).
    pub(crate) fn pre_import(&self, name: &'static str) {
        self.interp.enter(|vm| {
            let _ = vm.import(name, 0);
        });
    }

    /// Reseeds the `random` module's shared generator when the zygote imported it (`statistics` does):
    /// its Mersenne Twister state is a copy of the zygote's, so every child would otherwise draw the
    /// same sequence. The zygote never runs a snippet, so `random.seed` here is the module's own.
    pub(crate) fn reseed_random_module(&self) {
        self.interp.enter(|vm| {
            let random = vm
                .sys_module
                .get_attr("modules", vm)
                .and_then(|modules| modules.get_item("random", vm));
            if let Ok(random) = random {
                let _ = random
                    .get_attr("seed", vm)
                    .and_then(|seed| seed.call((), vm));
            }
        });
    }

    /// Ends the interpreter outside any run: the atexit handlers a snippet registered are dropped, not
    /// run; its streams point at a sink, since what it prints while ending (an unflushable stream, a
    /// snippet object's `__del__` that raises) would otherwise reach the host's own stderr; and Python
    /// code that runs meanwhile is held to [`ENDING_LIMIT`]: a `__del__` that never returns must not
    /// stall the thread's next run.
    pub(crate) fn finalize(self) {
        // Armed first: setting a stream drops the old one, whose `__del__` may be a snippet's.
        let _limit = self.time_limit(ENDING_LIMIT);
        self.interp.enter(|vm| {
            drop(self.kept_frame.take());
            vm.state.atexit_funcs.lock().clear();
            let _ = vm.sys_module.set_attr("stdout", self.sink.clone(), vm);
            let _ = vm.sys_module.set_attr("stderr", self.sink.clone(), vm);
        });
        self.interp.finalize(None);
    }

    /// Runs a full collection now, outside any run: a `__del__` it calls is held to [`ENDING_LIMIT`].
    pub(crate) fn collect_garbage(&self) {
        let _limit = self.time_limit(ENDING_LIMIT);
        self.interp.enter(|vm| {
            vm.state.gc.collect_force(2);
        });
    }

    /// Interrupts whatever Python code this interpreter runs past `limit`, at every instruction, until
    /// the guard is dropped (for work outside a run: no memory limit).
    fn time_limit(&self, limit: std::time::Duration) -> super::limits::Watchdog {
        let flags = super::limits::RunFlags::new(limit, usize::MAX >> 20, None);
        super::limits::Watchdog::start(std::sync::Arc::new(flags), self.signal_tx.clone())
    }
}

fn settings() -> Settings {
    let mut settings = Settings::default();
    settings.import_site = false;
    settings.install_signal_handlers = false;
    settings.ignore_environment = true;
    settings.isolated = true;
    settings.user_site_directory = false;
    settings.write_bytecode = false;
    settings.safe_path = true;
    // RustPython's last-resort reports (a raising `sys.unraisablehook`, an exception with no usable
    // `sys.stderr`) would otherwise reach the host's own stderr or stdout: the stdio MCP server's
    // protocol stream, in process. They are dropped (vendor/README.md).
    settings.host_stdio_fallback = false;
    // `encodings` (and `codecs`) load with the first codec lookup that needs them, not on every start:
    // UTF-8, ASCII and Latin-1 never do (vendor/README.md).
    settings.import_encodings_at_startup = false;
    settings
}

/// An interpreter builder with every module this build compiles in (the standard library's natives
/// less [`REMOVED_NATIVE_MODULES`], our host module, the frozen standard library and our shims), not yet
/// cut down to the import graph; and our `marshal`, which replaces the native one.
fn with_all_modules(
    settings: Settings,
) -> (
    rustpython_vm::InterpreterBuilder,
    &'static rustpython_vm::builtins::PyModuleDef,
) {
    let builder = Interpreter::builder(settings);
    let defs: Vec<_> = rustpython_stdlib::stdlib_module_defs(&builder.ctx)
        .into_iter()
        .filter(|def| !REMOVED_NATIVE_MODULES.contains(&def.name.as_str()))
        .collect();
    let host = super::externals::_toolplane_host::module_def(&builder.ctx);
    let marshal = super::externals::safe_marshal::module_def(&builder.ctx);
    let builder = builder
        .add_native_modules(&defs)
        .add_native_module(host)
        .add_frozen_modules(rustpython_pylib::FROZEN_STDLIB)
        .add_frozen_modules(SHIMS);
    (builder, marshal)
}

impl SandboxVm {
    /// Builds and prepares an interpreter. Must be called on the thread that will use it.
    pub(crate) fn build(recursion_limit: usize) -> Result<Self, String> {
        build_with(recursion_limit, true)
    }

    /// [`SandboxVm::build`] for an interpreter that will be the only one its thread and process ever
    /// hold (the process engine's zygote, the in-process engine's first-run thread): `_ast` is imported
    /// when a run first asks for it, not on every start. Where interpreters share a thread they share
    /// its AST node classes, whose class attributes each start sets afresh, so there it stays eager.
    pub(crate) fn build_alone(recursion_limit: usize) -> Result<Self, String> {
        build_with(recursion_limit, false)
    }
}

fn build_with(recursion_limit: usize, import_ast_at_startup: bool) -> Result<SandboxVm, String> {
    let (signal_tx, signal_rx) = user_signal_channel();
    let mut settings = settings();
    settings.import_ast_at_startup = import_ast_at_startup;
    let (builder, marshal) = with_all_modules(settings);
    let interp = builder
        .init_hook(move |vm| {
            vm.set_user_signal_channel(signal_rx);
            if let Some(state) = rustpython_vm::common::rc::PyRc::get_mut(&mut vm.state) {
                for name in REMOVED_NATIVE_MODULES {
                    state.module_defs.remove(name);
                }
                let graph = &super::imports::IMPORT_GRAPH;
                state.frozen.retain(|name, _| graph.holds(name));
                state.module_defs.retain(|name, _| graph.holds(name));
                state.module_defs.insert("marshal", marshal);
            }
        })
        .build();
    let prepared = interp.enter(|vm| prepare(vm, recursion_limit).map_err(|e| describe(vm, &e)));
    let (prelude, builtins) = prepared?;
    let sink = interp.enter(|vm| {
        prelude
            .as_object()
            .get_attr("DiscardStream", vm)
            .and_then(|class| class.call((), vm))
            .map_err(|e| describe(vm, &e))
    })?;
    Ok(SandboxVm {
        interp,
        signal_tx,
        prelude,
        builtins,
        sink,
        kept_frame: Default::default(),
    })
}

/// Every frozen module and the names of every native module an interpreter starts with before it is cut
/// down to the import graph: what the graph is derived from (`imports/derive.rs`).
#[cfg(test)]
pub(super) fn unpruned_modules() -> (
    Vec<(&'static str, rustpython_vm::frozen::FrozenModule)>,
    Vec<&'static str>,
) {
    type Inventory = (
        Vec<(&'static str, rustpython_vm::frozen::FrozenModule)>,
        Vec<&'static str>,
    );
    let found: std::rc::Rc<std::cell::RefCell<Option<Inventory>>> = Default::default();
    let sink = found.clone();
    let (builder, _) = with_all_modules(settings());
    let _interp = builder
        .init_hook(move |vm| {
            let frozen = vm.state.frozen.iter().map(|(name, m)| (*name, *m));
            let natives = vm.state.module_defs.keys().copied();
            let natives = natives.filter(|name| !REMOVED_NATIVE_MODULES.contains(name));
            *sink.borrow_mut() = Some((frozen.collect(), natives.collect()));
        })
        .build();
    found.take().expect("the init hook ran")
}

fn describe(vm: &VirtualMachine, exc: &rustpython_vm::builtins::PyBaseExceptionRef) -> String {
    let mut text = String::new();
    let _ = vm.write_exception(&mut text, exc);
    text
}

fn prepare(vm: &VirtualMachine, recursion_limit: usize) -> PyResult<(PyRef<PyModule>, PyDictRef)> {
    // Modules that were imported during start-up but must not stay reachable.
    let sys_modules = vm.sys_module.get_attr("modules", vm)?;
    for name in REMOVED_NATIVE_MODULES {
        let _ = sys_modules.del_item(*name, vm);
    }
    super::externals::set_max_recursion(recursion_limit);
    vm.recursion_limit.set(recursion_limit);
    // No `os` here: a snippet or module that wants it imports it (our shim, which also answers for
    // `posix`: the stdlib modules that probe `posix` import `os` first). Every run would pay for it.
    let prelude_obj = vm.import("_toolplane", 0)?;
    let prelude = prelude_obj
        .downcast::<PyModule>()
        .map_err(|_| vm.new_runtime_error("the toolplane prelude is not a module"))?;
    let host = vm.import("_toolplane_host", 0)?;
    let time = vm.import("time", 0)?;
    time.set_attr("sleep", host.get_attr("sleep", vm)?, vm)?;
    vm.sys_module.set_attr(
        "setrecursionlimit",
        host.get_attr("setrecursionlimit", vm)?,
        vm,
    )?;

    // Uncatchable errors go to the run's own stderr, never the host's.
    let unraisable = host.get_attr("unraisable_hook", vm)?;
    vm.sys_module
        .set_attr("unraisablehook", unraisable.clone(), vm)?;
    vm.sys_module
        .set_attr("__unraisablehook__", unraisable, vm)?;

    lock_code_type(vm, &host)?;
    scrub_host_facts(vm, &time)?;
    prelude
        .as_object()
        .get_attr("utc_as_local_time", vm)?
        .call((time.clone(),), vm)?;
    route_codecs_to_this_interpreter(vm, prelude.as_object())?;
    // Loaded later, `_ast` gets the same when it loads ([`super::imports::guard_loaders`]).
    if vm.state.config.settings.import_ast_at_startup {
        give_ast_tuple_a_native_dims(vm, &vm.import("_ast", 0)?)?;
    }
    load_contextvars(vm)?;
    freeze_builtin_types(vm);
    let guarded_import = super::imports::guard_loaders(vm)?;

    let builtins = vm.ctx.new_dict();
    for (key, value) in vm.builtins.dict().items_vec() {
        builtins.set_item(&*key, value, vm)?;
    }
    builtins.set_item("__import__", guarded_import, vm)?;
    builtins.set_item("open", host.get_attr("sandbox_open", vm)?, vm)?;
    builtins.set_item(
        super::syntax::RETURN_CARRIER,
        prelude.as_object().get_attr("SnippetReturn", vm)?,
        vm,
    )?;
    Ok((prelude, builtins))
}

/// Makes `code` objects unforgeable: `types.CodeType(...)`, `code.replace(...)` and `copy.replace(code)`
/// raise `TypeError`. RustPython trusts the bytecode it runs; crafted bytecode reads out of bounds.
/// (The code type is process-wide, so this is done for every VM of the process, which are all sandboxes.)
fn lock_code_type(vm: &VirtualMachine, host: &PyObjectRef) -> PyResult<()> {
    fn refuse_new(
        _cls: rustpython_vm::builtins::PyTypeRef,
        _args: rustpython_vm::function::FuncArgs,
        vm: &VirtualMachine,
    ) -> PyResult {
        Err(super::externals::refuse_code_error(vm))
    }
    let code_type = vm.ctx.types.code_type;
    code_type.slots.new.store(Some(refuse_new));
    let refuse = host.get_attr("refuse_code_objects", vm)?;
    for name in ["__new__", "replace", "__replace__"] {
        code_type.set_attr(vm.ctx.intern_str(name), refuse.clone());
    }
    Ok(())
}

/// Fixed values for what would tell a snippet about the host process, and no way to change the host's
/// clock or read its stdin (docs/sandbox.md lists them): no argv, no executable path, UTC as the local
/// zone's name and offset, no `clock_settime` / `tzset`, no `sys._baserepl` (a REPL on the host's
/// fd 0).
fn scrub_host_facts(vm: &VirtualMachine, time: &PyObjectRef) -> PyResult<()> {
    let sys = vm.sys_module.as_object();
    let empty = || vm.ctx.new_list(Vec::new());
    sys.set_attr("orig_argv", empty(), vm)?;
    sys.set_attr("argv", empty(), vm)?;
    sys.set_attr("executable", vm.ctx.new_str(""), vm)?;
    sys.set_attr("_base_executable", vm.ctx.new_str(""), vm)?;
    let _ = sys.del_attr("_baserepl", vm);
    for name in ["clock_settime", "clock_settime_ns", "tzset"] {
        let _ = time.del_attr(name, vm);
    }
    let utc = vm.ctx.new_str("UTC");
    time.set_attr(
        "tzname",
        vm.ctx.new_tuple(vec![utc.clone().into(), utc.into()]),
        vm,
    )?;
    for name in ["timezone", "altzone", "daylight"] {
        time.set_attr(name, vm.ctx.new_int(0), vm)?;
    }
    Ok(())
}

/// Makes every built-in type immutable from Python code, as CPython does: `setattr` on it raises
/// `TypeError: cannot set 'x' attribute of immutable type 'T'`. RustPython creates them once per thread
/// and shares them with every interpreter of that thread (all the fresh runs of the in-process engine),
/// so a run that hooked `type(None).__bool__` would run its code inside every later run.
///
/// Walks the subclass tree from `object`; called when an interpreter starts and after imports that
/// loaded modules (a native module creates its types when first loaded on the thread). Heap types,
/// which are created per interpreter (snippet and stdlib classes), stay mutable.
pub(crate) fn freeze_builtin_types(vm: &VirtualMachine) {
    use rustpython_vm::types::PyTypeFlags;
    for class in every_type(vm) {
        if !class.slots.flags.has_feature(PyTypeFlags::HEAPTYPE)
            || SHARED_HEAP_TYPES.with(|shared| shared.borrow().contains(&class.get_id()))
        {
            class.slots.flags.insert(PyTypeFlags::IMMUTABLETYPE);
            if &*class.slot_name() == "_contextvars.Token" {
                CONTEXTVARS_TOKEN.with(|token| token.set(Some(class.to_owned())));
            }
        }
    }
}

thread_local! {
    /// `_contextvars.Token`, once this thread has made (and frozen) it: see [`load_contextvars`].
    static CONTEXTVARS_TOKEN: std::cell::Cell<Option<PyRef<rustpython_vm::builtins::PyType>>> =
        const { std::cell::Cell::new(None) };
}

/// Loads `_contextvars` (which `warnings` needs). Each time an interpreter loads it, it sets
/// `Token.MISSING` (to the same object) with a checked `setattr`, which the frozen `Token` of the
/// thread would refuse: that one type is thawed for the load. No snippet code has run yet, and the
/// load runs none.
fn load_contextvars(vm: &VirtualMachine) -> PyResult<()> {
    use rustpython_vm::types::PyTypeFlags;
    let token = CONTEXTVARS_TOKEN.with(|token| {
        let held = token.take();
        token.set(held.clone());
        held
    });
    if let Some(token) = &token {
        token.slots.flags.remove(PyTypeFlags::IMMUTABLETYPE);
    }
    let loaded = vm.import("_contextvars", 0);
    if let Some(token) = &token {
        token.slots.flags.insert(PyTypeFlags::IMMUTABLETYPE);
    }
    loaded.map(drop)
}

/// Every type alive in `vm`: `object` and its subclasses, transitively.
fn every_type(vm: &VirtualMachine) -> Vec<PyRef<rustpython_vm::builtins::PyType>> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![vm.ctx.types.object_type.to_owned()];
    let mut found = Vec::new();
    while let Some(class) = stack.pop() {
        if !seen.insert(class.get_id()) {
            continue;
        }
        stack.extend(
            class
                .subclasses
                .read()
                .iter()
                .filter_map(|weak| weak.upgrade())
                .filter_map(|sub| sub.downcast::<rustpython_vm::builtins::PyType>().ok()),
        );
        found.push(class);
    }
    found
}

thread_local! {
    /// Heap types that outlive the interpreter that made them: RustPython caches some per thread (the
    /// exception classes of native modules, `ExceptionGroup`, `io.UnsupportedOperation`,
    /// `typing.Generic`), so every later interpreter of the thread gets the same object. They are
    /// frozen like the static types. Filled by [`record_shared_heap_types`].
    static SHARED_HEAP_TYPES: std::cell::RefCell<std::collections::HashSet<usize>> =
        std::cell::RefCell::default();
}

/// Loads every native module in `vm` (the thread's first interpreter, which runs no snippet), so that
/// RustPython creates the types it caches for the thread now, and records every heap type then alive
/// as shared. They are kept alive for the thread's life (leaked), so no later object can take the
/// address of one of them: an id in the set always means that very type.
pub(crate) fn record_shared_heap_types(vm: &VirtualMachine) {
    use rustpython_vm::types::PyTypeFlags;
    let names: Vec<&str> = vm.state.module_defs.keys().copied().collect();
    for name in names {
        // Straight from its definition: the importer's guarded loaders would refuse the modules no
        // allowed module has loaded yet, whose types a later run can still reach.
        let _ = rustpython_vm::import::import_builtin(vm, name);
    }
    let heap_types: Vec<_> = every_type(vm)
        .into_iter()
        .filter(|class| class.slots.flags.has_feature(PyTypeFlags::HEAPTYPE))
        .collect();
    SHARED_HEAP_TYPES.with(|shared| {
        shared
            .borrow_mut()
            .extend(heap_types.iter().map(|class| class.get_id()))
    });
    std::mem::forget(heap_types);
    freeze_builtin_types(vm);
}

/// `_codecs.charmap_*` call Python helpers of `_pycodecs` that RustPython caches for the whole thread,
/// from whichever interpreter asked first: a run could patch them and have its code run in later runs.
/// Each interpreter routes them to its own `_pycodecs` (through the prelude) instead.
fn route_codecs_to_this_interpreter(
    vm: &VirtualMachine,
    prelude: &rustpython_vm::PyObject,
) -> PyResult<()> {
    let modules = vm.sys_module.get_attr("modules", vm)?;
    for module in ["_codecs", "codecs"] {
        let Ok(module) = modules.get_item(module, vm) else {
            continue;
        };
        for (name, ours) in [
            ("charmap_encode", "_charmap_encode"),
            ("charmap_decode", "_charmap_decode"),
            ("charmap_build", "_charmap_build"),
        ] {
            module.set_attr(name, prelude.get_attr(ours, vm)?, vm)?;
        }
    }
    Ok(())
}

/// `ast.py` adds a Python property `dims` to the (thread-wide) `ast.Tuple` type when it first loads; its
/// getter would then be one run's function, reachable and patchable by every later run. A native
/// getter is put there first, so `ast.py` finds `dims` and adds nothing.
///
/// Takes the `_ast` module, and imports through the VM's own importer (`vm.import_func`), not
/// `builtins.__import__`: when `_ast` loads late, a snippet may have replaced that one.
pub(super) fn give_ast_tuple_a_native_dims(vm: &VirtualMachine, ast: &PyObjectRef) -> PyResult<()> {
    let tuple = ast
        .get_attr("Tuple", vm)?
        .downcast::<rustpython_vm::builtins::PyType>()
        .map_err(|_| vm.new_runtime_error("_ast.Tuple is not a type"))?;
    let dims = vm.ctx.intern_str("dims");
    if tuple.get_attr(dims).is_none() {
        // The native `attrgetter`: `operator`'s Python module would run on every start-up.
        let getter = vm
            .import_func
            .call(("_operator",), vm)?
            .get_attr("attrgetter", vm)?
            .call(("elts",), vm)?;
        let property = vm.ctx.types.property_type.as_object().call((getter,), vm)?;
        tuple.set_attr(dims, property);
    }
    Ok(())
}
