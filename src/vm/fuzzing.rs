//! Entry points for `cargo fuzz` (`fuzz/`): not part of the API.

use std::cell::RefCell;

use rustpython_vm::{PyObjectRef, VirtualMachine};

use super::convert::{Mode, from_json_text, to_json};
use super::interpreter::SandboxVm;

thread_local! {
    // Leaked, never dropped: tearing a VM down in a thread-local destructor touches thread-locals
    // RustPython has already destroyed.
    static VM: RefCell<Option<&'static SandboxVm>> = const { RefCell::new(None) };
}

/// Builds a nested Python value from `data` (None, bools, ints of any size, floats including NaN and
/// infinities, strings including lone surrogates, lists, tuples, dicts with mixed keys, sets, bytes,
/// self-references), converts it to canonical JSON as `save_result` does, and checks the round trip:
/// the text is valid JSON, and reading it back and converting again gives the same text. Panics on a
/// violation (the fuzzer's crash).
pub fn convert_round_trip(data: &[u8]) {
    VM.with(|cell| {
        let mut cell = cell.borrow_mut();
        let sandbox = *cell.get_or_insert_with(|| {
            Box::leak(Box::new(SandboxVm::build(1000).expect("interpreter")))
        });
        sandbox.interp.enter(|vm| {
            let mut bytes = data;
            let value = build(vm, &mut bytes, 0);
            let Ok(text) = to_json(vm, &value, Mode::Strict) else {
                return;
            };
            serde_json::from_str::<serde_json::Value>(&text)
                .unwrap_or_else(|e| panic!("invalid JSON {text:?}: {e}"));
            let back = from_json_text(vm, &text).expect("canonical JSON reads back");
            let again = to_json(vm, &back, Mode::Strict).expect("read-back value converts");
            assert_eq!(text, again, "canonical JSON is not a fixed point");
            // The lenient return-value mode must never fail where the strict one succeeded.
            to_json(vm, &value, Mode::ReturnValue).expect("return-value mode");
        });
    });
}

fn take(data: &mut &[u8]) -> u8 {
    match data.split_first() {
        Some((first, rest)) => {
            *data = rest;
            *first
        }
        None => 0,
    }
}

fn take_n<'a>(data: &mut &'a [u8], n: usize) -> &'a [u8] {
    let n = n.min(data.len());
    let (head, rest) = data.split_at(n);
    *data = rest;
    head
}

fn build(vm: &VirtualMachine, data: &mut &[u8], depth: usize) -> PyObjectRef {
    let ctx = &vm.ctx;
    let kind = if depth > 8 {
        take(data) % 6
    } else {
        take(data) % 12
    };
    match kind {
        0 => vm.ctx.none(),
        1 => ctx.new_bool(take(data).is_multiple_of(2)).into(),
        2 => ctx.new_int(i64::from(take(data) as i8)).into(),
        3 => {
            let len = usize::from(take(data) % 48);
            let digits = take_n(data, len);
            let mut big = rustpython_vm::builtins::PyInt::from(0).as_bigint().clone();
            for byte in digits {
                big = big * 256 + u32::from(*byte);
            }
            if len % 2 == 1 {
                big = -big;
            }
            ctx.new_int(big).into()
        }
        4 => {
            let mut raw = [0u8; 8];
            raw.copy_from_slice(&{
                let mut b = take_n(data, 8).to_vec();
                b.resize(8, 0);
                b
            });
            ctx.new_float(f64::from_le_bytes(raw)).into()
        }
        5 => {
            let len = usize::from(take(data) % 16);
            let text: String = take_n(data, len)
                .iter()
                .map(|b| char::from_u32(u32::from(*b) * 97).unwrap_or('\u{fffd}'))
                .collect();
            if take(data).is_multiple_of(8) {
                // A lone surrogate: legal in a Python str, not in UTF-8.
                let chr = vm.builtins.get_attr("chr", vm).expect("chr");
                let surrogate = chr
                    .call((0xd800 + u32::from(take(data)),), vm)
                    .expect("chr");
                let joined = vm
                    .ctx
                    .new_str(text)
                    .as_object()
                    .to_owned()
                    .get_attr("__add__", vm)
                    .and_then(|add| add.call((surrogate,), vm));
                return joined.unwrap_or_else(|_| vm.ctx.none());
            }
            ctx.new_str(text).into()
        }
        6 | 7 | 9 => {
            let n = usize::from(take(data) % 5);
            let items: Vec<PyObjectRef> = (0..n).map(|_| build(vm, data, depth + 1)).collect();
            match kind {
                6 => ctx.new_list(items).into(),
                7 => ctx.new_tuple(items).into(),
                _ => {
                    let set = vm.builtins.get_attr("set", vm).expect("set");
                    set.call((ctx.new_list(items),), vm)
                        .unwrap_or_else(|_| vm.ctx.none())
                }
            }
        }
        8 => {
            let dict = ctx.new_dict();
            for _ in 0..take(data) % 5 {
                let key = build(vm, data, depth + 4);
                let value = build(vm, data, depth + 1);
                let _ = dict.set_item(&*key, value, vm);
            }
            dict.into()
        }
        10 => {
            let len = usize::from(take(data) % 8);
            ctx.new_bytes(take_n(data, len).to_vec()).into()
        }
        _ => {
            // A list that contains itself.
            let list = ctx.new_list(vec![build(vm, data, depth + 1)]);
            let _ = list
                .as_object()
                .to_owned()
                .get_attr("append", vm)
                .and_then(|append| append.call((list.clone(),), vm));
            list.into()
        }
    }
}

use rustpython_vm::AsObject as _;

/// The shapes of issue 17 that once outlasted a run's limit or its teardown, built from `data`: the
/// first byte picks a shape, the next two a repeat count, the rest is a fragment of source the shape
/// repeats or runs. Compile shapes repeat a unit (`x = 1` lines, decorators, `<1` chains, tuple items,
/// f-string fields) up to about 1 MiB; teardown shapes run the fragment in a `__del__`, a stream
/// replaced while the run ends, or garbage left in a cycle. The `snippet` fuzz target runs these
/// besides raw source; `tests/fuzz_regressions.rs` runs a fixed set in every `cargo t`.
pub fn shaped_snippet(data: &[u8]) -> String {
    let mut bytes = data;
    let shape = take(&mut bytes);
    let count = usize::from(take(&mut bytes)) << 8 | usize::from(take(&mut bytes));
    let fragment = String::from_utf8_lossy(bytes);
    let fragment = if fragment.trim().is_empty() {
        "pass".into()
    } else {
        fragment
    };
    let body: String = fragment
        .lines()
        .map(|line| format!("        {line}\n"))
        .collect();
    // Repeats of a unit, held under the 1 MiB source cap.
    let repeat = |unit: &str| unit.repeat((count * 4).clamp(1, (1 << 20) / unit.len().max(1) - 64));
    match shape % 8 {
        0 => repeat("x = 1\n") + &fragment,
        1 => repeat("@(lambda f: f)\n") + "def f():\n    pass\n",
        2 => format!("return 1{}", repeat("<1")),
        3 => format!("a = {}1", repeat("1,")),
        4 => format!("return f'{}'", repeat("{1}")),
        5 => format!("class T:\n    def __del__(self):\n{body}t = T()\n"),
        6 => format!(
            "import sys\nclass S:\n    def write(self, text):\n{body}        return len(text)\n    \
             def flush(self):\n        pass\nsys.stdout = S()\nsys.stderr = S()\n"
        ),
        _ => format!(
            "class G:\n    def __del__(self):\n{body}a, b = G(), G()\na.other, b.other = b, a\ndel a, b\n"
        ),
    }
}
