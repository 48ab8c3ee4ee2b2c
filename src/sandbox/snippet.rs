//! Running one snippet in a prepared VM: compile (as the body of an `async def`, from its AST), bind the
//! namespace, drive the coroutine from Rust, capture output, convert the value.

use rustpython_vm::builtins::{PyBaseExceptionRef, PyDictRef};
use rustpython_vm::scope::Scope;
use rustpython_vm::{AsObject, PyObjectRef, PyResult, VirtualMachine};

use super::convert::{Mode, ToJsonError, from_value, to_json};
use super::interpreter::SandboxVm;
use super::limits::RunFlags;
use crate::execution::ExecutionError;

/// The file name tracebacks show for the snippet.
pub const SNIPPET_FILENAME: &str = "toolplane_snippet.py";

/// What the VM side of a run produced.
pub(crate) struct SnippetOutput {
    pub value: serde_json::Value,
    pub stdout: String,
    pub stderr: String,
    pub error: Option<ExecutionError>,
}

/// The names bound in a snippet besides its inputs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bindings {
    /// Flat alias → canonical name of each visible capability.
    pub capabilities: Vec<(String, String)>,
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
) -> SnippetOutput {
    sandbox.interp.enter(|vm| {
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

        let outcome = execute(vm, sandbox, code, inputs, bindings);
        let (stdout, stderr, output_exceeded) = super::externals::close_output();

        if flags.timed_out() {
            return SnippetOutput {
                value: serde_json::Value::Null,
                stdout,
                stderr,
                error: Some(ExecutionError {
                    error_type: "TimeoutError".into(),
                    message: flags.timeout_message(),
                    traceback: String::new(),
                }),
            };
        }
        match outcome {
            Err(exc) => failed(vm, &exc, stdout, stderr),
            Ok(_) if output_exceeded => {
                plain_error("MemoryError", super::externals::output_limit_message(max_output_bytes), stdout, stderr)
            }
            Ok(value) => {
                if let Some(line) = unawaited_output_line(&stdout) {
                    let message = format!("the snippet printed a call that was never awaited ({line}); {AWAIT_HINT}");
                    return plain_error("UnawaitedToolCallError", message, stdout, stderr);
                }
                match to_json(vm, &value, Mode::ReturnValue) {
                    Ok(text) => match serde_json::from_str(&text) {
                        Ok(value) => SnippetOutput { value, stdout, stderr, error: None },
                        Err(e) => plain_error("ValueError", format!("return value could not be converted: {e}"), stdout, stderr),
                    },
                    Err(ToJsonError::Unawaited(name)) => plain_error(
                        "UnawaitedToolCallError",
                        format!("snippet returned the result of a {name}() call that was never awaited; {AWAIT_HINT}"),
                        stdout,
                        stderr,
                    ),
                    Err(ToJsonError::Raised(exc)) => failed(vm, &exc, stdout, stderr),
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
        }
    })
}

fn unawaited_output_line(stdout: &str) -> Option<&str> {
    stdout
        .lines()
        .find(|l| l.contains("<unawaited toolplane call "))
}

fn plain_error(error_type: &str, message: String, stdout: String, stderr: String) -> SnippetOutput {
    SnippetOutput {
        value: serde_json::Value::Null,
        stdout,
        stderr,
        error: Some(ExecutionError {
            error_type: error_type.into(),
            message,
            traceback: String::new(),
        }),
    }
}

fn failed(
    vm: &VirtualMachine,
    exc: &PyBaseExceptionRef,
    stdout: String,
    stderr: String,
) -> SnippetOutput {
    SnippetOutput {
        value: serde_json::Value::Null,
        stdout,
        stderr,
        error: Some(describe_exception(vm, exc)),
    }
}

/// Type name, `str(exc)` and a traceback whose frames are the snippet's lines.
pub(crate) fn describe_exception(vm: &VirtualMachine, exc: &PyBaseExceptionRef) -> ExecutionError {
    let error_type = exc.class().name().to_string();
    let message = exc
        .as_object()
        .str(vm)
        .map(|s| s.to_string())
        .unwrap_or_default();
    if exc.fast_isinstance(vm.ctx.exceptions.syntax_error) {
        // The frames are the prelude's compile call; the caret display is what matters.
        exc.set_traceback(None);
    }
    let mut traceback = String::new();
    let _ = vm.write_exception(&mut traceback, exc);
    let traceback = traceback
        .lines()
        .filter(|l| !l.contains("<frozen") && !l.trim_start().starts_with("File \"_toolplane"))
        .collect::<Vec<_>>()
        .join("\n");
    ExecutionError {
        error_type,
        message,
        traceback,
    }
}

fn new_globals(
    vm: &VirtualMachine,
    sandbox: &SandboxVm,
    inputs: &serde_json::Map<String, serde_json::Value>,
    bindings: &Bindings,
) -> PyResult<PyDictRef> {
    let globals = vm.ctx.new_dict();
    globals.set_item("__builtins__", sandbox.builtins.clone().into(), vm)?;
    globals.set_item("__name__", vm.ctx.new_str("__main__").into(), vm)?;
    let prelude = sandbox.prelude.as_object();
    // Precedence, lowest first: store sugar < inputs < capability aliases < call_tool.
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
    for (alias, canonical) in &bindings.capabilities {
        let func = make.call(
            (
                vm.ctx.new_str(canonical.as_str()),
                vm.ctx.new_str(alias.as_str()),
            ),
            vm,
        )?;
        globals.set_item(alias.as_str(), func, vm)?;
    }
    globals.set_item("call_tool", prelude.get_attr("call_tool", vm)?, vm)?;
    Ok(globals)
}

fn execute(
    vm: &VirtualMachine,
    sandbox: &SandboxVm,
    code: &str,
    inputs: &serde_json::Map<String, serde_json::Value>,
    bindings: &Bindings,
) -> PyResult<PyObjectRef> {
    let compiled = vm.call_method(
        sandbox.prelude.as_object(),
        "compile_snippet",
        (vm.ctx.new_str(code), vm.ctx.new_str(SNIPPET_FILENAME)),
    )?;
    let code_obj = compiled
        .downcast::<rustpython_vm::builtins::PyCode>()
        .map_err(|_| vm.new_runtime_error("compile_snippet did not return code"))?;
    let globals = new_globals(vm, sandbox, inputs, bindings)?;
    vm.run_code_obj(code_obj, Scope::with_builtins(None, globals.clone(), vm))?;
    let main = globals.get_item("__toolplane_main__", vm)?;
    let _ = globals.del_item("__toolplane_main__", vm);
    let coroutine = main.call((), vm)?;
    drive(vm, &coroutine)
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
