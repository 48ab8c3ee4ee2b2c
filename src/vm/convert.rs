//! Python objects ↔ JSON, with the store's canonical rules.
//!
//! Out: Python's `json.dumps(value, allow_nan=False)` text (see [`crate::canonical`]), plus tuple → list
//! and date/datetime/time → ISO 8601. Ints of any size stay exact. In: a JSON parser that builds
//! Python objects directly (exact big ints, insertion-ordered dicts). Both bound their nesting depth,
//! so hostile data is a `ValueError`, never a native stack overflow.

use std::borrow::Cow;
use std::hash::Hasher as _;

use num_traits::ToPrimitive;
use rustpython_vm::builtins::{PyBaseExceptionRef, PyDict, PyFloat, PyInt, PyList, PyStr, PyTuple};
use rustpython_vm::{AsObject, PyObject, PyObjectRef, PyRef, PyResult, VirtualMachine};

use crate::canonical::{py_float_repr, write_py_float, write_str, write_text};

/// Deepest nesting accepted in either direction.
pub(crate) const MAX_JSON_DEPTH: usize = 512;

/// Why a value has no JSON form.
#[derive(Debug)]
pub(crate) enum ToJsonError {
    /// `Object of type X is not JSON serializable` (Python's own text).
    NotSerializable(String),
    /// NaN or ±Infinity.
    NonFinite,
    /// A dict key of an unsupported type.
    BadKey(String),
    /// A container that contains itself.
    Circular,
    /// Nested deeper than [`MAX_JSON_DEPTH`].
    TooDeep,
    /// A host call that was never awaited (its name).
    Unawaited(String),
    /// A str holding a lone surrogate: it has no UTF-8 form, and strict JSON parsers reject its
    /// `\ud800` escape.
    LoneSurrogate(u32),
    /// Python code (e.g. `isoformat`) raised.
    Raised(PyBaseExceptionRef),
    /// The JSON text would not fit in the run's memory (the allocator refused to grow it).
    OutOfMemory(usize),
}

impl ToJsonError {
    /// The message Python's json module would give (or ours, for the cases it has none).
    pub(crate) fn detail(&self, vm: &VirtualMachine) -> String {
        match self {
            Self::NotSerializable(t) => format!("Object of type {t} is not JSON serializable"),
            Self::NonFinite => "Out of range float values are not JSON compliant".into(),
            Self::BadKey(t) => format!("keys must be str, int, float, bool or None, not {t}"),
            Self::Circular => "Circular reference detected".into(),
            Self::TooDeep => format!("nesting deeper than {MAX_JSON_DEPTH} levels"),
            Self::Unawaited(name) => format!("a {name}() call that was never awaited"),
            Self::LoneSurrogate(c) => format!(
                "a string holds the lone surrogate U+{c:04X}, which is not valid Unicode; encode or drop it"
            ),
            Self::OutOfMemory(bytes) => format!(
                "its JSON text does not fit in the run's memory (it would pass {bytes} bytes)"
            ),
            Self::Raised(exc) => exc
                .as_object()
                .str(vm)
                .map(|s| s.to_string())
                .unwrap_or_default(),
        }
    }
}

/// How lenient the conversion is: store saves are strict; a run's return value also turns sets into lists.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Strict,
    ReturnValue,
    /// `json.dumps` with its defaults: exactly the builtin JSON types, nothing converted; any other
    /// value is an error and the caller falls back to the json module's own encoder.
    JsonModule,
}

/// Serialises a Python object to canonical JSON text.
pub(crate) fn to_json(
    vm: &VirtualMachine,
    obj: &PyObject,
    mode: Mode,
) -> Result<String, ToJsonError> {
    to_json_between(vm, obj, mode, "", "")
}

/// [`to_json`] between `prefix` and `suffix`: a message around a large value is written in one buffer
/// (reserved fallibly, as the value is), not copied into another.
pub(crate) fn to_json_between(
    vm: &VirtualMachine,
    obj: &PyObject,
    mode: Mode,
    prefix: &str,
    suffix: &str,
) -> Result<String, ToJsonError> {
    let mut writer = Writer {
        vm,
        out: String::new(),
        path: Vec::new(),
        mode,
    };
    writer.room(prefix.len())?;
    writer.out.push_str(prefix);
    writer.value(obj, 0)?;
    writer.room(suffix.len())?;
    writer.out.push_str(suffix);
    Ok(writer.out)
}

struct Writer<'vm> {
    vm: &'vm VirtualMachine,
    out: String,
    /// The containers being written, outermost first (a cycle is a container already on it): a
    /// stack searched from the top, as values nest a few levels deep and never past
    /// [`MAX_JSON_DEPTH`].
    path: Vec<usize>,
    mode: Mode,
}

/// None, or exactly (not a subclass of) bool, int, float, str, list, tuple or dict.
fn is_exact_json_type(vm: &VirtualMachine, obj: &PyObject) -> bool {
    let types = &vm.ctx.types;
    vm.is_none(obj)
        || [
            types.bool_type,
            types.int_type,
            types.float_type,
            types.str_type,
            types.list_type,
            types.tuple_type,
            types.dict_type,
        ]
        .iter()
        .any(|t| obj.class().is(*t))
}

/// The Python type name of an object, as error texts show it.
pub(crate) fn type_name(obj: &PyObject) -> String {
    obj.class().name().to_string()
}

fn class_module(vm: &VirtualMachine, obj: &PyObject) -> Option<String> {
    obj.class()
        .__module__(vm)
        .ok()
        .and_then(|m| m.downcast_ref::<PyStr>().map(|s| s.to_string()))
}

impl Writer<'_> {
    /// Makes room for `bytes` more, or fails: growing the text infallibly would abort the process
    /// when the run's memory budget refuses it.
    fn room(&mut self, bytes: usize) -> Result<(), ToJsonError> {
        self.out
            .try_reserve(bytes)
            .map_err(|_| ToJsonError::OutOfMemory(self.out.len().saturating_add(bytes)))
    }

    fn enter(&mut self, obj: &PyObject, depth: usize) -> Result<(), ToJsonError> {
        if depth >= MAX_JSON_DEPTH {
            return Err(ToJsonError::TooDeep);
        }
        let id = obj.get_id();
        if self.path.iter().rev().any(|&open| open == id) {
            return Err(ToJsonError::Circular);
        }
        self.path.push(id);
        Ok(())
    }

    fn leave(&mut self) {
        self.path.pop();
    }

    fn value(&mut self, obj: &PyObject, depth: usize) -> Result<(), ToJsonError> {
        if self.scalar(obj)? {
            return Ok(());
        }
        if let Some(list) = obj.downcast_ref::<PyList>() {
            self.list(obj, list, depth)
        } else if let Some(tuple) = obj.downcast_ref::<PyTuple>() {
            self.array(obj, tuple.as_slice(), depth)
        } else if let Some(dict) = obj.downcast_ref::<PyDict>() {
            self.dict(obj, dict, depth)
        } else {
            self.other(obj, depth)
        }
    }

    /// Writes `obj` if it is a scalar (None, bool, int, float, str: nothing that runs Python code)
    /// and says whether it was one.
    fn scalar(&mut self, obj: &PyObject) -> Result<bool, ToJsonError> {
        let vm = self.vm;
        // Enough for a separator, brackets, a literal or a float; texts and big ints reserve their own.
        self.room(64)?;
        if self.mode == Mode::JsonModule && !is_exact_json_type(vm, obj) {
            return Err(ToJsonError::NotSerializable(type_name(obj)));
        }
        if let Some(s) = obj.downcast_ref::<PyStr>() {
            self.text(s)?;
        } else if vm.is_none(obj) {
            self.out.push_str("null");
        } else if obj.class().is(vm.ctx.types.bool_type) {
            self.out.push_str(if obj.is(&vm.ctx.true_value) {
                "true"
            } else {
                "false"
            });
        } else if let Some(i) = obj.downcast_ref::<PyInt>() {
            self.int(i)?;
        } else if let Some(f) = obj.downcast_ref::<PyFloat>() {
            let f = f.to_f64();
            if !f.is_finite() {
                return Err(ToJsonError::NonFinite);
            }
            write_py_float(&mut self.out, f);
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    /// An int's exact digits; one that fits 64 bits is written without an allocation.
    fn int(&mut self, i: &PyInt) -> Result<(), ToJsonError> {
        if let Some(small) = i.as_bigint().to_i64() {
            self.out.push_str(itoa::Buffer::new().format(small));
        } else {
            let digits = i.as_bigint().to_string();
            self.room(digits.len())?;
            self.out.push_str(&digits);
        }
        Ok(())
    }

    /// A list, by index and re-read at each step: converting an item (`isoformat`) may run Python code
    /// that changes the list. A run of scalars is written under one borrow, as they run none.
    fn list(&mut self, obj: &PyObject, list: &PyList, depth: usize) -> Result<(), ToJsonError> {
        self.enter(obj, depth)?;
        self.out.push('[');
        let mut at = 0;
        loop {
            let nested = {
                let items = list.borrow_vec();
                let mut nested = None;
                while let Some(item) = items.get(at) {
                    if at > 0 {
                        self.room(2)?;
                        self.out.push_str(", ");
                    }
                    at += 1;
                    if !self.scalar(item)? {
                        nested = Some(item.clone());
                        break;
                    }
                }
                nested
            };
            match nested {
                Some(item) => self.value(&item, depth + 1)?,
                None => break,
            }
        }
        self.room(1)?;
        self.out.push(']');
        self.leave();
        Ok(())
    }

    /// A tuple's items (a tuple cannot change) or a copy of a set's.
    fn array(
        &mut self,
        obj: &PyObject,
        items: &[PyObjectRef],
        depth: usize,
    ) -> Result<(), ToJsonError> {
        self.enter(obj, depth)?;
        self.out.push('[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.room(2)?;
                self.out.push_str(", ");
            }
            self.value(item, depth + 1)?;
        }
        self.room(1)?;
        self.out.push(']');
        self.leave();
        Ok(())
    }

    /// A dict, entry by entry (each read as new references): a change made while it is written is
    /// seen, never a dangling entry.
    fn dict(&mut self, obj: &PyObject, dict: &PyDict, depth: usize) -> Result<(), ToJsonError> {
        self.enter(obj, depth)?;
        self.out.push('{');
        let mut position = 0;
        while let Some((next, key, value)) = dict.next_entry(position) {
            if position > 0 {
                self.room(2)?;
                self.out.push_str(", ");
            }
            position = next;
            self.key(&key)?;
            self.room(2)?;
            self.out.push_str(": ");
            self.value(&value, depth + 1)?;
        }
        self.room(1)?;
        self.out.push('}');
        self.leave();
        Ok(())
    }

    /// A str: strictly, valid Unicode only; a return value gets U+FFFD for a lone surrogate.
    fn text(&mut self, s: &PyStr) -> Result<(), ToJsonError> {
        if let Some(text) = s.to_str() {
            if crate::canonical::is_plain(text) {
                // Nothing to escape: the text as it is, between quotes.
                self.room(text.len() + 2)?;
                self.out.push('"');
                self.out.push_str(text);
                self.out.push('"');
            } else {
                self.room(crate::canonical::escaped_len(text.chars().map(u32::from)))?;
                write_text(&mut self.out, text);
            }
            return Ok(());
        }
        let lone = s
            .as_wtf8()
            .code_points()
            .map(|c| c.to_u32())
            .find(|c| (0xd800..0xe000).contains(c));
        if self.mode != Mode::ReturnValue
            && let Some(c) = lone
        {
            return Err(ToJsonError::LoneSurrogate(c));
        }
        self.room(crate::canonical::escaped_len(
            s.as_wtf8().code_points().map(|c| c.to_u32()),
        ))?;
        let replaced = s.as_wtf8().code_points().map(|c| {
            let c = c.to_u32();
            if (0xd800..0xe000).contains(&c) {
                0xfffd
            } else {
                c
            }
        });
        write_str(&mut self.out, replaced);
        Ok(())
    }

    fn key(&mut self, key: &PyObject) -> Result<(), ToJsonError> {
        let vm = self.vm;
        // Enough for a literal, an int that fits 64 bits or a float, quoted; texts reserve their own.
        self.room(64)?;
        if self.mode == Mode::JsonModule && !is_exact_json_type(vm, key) {
            return Err(ToJsonError::BadKey(type_name(key)));
        }
        let text = if let Some(s) = key.downcast_ref::<PyStr>() {
            return self.text(s);
        } else if vm.is_none(key) {
            "null".to_string()
        } else if key.class().is(vm.ctx.types.bool_type) {
            (if key.is(&vm.ctx.true_value) {
                "true"
            } else {
                "false"
            })
            .to_string()
        } else if let Some(i) = key.downcast_ref::<PyInt>() {
            self.out.push('"');
            self.int(i)?;
            self.room(1)?;
            self.out.push('"');
            return Ok(());
        } else if let Some(f) = key.downcast_ref::<PyFloat>() {
            let f = f.to_f64();
            if !f.is_finite() {
                return Err(ToJsonError::NonFinite);
            }
            py_float_repr(f)
        } else {
            return Err(ToJsonError::BadKey(type_name(key)));
        };
        write_text(&mut self.out, &text);
        Ok(())
    }

    fn other(&mut self, obj: &PyObject, depth: usize) -> Result<(), ToJsonError> {
        let vm = self.vm;
        let name = type_name(obj);
        let module = class_module(vm, obj);
        match (module.as_deref(), name.as_str()) {
            (Some("datetime"), "datetime" | "date" | "time") => {
                let iso = vm
                    .call_method(obj, "isoformat", ())
                    .map_err(ToJsonError::Raised)?;
                let iso = iso
                    .downcast_ref::<PyStr>()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                write_text(&mut self.out, &iso);
                Ok(())
            }
            (Some("_toolplane"), "ToolCall") => {
                let call_name = obj
                    .get_attr("_name", vm)
                    .ok()
                    .and_then(|n| n.downcast_ref::<PyStr>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "toolplane".into());
                Err(ToJsonError::Unawaited(call_name))
            }
            (Some("builtins"), "set" | "frozenset") if self.mode == Mode::ReturnValue => {
                let items: Vec<PyObjectRef> = vm
                    .extract_elements_with(obj, Ok)
                    .map_err(ToJsonError::Raised)?;
                self.array(obj, &items, depth)
            }
            _ => Err(ToJsonError::NotSerializable(name)),
        }
    }
}

/// Builds a Python object from JSON text (the host's replies and saved payloads).
pub(crate) fn from_json_text(vm: &VirtualMachine, text: &str) -> PyResult<PyObjectRef> {
    // JSON builds no reference cycles, so the cycle collector has nothing to find among these objects;
    // run every 2,000 allocations it was a large share of parsing a list of records. It runs again
    // afterwards.
    let _paused = PausedCycleCollector::new(vm);
    let mut parser = Parser {
        vm,
        text,
        bytes: text.as_bytes(),
        pos: 0,
        keys: KeyCache::default(),
        containers: Vec::new(),
    };
    parser.skip_ws();
    let value = parser.value(0)?;
    parser.skip_ws();
    if parser.pos != parser.bytes.len() {
        return Err(parser.error("extra data"));
    }
    // Every list and dict made here is reachable from `value`, which the caller keeps: the young
    // collection at the next safepoint would traverse them all only to move them to the older
    // generation. Move them now, without the traversal (most of a large load's cost, otherwise).
    vm.state.gc.promote_young(&parser.containers);
    Ok(value)
}

/// What `json.loads` makes of the native decoder's outcome: the value; a `MemoryError` as is (the json
/// module's decoder would grow its list past the budget infallibly and abort an in-process host before
/// the watchdog stops the run); any other error `NotImplemented`, for that decoder to report.
pub(crate) fn native_or_fallback(vm: &VirtualMachine, decoded: PyResult) -> PyResult {
    match decoded {
        Err(error) if error.fast_isinstance(vm.ctx.exceptions.memory_error) => Err(error),
        Err(_) => Ok(vm.ctx.not_implemented()),
        value => value,
    }
}

/// What `json.dumps` makes of the native encoder's outcome: the text; running out of memory a
/// `MemoryError` (the json module's encoder would only grow past the budget again); anything else
/// `NotImplemented`, for that encoder to decide or report.
pub(crate) fn encoded_or_fallback(
    vm: &VirtualMachine,
    encoded: Result<String, ToJsonError>,
) -> PyResult {
    match encoded {
        Ok(text) => Ok(vm.ctx.new_str(text).into()),
        Err(ToJsonError::OutOfMemory(_)) => {
            Err(vm.new_memory_error("out of memory while encoding JSON".to_owned()))
        }
        Err(_) => Ok(vm.ctx.not_implemented()),
    }
}

/// Turns the VM's automatic cycle collection off while it lives, if it was on.
struct PausedCycleCollector<'a>(Option<&'a VirtualMachine>);

impl<'a> PausedCycleCollector<'a> {
    fn new(vm: &'a VirtualMachine) -> Self {
        let gc = &vm.state.gc;
        if gc.is_enabled() {
            gc.disable();
            Self(Some(vm))
        } else {
            Self(None)
        }
    }
}

impl Drop for PausedCycleCollector<'_> {
    fn drop(&mut self) {
        if let Some(vm) = self.0 {
            vm.state.gc.enable();
        }
    }
}

struct Parser<'a> {
    vm: &'a VirtualMachine,
    /// The input; `bytes` is the same, for scanning.
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Object keys seen lately, as Python strings: records repeat their keys, and one shared `str`
    /// (its hash computed once) is cheaper than a new one per record.
    keys: KeyCache<'a>,
    /// Every list and dict made so far, for [`from_json_text`] to promote past the young generation.
    containers: Vec<PyObjectRef>,
}

impl<'a> Parser<'a> {
    fn error(&self, what: &str) -> rustpython_vm::builtins::PyBaseExceptionRef {
        self.vm.new_value_error(format!(
            "invalid JSON from the host: {what} at byte {}",
            self.pos
        ))
    }

    fn out_of_memory(&self) -> rustpython_vm::builtins::PyBaseExceptionRef {
        self.vm
            .new_memory_error("out of memory while decoding JSON".to_owned())
    }

    /// Notes a new container for [`from_json_text`]; fallibly, like the lists themselves.
    fn remember_container(&mut self, container: PyObjectRef) -> PyResult<()> {
        if self.containers.try_reserve(1).is_err() {
            return Err(self.out_of_memory());
        }
        self.containers.push(container);
        Ok(())
    }

    fn finish_list(&mut self, items: Vec<PyObjectRef>) -> PyResult<PyObjectRef> {
        let list: PyObjectRef = self.vm.ctx.new_list(items).into();
        self.remember_container(list.clone())?;
        Ok(list)
    }

    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len()
            && matches!(self.bytes[self.pos], b' ' | b'\t' | b'\n' | b'\r')
        {
            self.pos += 1;
        }
    }

    fn eat(&mut self, literal: &[u8]) -> bool {
        if self.bytes[self.pos..].starts_with(literal) {
            self.pos += literal.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> PyResult<PyObjectRef> {
        let vm = self.vm;
        if depth >= MAX_JSON_DEPTH {
            return Err(
                vm.new_value_error(format!("JSON nesting deeper than {MAX_JSON_DEPTH} levels"))
            );
        }
        match self.bytes.get(self.pos) {
            Some(b'{') => {
                self.pos += 1;
                let dict = vm.ctx.new_dict();
                self.remember_container(dict.clone().into())?;
                self.skip_ws();
                if self.eat(b"}") {
                    return Ok(dict.into());
                }
                loop {
                    self.skip_ws();
                    if self.bytes.get(self.pos) != Some(&b'"') {
                        return Err(self.error("expected a string key"));
                    }
                    let key = match self.string()? {
                        Cow::Borrowed(text) => self.keys.get_or_make(text, vm),
                        Cow::Owned(text) => vm.ctx.new_str(text),
                    };
                    self.skip_ws();
                    if !self.eat(b":") {
                        return Err(self.error("expected ':'"));
                    }
                    self.skip_ws();
                    let value = self.value(depth + 1)?;
                    dict.set_item(&*key, value, vm)?;
                    self.skip_ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"}") {
                        return Ok(dict.into());
                    }
                    return Err(self.error("expected ',' or '}'"));
                }
            }
            Some(b'[') => {
                self.pos += 1;
                let mut items = Vec::new();
                self.skip_ws();
                if self.eat(b"]") {
                    return self.finish_list(items);
                }
                loop {
                    self.skip_ws();
                    let item = self.value(depth + 1)?;
                    // Fallibly: a list that outgrows the memory budget is a MemoryError, not an
                    // abort of the host (in process).
                    if items.try_reserve(1).is_err() {
                        return Err(self.out_of_memory());
                    }
                    items.push(item);
                    self.skip_ws();
                    if self.eat(b",") {
                        continue;
                    }
                    if self.eat(b"]") {
                        return self.finish_list(items);
                    }
                    return Err(self.error("expected ',' or ']'"));
                }
            }
            Some(b'"') => Ok(vm.ctx.new_str(self.string()?).into()),
            Some(b't') if self.eat(b"true") => Ok(vm.ctx.new_bool(true).into()),
            Some(b'f') if self.eat(b"false") => Ok(vm.ctx.new_bool(false).into()),
            Some(b'n') if self.eat(b"null") => Ok(vm.ctx.none()),
            Some(b'N') if self.eat(b"NaN") => Ok(vm.ctx.new_float(f64::NAN).into()),
            Some(b'I') if self.eat(b"Infinity") => Ok(vm.ctx.new_float(f64::INFINITY).into()),
            Some(b'-') if self.bytes[self.pos..].starts_with(b"-Infinity") => {
                self.pos += 9;
                Ok(vm.ctx.new_float(f64::NEG_INFINITY).into())
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error("unexpected character")),
        }
    }

    fn number(&mut self) -> PyResult<PyObjectRef> {
        let vm = self.vm;
        let start = self.pos;
        let mut is_float = false;
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b'0'..=b'9' | b'-' | b'+' => {}
                b'.' | b'e' | b'E' => is_float = true,
                _ => break,
            }
            self.pos += 1;
        }
        // Only ASCII was consumed: both ends are char boundaries.
        let text = self
            .text
            .get(start..self.pos)
            .ok_or_else(|| self.error("bad number"))?;
        if is_float {
            let f: f64 = text.parse().map_err(|_| self.error("bad number"))?;
            return Ok(vm.ctx.new_float(f).into());
        }
        int_from_digits(vm, text)
    }

    /// Moves to the next `"` or `\` (or the end), skipping plain text a vector at a time.
    fn skip_plain(&mut self) {
        self.pos += memchr::memchr2(b'"', b'\\', &self.bytes[self.pos..])
            .unwrap_or(self.bytes.len() - self.pos);
    }

    /// A JSON string's text: borrowed from the input when it has no escapes (the common case).
    fn string(&mut self) -> PyResult<Cow<'a, str>> {
        self.pos += 1; // opening quote
        let start = self.pos;
        self.skip_plain();
        if self.bytes.get(self.pos) == Some(&b'"') {
            // Both ends sit next to an ASCII quote: char boundaries of the input.
            let text = self
                .text
                .get(start..self.pos)
                .ok_or_else(|| self.error("bad UTF-8"))?;
            self.pos += 1;
            return Ok(Cow::Borrowed(text));
        }
        // Escapes: build the text, starting from the plain run already scanned.
        self.pos = start;
        let mut out = String::new();
        loop {
            let start = self.pos;
            self.skip_plain();
            let plain = self
                .text
                .get(start..self.pos)
                .ok_or_else(|| self.error("bad UTF-8"))?;
            // Room for the plain run and one escape's character, reserved fallibly.
            if out.try_reserve(plain.len() + 4).is_err() {
                return Err(self.out_of_memory());
            }
            out.push_str(plain);
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let escape = *self
                        .bytes
                        .get(self.pos)
                        .ok_or_else(|| self.error("unterminated string"))?;
                    self.pos += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let first = self.hex4()?;
                            let cp = if (0xd800..0xdc00).contains(&first)
                                && self.bytes[self.pos..].starts_with(b"\\u")
                            {
                                let save = self.pos;
                                self.pos += 2;
                                let second = self.hex4()?;
                                if (0xdc00..0xe000).contains(&second) {
                                    0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00)
                                } else {
                                    self.pos = save;
                                    first
                                }
                            } else {
                                first
                            };
                            // A lone surrogate has no UTF-8 form; it becomes U+FFFD.
                            out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                        }
                        _ => return Err(self.error("bad escape")),
                    }
                }
                _ => return Err(self.error("unterminated string")),
            }
        }
    }

    fn hex4(&mut self) -> PyResult<u32> {
        let hex = self
            .bytes
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("short \\u escape"))?;
        let hex = std::str::from_utf8(hex).map_err(|_| self.error("bad \\u escape"))?;
        let value = u32::from_str_radix(hex, 16).map_err(|_| self.error("bad \\u escape"))?;
        self.pos += 4;
        Ok(value)
    }
}

/// Object keys by a hash of their text, in a fixed number of slots (as orjson's key cache): a key
/// that finds its slot taken by another replaces it. Lookups cost the same whatever the keys, so
/// keys chosen to collide slow nothing down, and the cache never grows.
struct KeyCache<'a> {
    slots: Vec<Option<(&'a str, PyRef<PyStr>)>>,
}

impl Default for KeyCache<'_> {
    fn default() -> Self {
        Self {
            slots: vec![None; Self::SLOTS],
        }
    }
}

impl<'a> KeyCache<'a> {
    const SLOTS: usize = 1024;
    /// Longer keys are rarely repeated record keys; they are made each time.
    const LONGEST: usize = 64;

    fn get_or_make(&mut self, text: &'a str, vm: &VirtualMachine) -> PyRef<PyStr> {
        if text.len() > Self::LONGEST {
            return vm.ctx.new_str(text);
        }
        let mut hasher = rustc_hash::FxHasher::default();
        hasher.write(text.as_bytes());
        let slot = &mut self.slots[hasher.finish() as usize % Self::SLOTS];
        match slot {
            Some((cached, key)) if *cached == text => key.clone(),
            _ => {
                let key = vm.ctx.new_str(text);
                *slot = Some((text, key.clone()));
                key
            }
        }
    }
}

/// A Python `int` from a JSON integer's text, exact at any size.
fn int_from_digits(vm: &VirtualMachine, text: &str) -> PyResult<PyObjectRef> {
    if let Ok(i) = text.parse::<i64>() {
        return Ok(vm.ctx.new_int(i).into());
    }
    // Beyond 64 bits: let Python's int() parse the exact digits.
    let digits = vm.ctx.new_str(text);
    let int_type: PyObjectRef = vm.ctx.types.int_type.to_owned().into();
    int_type.call((digits,), vm)
}

/// Builds a Python object from a `serde_json::Value` (run inputs), integers exactly.
pub(crate) fn from_value(vm: &VirtualMachine, value: &serde_json::Value) -> PyResult<PyObjectRef> {
    from_value_depth(vm, value, 0)
}

fn from_value_depth(
    vm: &VirtualMachine,
    value: &serde_json::Value,
    depth: usize,
) -> PyResult<PyObjectRef> {
    use serde_json::Value;
    if depth >= MAX_JSON_DEPTH {
        return Err(vm.new_value_error(format!("input nested deeper than {MAX_JSON_DEPTH} levels")));
    }
    Ok(match value {
        Value::Null => vm.ctx.none(),
        Value::Bool(b) => vm.ctx.new_bool(*b).into(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                vm.ctx.new_int(i).into()
            } else if let Some(u) = n.as_u64() {
                vm.ctx.new_int(u).into()
            } else {
                // With the `exact-numbers` feature the text holds every digit; as Python's json.loads,
                // a float beyond f64 reads as infinity.
                let text = n.to_string();
                if text.contains(['.', 'e', 'E']) {
                    vm.ctx.new_float(text.parse().unwrap_or(f64::NAN)).into()
                } else {
                    int_from_digits(vm, &text)?
                }
            }
        }
        Value::String(s) => vm.ctx.new_str(s.as_str()).into(),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|v| from_value_depth(vm, v, depth + 1))
                .collect::<PyResult<Vec<_>>>()?;
            vm.ctx.new_list(items).into()
        }
        Value::Object(map) => {
            let dict = vm.ctx.new_dict();
            for (k, v) in map {
                dict.set_item(k.as_str(), from_value_depth(vm, v, depth + 1)?, vm)?;
            }
            dict.into()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Out of memory, the native decoder and encoder raise `MemoryError`; other errors hand over to the
    /// json module.
    #[test]
    fn out_of_memory_is_not_handed_to_the_json_module() {
        crate::vm::on_sandbox_thread(|vm| {
            let memory = vm.new_memory_error("out of memory while decoding JSON".to_owned());
            let raised = native_or_fallback(vm, Err(memory)).unwrap_err();
            assert!(raised.fast_isinstance(vm.ctx.exceptions.memory_error));
            let syntax = from_json_text(vm, "[1,").unwrap_err();
            assert!(
                native_or_fallback(vm, Err(syntax))
                    .unwrap()
                    .is(&vm.ctx.not_implemented)
            );
            let value = native_or_fallback(vm, from_json_text(vm, "[1]")).unwrap();
            assert_eq!(value.str(vm).unwrap().to_str(), Some("[1]"));
            let raised =
                encoded_or_fallback(vm, Err(ToJsonError::OutOfMemory(1 << 30))).unwrap_err();
            assert!(raised.fast_isinstance(vm.ctx.exceptions.memory_error));
            let circular = encoded_or_fallback(vm, Err(ToJsonError::Circular)).unwrap();
            assert!(circular.is(&vm.ctx.not_implemented));
            let text = encoded_or_fallback(vm, Ok("[1]".into())).unwrap();
            assert_eq!(text.str(vm).unwrap().to_str(), Some("[1]"));
        });
    }

    /// The young collection after a large load would only move every list and dict it made to the
    /// older generation (they are all reachable from the result): the load does that itself.
    #[test]
    fn a_load_leaves_its_containers_out_of_the_young_generation() {
        crate::vm::on_sandbox_thread(|vm| {
            let records = 3000;
            let text = format!(
                "[{}]",
                vec![r#"{"id": 1, "tags": ["a", "b"]}"#; records].join(",")
            );
            let gc = rustpython_vm::gc_state::gc_state();
            let (young_before, older_before, _) = gc.get_count();
            let value = from_json_text(vm, &text).unwrap();
            let (young_after, older_after, _) = gc.get_count();
            let containers = 1 + 2 * records;
            assert!(
                young_after < young_before + 100,
                "{young_before} -> {young_after} young objects after a load of {containers} containers"
            );
            assert!(
                older_after >= older_before + containers,
                "{older_before} -> {older_after} in the older generation after a load of {containers} containers"
            );
            let list = value.downcast::<PyList>().unwrap();
            assert_eq!(list.borrow_vec().len(), records);
        });
    }
}
