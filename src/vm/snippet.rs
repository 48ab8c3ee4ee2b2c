//! Running one snippet in a prepared VM: compile (as the body of an `async def`, from its AST), bind the
//! namespace, drive the coroutine from Rust, capture output, convert the value.

use rustpython_vm::builtins::{PyBaseExceptionRef, PyDictRef};
use rustpython_vm::scope::Scope;
use rustpython_vm::{AsObject, PyObjectRef, PyResult, VirtualMachine};

use super::convert::{Mode as JsonMode, ToJsonError, from_value, to_json};
use super::interpreter::SandboxVm;
use super::limits::RunFlags;
use crate::execution::{ExecutionError, ExecutionResult};

/// The file name tracebacks show for the snippet.
pub const SNIPPET_FILENAME: &str = "toolplane_snippet.py";

/// The file name tracebacks show for a fresh run's snippet (`toolplane run FILE` shows the file's).
pub const SNIPPET_DISPLAY_NAME: &str = "<snippet>";
/// The file name tracebacks show for a session run's code.
pub const SESSION_DISPLAY_NAME: &str = "<session>";

/// Rewrites RustPython's traceback text the way CPython prints it, in one pass: the snippet's frames
/// under `display_name`, the top level as `<module>`, the source line under each frame of this run's
/// code (compiled as `filename`; an earlier session run's frames get none: its source is gone), and
/// each exception's last line from `chain` (oldest first, the raised one last) as CPython writes it
/// (`KeyError: 'k'` where RustPython writes `KeyError: k`).
fn as_cpython_prints_it(
    raw: &str,
    source: &str,
    filename: &str,
    display_name: &str,
    chain: &[Shown],
) -> String {
    if raw.is_empty() {
        return String::new();
    }
    let ours = format!("File \"{filename}\"");
    let earlier_session_run = format!("File \"{SESSION_FILENAME_PREFIX}");
    let caret = raw.lines().any(|l| l.trim_start().starts_with('^'));
    let Some((raised, earlier)) = chain.split_last() else {
        return raw.to_string();
    };
    let lines: Vec<&str> = raw.lines().collect();
    // The raised exception's own lines start at the last line that begins with its type name;
    // they are written anew below.
    let raised_at = lines
        .iter()
        .rposition(|l| raised.ends_here(l))
        .unwrap_or(lines.len());
    let mut pending = earlier.iter();
    let mut next_earlier = pending.next();
    let mut out = String::with_capacity(raw.len() + 256);
    for line in &lines[..raised_at] {
        if let Some(shown) = next_earlier.filter(|shown| shown.ends_here(line)) {
            out.push_str(&shown.last_lines());
            out.push('\n');
            next_earlier = pending.next();
            continue;
        }
        let trimmed = line.trim_start();
        let Some(rest) = trimmed.strip_prefix(&ours) else {
            match trimmed
                .strip_prefix(&earlier_session_run)
                .and_then(|r| r.split_once('"'))
            {
                Some((_, rest)) => out.push_str(&format!("  File \"{display_name}\"{rest}\n")),
                None => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
            continue;
        };
        let rest = rest.replace("in __toolplane_main__", "in <module>");
        out.push_str(&format!("  File \"{display_name}\"{rest}\n"));
        // `, line N, in f` (a frame) or `, line N` (a syntax error, which prints its own source line).
        let frame_line = rest
            .strip_prefix(", line ")
            .and_then(|r| r.split_once(", in "))
            .and_then(|(n, _)| n.parse::<usize>().ok());
        if let Some(text) = frame_line.and_then(|n| source.lines().nth(n.wrapping_sub(1))) {
            let text = text.trim();
            if !text.is_empty() {
                out.push_str(&format!("    {text}\n"));
            }
        }
    }
    out.push_str(&raised.without_location(display_name, caret).last_lines());
    out
}

/// How CPython ends an exception's part of a traceback: its class (module-qualified unless a builtin
/// or the snippet's own), its str(), then its notes.
#[derive(Clone)]
struct Shown {
    /// The bare class name, as RustPython writes it.
    kind: String,
    /// The class's module, when it has one.
    module: Option<String>,
    qualified: String,
    text: String,
    notes: Vec<String>,
}

impl Shown {
    /// Texts longer than `cap` bytes keep their start and end only: they are never copied whole.
    fn of(vm: &VirtualMachine, exc: &PyBaseExceptionRef, cap: usize) -> Self {
        let class = exc.class();
        let kind = class.name().to_string();
        let module = class.__module__(vm).ok().and_then(|m| {
            m.downcast_ref::<rustpython_vm::builtins::PyStr>()
                .map(|s| s.to_string())
        });
        let qualified = match module.as_deref() {
            None | Some("builtins" | "__main__" | "_toolplane") => kind.clone(),
            Some(module) => format!("{module}.{kind}"),
        };
        let text = exc
            .as_object()
            .str(vm)
            .map(|s| capped_copy(&s, cap))
            .unwrap_or_default();
        let notes = exc
            .as_object()
            .get_attr("__notes__", vm)
            .ok()
            .and_then(|notes| notes.try_to_value::<Vec<PyObjectRef>>(vm).ok())
            .map(|notes| {
                notes
                    .iter()
                    .map(|n| n.str(vm).map(|s| capped_copy(&s, cap)).unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        Self {
            kind,
            module,
            qualified,
            text,
            notes,
        }
    }

    /// Whether `line` is where RustPython wrote this exception's last line.
    fn ends_here(&self, line: &str) -> bool {
        line == self.kind
            || line
                .strip_prefix(self.kind.as_str())
                .is_some_and(|r| r.starts_with(": "))
    }

    /// A syntax error's str() ends with its location, which its traceback (with the caret) already
    /// shows: CPython's last line leaves it out.
    fn without_location(&self, display_name: &str, caret: bool) -> Self {
        let text = match self.text.rsplit_once(&format!(" ({display_name}, line ")) {
            Some((text, tail)) if caret && tail.ends_with(')') => text.to_string(),
            _ => self.text.clone(),
        };
        Self {
            text,
            ..self.clone()
        }
    }

    fn last_lines(&self) -> String {
        let mut out = if self.text.is_empty() {
            self.qualified.clone()
        } else {
            format!("{}: {}", self.qualified, self.text)
        };
        for note in &self.notes {
            out.push('\n');
            out.push_str(note);
        }
        out
    }
}

/// What the VM side of a run produced; the engine adds the duration, the runtime the artifacts.
fn output(
    value: Box<serde_json::value::RawValue>,
    stdout: String,
    stderr: String,
    error: Option<ExecutionError>,
) -> ExecutionResult {
    ExecutionResult {
        value,
        stdout,
        stderr,
        duration_ms: 0.0,
        backend: crate::execution::BACKEND_NAME.into(),
        error,
        artifacts: Vec::new(),
    }
}

/// The names bound in a snippet besides its inputs.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Bindings {
    /// Flat alias, canonical name and call shape of each visible capability.
    pub capabilities: Vec<(String, String, std::sync::Arc<str>)>,
    /// With `[cli]` on, the binaries bound by name (`cli` and `cli_run` are bound too).
    pub cli: Option<Vec<String>>,
}

use crate::namespace::{CALL_TOOL, RESET_SESSION, STORE_SUGAR};

/// Fresh runs wrap the snippet in `async def`; session runs execute module code over kept globals.
pub(crate) enum Mode<'a> {
    Fresh,
    Session(&'a PyDictRef),
}

/// The guidance appended to every unawaited-call error.
pub(crate) const AWAIT_HINT: &str = "capability and result-store calls are async — add `await` (e.g. `handle = await save_result(value)`)";

pub(crate) fn run_snippet(
    sandbox: &SandboxVm,
    code: &str,
    inputs: &serde_json::Map<String, serde_json::Value>,
    bindings: &Bindings,
    max_output_bytes: usize,
    flags: &RunFlags,
    mode: Mode<'_>,
) -> ExecutionResult {
    let session = matches!(mode, Mode::Session(_));
    // An error's texts are cut to the output budget at the end; none is copied much past it before.
    let describe_cap = max_output_bytes.max(ERROR_FLOOR_BYTES);
    let filename = if session {
        session_filename()
    } else {
        SNIPPET_FILENAME.to_string()
    };
    let mut result = sandbox.interp.enter(|vm| {
        if let Ok(prelude) = sandbox.prelude.as_object().get_attr("StdoutStream", vm)
            && let Ok(out) = prelude.call((), vm)
        {
            let _ = vm.sys_module.set_attr("stdout", out, vm);
        }
        if let Ok(prelude) = sandbox.prelude.as_object().get_attr("StderrStream", vm)
            && let Ok(err) = prelude.call((), vm)
        {
            let _ = vm.sys_module.set_attr("stderr", err, vm);
        }

        let outcome = match mode {
            Mode::Fresh => execute(vm, sandbox, code, inputs, bindings),
            Mode::Session(globals) => execute_in_session(vm, sandbox, globals, code, &filename, inputs, bindings),
        };
        let (stdout, stderr, output_exceeded) = super::externals::close_output();

        if let Some(limit) = limit_error(flags, session) {
            return output(crate::execution::null_value(), stdout, stderr, Some(limit));
        }
        let result = match outcome {
            Err(exc) => failed(vm, &exc, (code, &filename), describe_cap, stdout, stderr),
            Ok(_) if output_exceeded => {
                plain_error("MemoryError", super::externals::output_limit_message(max_output_bytes), stdout, stderr)
            }
            Ok(value) => {
                if let Some(line) = unawaited_output_line(&stdout) {
                    let message = format!("the snippet printed a call that was never awaited ({line}); {AWAIT_HINT}");
                    return plain_error("UnawaitedToolCallError", message, stdout, stderr);
                }
                match to_json(vm, &value, JsonMode::ReturnValue) {
                    Ok(text) => match serde_json::value::RawValue::from_string(text) {
                        Ok(value) => output(value, stdout, stderr, None),
                        Err(e) => plain_error("ValueError", format!("return value could not be converted: {e}"), stdout, stderr),
                    },
                    Err(ToJsonError::Unawaited(name)) => plain_error(
                        "UnawaitedToolCallError",
                        format!("snippet returned the result of a {name}() call that was never awaited; {AWAIT_HINT}"),
                        stdout,
                        stderr,
                    ),
                    Err(error @ ToJsonError::OutOfMemory(_)) => plain_error(
                        "MemoryError",
                        format!("the snippet's return value is too large: {}", error.detail(vm)),
                        stdout,
                        stderr,
                    ),
                    Err(ToJsonError::Raised(exc)) => failed(vm, &exc, (code, &filename), describe_cap, stdout, stderr),
                    Err(other) => plain_error(
                        "TypeError",
                        format!(
                            "the snippet's return value of type '{}' is not JSON-serializable ({}); return JSON-shaped \
                             data (dict, list, str, int, float, bool, None), or save bytes with save_artifact",
                            super::convert::type_name(&value),
                            other.detail(vm)
                        ),
                        stdout,
                        stderr,
                    ),
                }
            }
        };
        // Describing the error or converting the value runs Python code (`__str__`, `__repr__`,
        // `isoformat`), which a limit may stop: then the limit is what the run reports.
        match limit_error(flags, session) {
            Some(limit) => ExecutionResult { error: Some(limit), value: crate::execution::null_value(), ..result },
            None => result,
        }
    });
    if let Some(error) = result.error.as_mut() {
        let used = result.stdout.len() + result.stderr.len();
        cap_error_fields(error, max_output_bytes.saturating_sub(used));
    }
    result
}

/// What an error's fields may always take, even when the run's output used its whole budget: room
/// for a readable message and the end of its traceback.
const ERROR_FLOOR_BYTES: usize = 8 << 10;
/// The longest error type name kept (a class name can be any length).
const MAX_ERROR_TYPE_BYTES: usize = 256;

/// Holds an error's fields to the run's output budget (`[limits] max_output_bytes` less the output
/// already captured, at least [`ERROR_FLOOR_BYTES`]): a snippet's exception counts like its output. The
/// message and the traceback get half each; a cut field keeps its start and end around a note that
/// names the limit.
pub(crate) fn cap_error_fields(error: &mut ExecutionError, budget: usize) {
    let budget = budget.max(ERROR_FLOOR_BYTES);
    let output = "its share of the run's output limit, [limits] max_output_bytes";
    cut_to(
        &mut error.error_type,
        MAX_ERROR_TYPE_BYTES,
        "the type name",
        "the longest kept",
    );
    cut_to(&mut error.message, budget / 2, "the message", output);
    cut_to(&mut error.traceback, budget / 2, "the traceback", output);
}

/// Cuts `text` to at most `limit` bytes: its head and tail around a note saying what was cut and why.
fn cut_to(text: &mut String, limit: usize, what: &str, why: &str) {
    if text.len() <= limit {
        return;
    }
    let note = format!(
        " [... {what} was {} bytes, cut to {limit} bytes ({why}) ...] ",
        text.len()
    );
    *text = head_and_tail(text, limit, &note);
}

/// The start and end of `text` around `note`, in at most about `limit` bytes (cut at char boundaries).
fn head_and_tail(text: &str, limit: usize, note: &str) -> String {
    let keep = limit.saturating_sub(note.len()) / 2;
    let head_end = text.floor_char_boundary(keep);
    let tail_start = text.ceil_char_boundary(text.len() - keep);
    let mut cut = String::with_capacity(limit);
    cut.push_str(&text[..head_end]);
    cut.push_str(note);
    cut.push_str(&text[tail_start..]);
    cut
}

/// `text` whole if it is at most `cap` bytes, else its start and end around a `[...]`: the cut
/// [`cap_error_fields`] makes later, made without copying the rest.
fn capped_copy(text: &rustpython_vm::builtins::PyStr, cap: usize) -> String {
    match text.to_str() {
        Some(text) if text.len() > cap => head_and_tail(text, cap, " [...] "),
        _ => text.to_string(),
    }
}

/// A sink for RustPython's traceback writer that keeps the first `cap` bytes and drops the rest.
struct CappedText {
    text: String,
    cap: usize,
}

impl CappedText {
    fn new(cap: usize) -> Self {
        Self {
            text: String::new(),
            cap,
        }
    }
}

impl std::fmt::Write for CappedText {
    fn write_str(&mut self, piece: &str) -> std::fmt::Result {
        let room = self.cap.saturating_sub(self.text.len());
        self.text
            .push_str(&piece[..piece.floor_char_boundary(room)]);
        Ok(())
    }
}

impl rustpython_vm::py_io::Write for CappedText {
    type Error = std::fmt::Error;

    fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> std::fmt::Result {
        std::fmt::Write::write_fmt(self, args)
    }
}

/// The error of a run that was cancelled or hit its time or memory limit, if it was or did.
fn limit_error(flags: &RunFlags, session: bool) -> Option<ExecutionError> {
    let (error_type, message) = if flags.cancelled() {
        let message = if session {
            format!(
                "{}. The session stays usable, but its variables may be partially updated: statements \
                 before the cancel ran (rollback arrives with process isolation); saved results and \
                 artifacts stand.",
                crate::cancel::CANCELLED_MESSAGE
            )
        } else {
            crate::cancel::CANCELLED_MESSAGE.to_string()
        };
        (crate::cancel::CANCELLED_ERROR, message)
    } else if flags.timed_out() {
        let message = if session {
            format!(
                "{}. The session stays usable, but its variables may be partially updated: statements \
                 before the limit ran (rollback arrives with process isolation); saved results and \
                 artifacts stand.",
                flags.timeout_message()
            )
        } else {
            flags.timeout_message()
        };
        ("TimeoutError", message)
    } else if flags.memory_exceeded() {
        ("MemoryError", flags.memory_message())
    } else {
        return None;
    };
    Some(ExecutionError {
        error_type: error_type.into(),
        message,
        traceback: String::new(),
    })
}

fn unawaited_output_line(stdout: &str) -> Option<&str> {
    stdout
        .lines()
        .find(|l| l.contains("<unawaited toolplane call "))
}

fn plain_error(
    error_type: &str,
    message: String,
    stdout: String,
    stderr: String,
) -> ExecutionResult {
    let error = ExecutionError {
        error_type: error_type.into(),
        message,
        traceback: String::new(),
    };
    output(crate::execution::null_value(), stdout, stderr, Some(error))
}

fn failed(
    vm: &VirtualMachine,
    exc: &PyBaseExceptionRef,
    (source, filename): (&str, &str),
    cap: usize,
    stdout: String,
    stderr: String,
) -> ExecutionResult {
    let error = describe_exception(vm, exc, source, filename, cap);
    output(crate::execution::null_value(), stdout, stderr, Some(error))
}

/// Type name, `str(exc)` and a traceback whose frames are the snippet's lines (`source`, compiled as
/// `filename`). No text is copied past about `cap` bytes: an exception's `str()` may be as large as the
/// run's memory, and a copy refused by the allocator would abort the process.
pub(crate) fn describe_exception(
    vm: &VirtualMachine,
    exc: &PyBaseExceptionRef,
    source: &str,
    filename: &str,
    cap: usize,
) -> ExecutionError {
    let mut last = Shown::of(vm, exc, cap);
    let error_type = last.kind.clone();
    if last.module.as_deref() == Some("_toolplane")
        || exc.fast_isinstance(vm.ctx.exceptions.syntax_error)
    {
        // The frames are the prelude's compile call; the caret display is what matters.
        exc.set_traceback(None);
    }
    let mut traceback = CappedText::new(cap);
    let _ = vm.write_exception(&mut traceback, exc);
    let traceback = traceback
        .text
        .lines()
        .filter(|l| !l.contains("<frozen") && !l.trim_start().starts_with("File \"_toolplane"))
        .collect::<Vec<_>>()
        .join("\n");
    let name = if filename == SNIPPET_FILENAME {
        SNIPPET_DISPLAY_NAME
    } else {
        SESSION_DISPLAY_NAME
    };
    let message = last
        .text
        .replace(&format!("({filename}, line "), &format!("({name}, line "));
    // The exceptions printed before this one (its causes and contexts), oldest first: RustPython
    // writes their last lines from their args (`KeyError: k`), CPython from str() (`KeyError: 'k'`).
    last.text = message.clone();
    let mut chain = vec![last];
    let mut link = printed_before(exc);
    while let Some(e) = link.filter(|_| chain.len() < 100) {
        chain.push(Shown::of(vm, &e, cap));
        link = printed_before(&e);
    }
    chain.reverse();
    let traceback = as_cpython_prints_it(&traceback, source, filename, name, &chain);
    ExecutionError {
        error_type,
        message,
        traceback,
    }
}

/// The exception RustPython's traceback prints before `exc`: its cause, else its context (RustPython
/// prints a context even when `raise … from None` suppressed it; CPython does not).
fn printed_before(exc: &PyBaseExceptionRef) -> Option<PyBaseExceptionRef> {
    exc.__cause__().or_else(|| exc.__context__())
}

fn new_globals(vm: &VirtualMachine, sandbox: &SandboxVm) -> PyResult<PyDictRef> {
    let globals = vm.ctx.new_dict();
    globals.set_item("__builtins__", sandbox.builtins.clone().into(), vm)?;
    globals.set_item("__name__", vm.ctx.new_str("__main__").into(), vm)?;
    Ok(globals)
}

/// Binds the externals and inputs. Precedence, lowest first: store sugar < inputs < capability aliases
/// < call_tool and reset_session.
fn bind(
    vm: &VirtualMachine,
    sandbox: &SandboxVm,
    globals: &PyDictRef,
    inputs: &serde_json::Map<String, serde_json::Value>,
    bindings: &Bindings,
    session: bool,
) -> PyResult<()> {
    let prelude = sandbox.prelude.as_object();
    let sugar = prelude.get_attr("STORE_BINDINGS", vm)?;
    let sugar = sugar
        .downcast::<rustpython_vm::builtins::PyDict>()
        .map_err(|_| vm.new_runtime_error("bad prelude"))?;
    for (name, func) in sugar.items_vec() {
        globals.set_item(&*name, func, vm)?;
    }
    for (name, value) in inputs {
        globals.set_item(name.as_str(), from_value(vm, value)?, vm)?;
    }
    let make = prelude.get_attr("make_capability", vm)?;
    for (alias, canonical, shape) in &bindings.capabilities {
        let func = make.call(
            (
                vm.ctx.new_str(canonical.as_str()),
                vm.ctx.new_str(alias.as_str()),
                vm.ctx.new_str(&**shape),
            ),
            vm,
        )?;
        globals.set_item(alias.as_str(), func, vm)?;
    }
    if let Some(binaries) = &bindings.cli {
        let names: Vec<_> = binaries
            .iter()
            .map(|name| vm.ctx.new_str(name.as_str()).into())
            .collect();
        let namespace = prelude
            .get_attr("cli_namespace", vm)?
            .call((vm.ctx.new_list(names),), vm)?;
        let namespace = namespace
            .downcast::<rustpython_vm::builtins::PyDict>()
            .map_err(|_| vm.new_runtime_error("bad prelude"))?;
        for (name, value) in namespace.items_vec() {
            globals.set_item(&*name, value, vm)?;
        }
    }
    globals.set_item(CALL_TOOL, prelude.get_attr(CALL_TOOL, vm)?, vm)?;
    if session {
        globals.set_item(RESET_SESSION, prelude.get_attr(RESET_SESSION, vm)?, vm)?;
    }
    Ok(())
}

/// The names the unawaited-call check and the session rebinding guard watch.
fn binding_names(
    inputs: &serde_json::Map<String, serde_json::Value>,
    bindings: &Bindings,
    session: bool,
) -> Vec<String> {
    let mut names: Vec<String> = STORE_SUGAR
        .iter()
        .filter(|n| !inputs.contains_key(**n))
        .map(|n| n.to_string())
        .collect();
    names.extend(
        bindings
            .capabilities
            .iter()
            .map(|(alias, ..)| alias.clone()),
    );
    if let Some(binaries) = &bindings.cli {
        names.extend(["cli", "cli_run"].map(String::from));
        names.extend(binaries.iter().cloned());
    }
    names.push(CALL_TOOL.to_string());
    if session {
        names.push(RESET_SESSION.to_string());
    }
    names
}

/// Compiles `code` (fresh: wrapped in `async def`; session: module code with top-level `await`),
/// rejecting unawaited calls to the `binding_names` and, in a session, rebinding them.
fn compile(
    vm: &VirtualMachine,
    sandbox: &SandboxVm,
    session: bool,
    code: &str,
    filename: &str,
    binding_names: &[String],
) -> PyResult<rustpython_vm::PyRef<rustpython_vm::builtins::PyCode>> {
    let compiled = vm.compile_module_transformed(code, filename, session, |module, source_file| {
        let prepared = if session {
            super::syntax::prepare_session(module, source_file, binding_names)
        } else {
            super::syntax::prepare_fresh(module, source_file, binding_names)
        };
        prepared.map_err(|rejection| {
            match sandbox.prelude.as_object().get_attr(rejection.class, vm) {
                Ok(class) => match class.downcast::<rustpython_vm::builtins::PyType>() {
                    Ok(class) => vm.new_exception_msg(class, rejection.message.into()),
                    Err(_) => vm.new_runtime_error(rejection.message),
                },
                Err(e) => e,
            }
        })
    });
    compiled.map_err(|exc| with_source_line(vm, exc, code))
}

/// A syntax error found after parsing (by the symbol table or the code generator) comes without its
/// line's text, which RustPython then shows as `None`; CPython shows the line.
fn with_source_line(
    vm: &VirtualMachine,
    exc: PyBaseExceptionRef,
    code: &str,
) -> PyBaseExceptionRef {
    if !exc.fast_isinstance(vm.ctx.exceptions.syntax_error) {
        return exc;
    }
    let obj = exc.as_object();
    let has_text = obj.get_attr("text", vm).is_ok_and(|t| !vm.is_none(&t));
    let line = obj
        .get_attr("lineno", vm)
        .ok()
        .and_then(|n| n.try_into_value::<usize>(vm).ok())
        .and_then(|n| code.lines().nth(n.checked_sub(1)?));
    if !has_text && let Some(line) = line {
        let _ = obj.set_attr("text", vm.ctx.new_str(format!("{line}\n")), vm);
    }
    exc
}

fn execute(
    vm: &VirtualMachine,
    sandbox: &SandboxVm,
    code: &str,
    inputs: &serde_json::Map<String, serde_json::Value>,
    bindings: &Bindings,
) -> PyResult<PyObjectRef> {
    let names = binding_names(inputs, bindings, false);
    let code_obj = compile(vm, sandbox, false, code, SNIPPET_FILENAME, &names)?;
    let globals = new_globals(vm, sandbox)?;
    bind(vm, sandbox, &globals, inputs, bindings, false)?;
    vm.run_code_obj(code_obj, Scope::with_builtins(None, globals.clone(), vm))?;
    let main = globals.get_item(super::syntax::MAIN_FUNCTION, vm)?;
    let _ = globals.del_item(super::syntax::MAIN_FUNCTION, vm);
    let coroutine = main.call((), vm)?;
    // Held while the coroutine runs, so that its end leaves the locals in place (a frame someone else
    // holds is not cleared) for `keep_plain_locals` to look at.
    let frame = coroutine.get_attr("cr_frame", vm).ok();
    let outcome = drive(vm, &coroutine);
    drop(coroutine);
    if let Some(frame) = frame {
        keep_plain_locals(vm, sandbox, frame);
    }
    outcome
}

/// Most objects a locals walk visits before it gives up (and the locals are freed at once).
const PLAIN_WALK_BUDGET: usize = 1 << 22;

/// Keeps a fresh run's finished frame (and so its locals) alive until the interpreter ends, if what
/// the locals hold is plain data: exact `dict`, `list` and `tuple` of `str`, `int`, `float`, `bool`,
/// `bytes` and `None`. Freeing 100,000 loaded records one by one is a large part of a run that loads
/// them, and a fresh run's interpreter is used once: it ends after the reply (in process), or never
/// frees them (a process child exits). Plain data runs no code when freed, so nothing a snippet can see
/// moves out of its run; anything else (an object whose `__del__` prints, a generator's `finally`) is
/// freed here, inside the run, as before. A previously kept frame (a warm-up's) is freed now.
fn keep_plain_locals(vm: &VirtualMachine, sandbox: &SandboxVm, frame: PyObjectRef) {
    // The locals as a dict (a snapshot: `f_locals` of a function's frame is a proxy).
    let plain = frame
        .downcast_ref::<rustpython_vm::frame::FrameObject>()
        .and_then(|frame| frame.locals(vm).ok())
        .and_then(|locals| {
            PyObjectRef::from(locals)
                .downcast::<rustpython_vm::builtins::PyDict>()
                .ok()
        })
        .is_some_and(|locals| holds_only_plain_data(vm, locals.values_vec(), PLAIN_WALK_BUDGET));
    let kept = plain.then_some(frame);
    // Whatever is dropped here (the frame, when not plain; the one kept before) is freed in the run.
    drop(sandbox.kept_frame.replace(kept));
}

/// Whether `roots` and everything they contain are plain data (see [`keep_plain_locals`]), visiting at
/// most `budget` objects; more (or a cycle) counts as not plain.
fn holds_only_plain_data(vm: &VirtualMachine, roots: Vec<PyObjectRef>, budget: usize) -> bool {
    use rustpython_vm::builtins::{PyDict, PyList, PyTuple};
    let types = &vm.ctx.types;
    let leaves = [
        types.str_type,
        types.int_type,
        types.float_type,
        types.bool_type,
        types.bytes_type,
        types.none_type,
    ];
    let mut pending = roots;
    let mut visited = 0usize;
    // Whether `more` objects still fit in the budget beside those visited and waiting, and the work
    // stack could grow for them: a list of tens of millions of items is over budget before it is
    // copied onto the stack (whose growth the run's memory may refuse, which would abort the host).
    let room_for = |pending: &mut Vec<PyObjectRef>, visited: usize, more: usize| {
        visited + pending.len() + more <= budget && pending.try_reserve(more).is_ok()
    };
    while let Some(obj) = pending.pop() {
        visited += 1;
        if visited > budget {
            return false;
        }
        let class = obj.class();
        if leaves.iter().any(|leaf| class.is(*leaf)) {
            continue;
        }
        if let Some(list) = obj.downcast_ref_if_exact::<PyList>(vm) {
            let items = list.borrow_vec();
            if !room_for(&mut pending, visited, items.len()) {
                return false;
            }
            pending.extend(items.iter().cloned());
        } else if let Some(tuple) = obj.downcast_ref_if_exact::<PyTuple>(vm) {
            if !room_for(&mut pending, visited, tuple.len()) {
                return false;
            }
            pending.extend(tuple.as_slice().iter().cloned());
        } else if let Some(dict) = obj.downcast_ref_if_exact::<PyDict>(vm) {
            if !room_for(&mut pending, visited, 2 * dict.__len__()) {
                return false;
            }
            for (key, value) in dict {
                pending.push(key);
                pending.push(value);
            }
        } else {
            return false;
        }
    }
    true
}

/// Drives a coroutine to completion. Host calls answer synchronously, so a coroutine only yields for
/// a bare `yield` in a user-defined awaitable; it is resumed at once.
fn drive(vm: &VirtualMachine, coroutine: &PyObjectRef) -> PyResult<PyObjectRef> {
    loop {
        match vm.call_method(coroutine, "send", (vm.ctx.none(),)) {
            Ok(_) => continue,
            Err(exc) if exc.fast_isinstance(vm.ctx.exceptions.stop_iteration) => {
                return exc.as_object().get_attr("value", vm);
            }
            Err(exc) => return Err(exc),
        }
    }
}

/// The file name a session run's code is compiled under: one per run, so that a traceback can tell
/// this run's frames (whose source it has) from those of functions an earlier run defined.
fn session_filename() -> String {
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{SESSION_FILENAME_PREFIX}{run}.py")
}

/// What every session run's compiled file name starts with.
const SESSION_FILENAME_PREFIX: &str = "toolplane_session_";

/// A fresh session namespace.
pub(crate) fn new_session_globals(vm: &VirtualMachine, sandbox: &SandboxVm) -> PyResult<PyDictRef> {
    new_globals(vm, sandbox)
}

fn execute_in_session(
    vm: &VirtualMachine,
    sandbox: &SandboxVm,
    globals: &PyDictRef,
    code: &str,
    filename: &str,
    inputs: &serde_json::Map<String, serde_json::Value>,
    bindings: &Bindings,
) -> PyResult<PyObjectRef> {
    let names = binding_names(inputs, bindings, true);
    let code_obj = compile(vm, sandbox, true, code, filename, &names)?;
    // Inputs live for this run only: remember what they cover, restore it afterwards.
    let covered: Vec<(String, Option<PyObjectRef>)> = inputs
        .keys()
        .map(|k| {
            (
                k.clone(),
                globals.get_item_opt(k.as_str(), vm).ok().flatten(),
            )
        })
        .collect();
    bind(vm, sandbox, globals, inputs, bindings, true)?;
    let bound: Vec<Option<PyObjectRef>> = inputs
        .keys()
        .map(|k| globals.get_item_opt(k.as_str(), vm).ok().flatten())
        .collect();
    let outcome = run_module_code(vm, sandbox, globals, code_obj);
    for ((name, previous), set) in covered.into_iter().zip(bound) {
        let current = globals.get_item_opt(name.as_str(), vm).ok().flatten();
        let untouched = matches!((&current, &set), (Some(c), Some(s)) if c.is(s));
        if untouched {
            match previous {
                Some(p) => {
                    let _ = globals.set_item(name.as_str(), p, vm);
                }
                None => {
                    let _ = globals.del_item(name.as_str(), vm);
                }
            }
        }
    }
    outcome
}

fn run_module_code(
    vm: &VirtualMachine,
    sandbox: &SandboxVm,
    globals: &PyDictRef,
    code_obj: rustpython_vm::PyRef<rustpython_vm::builtins::PyCode>,
) -> PyResult<PyObjectRef> {
    let snippet_return = sandbox.prelude.as_object().get_attr("SnippetReturn", vm)?;
    let outcome = vm
        .run_code_obj(code_obj, Scope::with_builtins(None, globals.clone(), vm))
        .and_then(|result| {
            if result.class().name().to_string() == "coroutine" {
                drive(vm, &result).map(|_| vm.ctx.none())
            } else {
                Ok(vm.ctx.none())
            }
        });
    match outcome {
        Err(exc)
            if exc
                .as_object()
                .is_instance(&snippet_return, vm)
                .unwrap_or(false) =>
        {
            Ok(exc.get_arg(0).unwrap_or_else(|| vm.ctx.none()))
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain data is exact containers of exact atoms; anything else, a cycle or more objects than the
    /// budget is not.
    #[test]
    fn plain_data_is_exact_containers_of_atoms() {
        crate::vm::on_sandbox_thread(|vm| {
            let eval = |source: &str| {
                vm.run_block_expr(vm.new_scope_with_builtins(), source)
                    .unwrap()
            };
            let plain =
                |source: &str, budget| holds_only_plain_data(vm, vec![eval(source)], budget);
            let rows = "[{'id': i, 'tags': ('a', b'b'), 'x': 0.5, 'ok': None, 'y': True} for i in range(10)]";
            assert!(plain(rows, 1000));
            assert!(!plain(rows, 50), "past the budget");
            assert!(!plain("[1, [2, {'k': object()}]]", 1000));
            assert!(!plain("[1, {3}]", 1000), "a set is not walked");
            assert!(
                !plain("[1, type('L', (list,), {})()]", 1000),
                "a list subclass"
            );
            assert!(
                !plain("(lambda l: (l.append(l), l)[1])([])", 1000),
                "a cycle"
            );
        });
    }

    fn error(kind: &str, message: &str, traceback: &str) -> ExecutionError {
        ExecutionError {
            error_type: kind.into(),
            message: message.into(),
            traceback: traceback.into(),
        }
    }

    #[test]
    fn error_fields_within_the_budget_are_kept() {
        let mut e = error("KeyError", "'k'", "Traceback ...\nKeyError: 'k'");
        let before = e.clone();
        cap_error_fields(&mut e, 1 << 20);
        assert_eq!(e, before);
    }

    #[test]
    fn oversized_error_fields_are_cut_with_a_note_naming_the_limit() {
        let budget = 64 << 10;
        let mut e = error(
            &"E".repeat(50 << 20),
            &"é".repeat(1 << 20),
            &"x".repeat(3 << 20),
        );
        cap_error_fields(&mut e, budget);
        assert!(
            e.error_type.len() <= MAX_ERROR_TYPE_BYTES,
            "{}",
            e.error_type.len()
        );
        assert!(e.message.len() <= budget / 2);
        assert!(e.traceback.len() <= budget / 2);
        assert!(e.error_type.starts_with("EEE") && e.error_type.ends_with("EEE"));
        assert!(
            e.message.contains("the message was 2097152 bytes"),
            "{}",
            &e.message[..200]
        );
        assert!(e.message.contains("[limits] max_output_bytes"));
        assert!(e.traceback.starts_with("xxx") && e.traceback.ends_with("xxx"));
    }

    #[test]
    fn an_error_keeps_a_floor_when_the_output_used_the_budget() {
        let mut e = error("ValueError", &"m".repeat(100_000), "");
        cap_error_fields(&mut e, 0);
        assert!(e.message.len() <= ERROR_FLOOR_BYTES / 2);
        assert!(e.message.len() > ERROR_FLOOR_BYTES / 4);
    }
}
