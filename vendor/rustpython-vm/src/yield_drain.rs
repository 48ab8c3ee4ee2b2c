//! A generator drained by a consumer written in Rust (`sum`, `max`, `list`, `str.join`, ...) without
//! suspending it per item.
//!
//! Taking an item from a generator the ordinary way resumes its frame in a new run of the
//! dispatch loop and leaves that run again at the `yield`: the claim on the generator, its
//! exception state, the frame-chain link and the loop's own set-up and tear-down, on every
//! item. A consumer that only folds the items into a machine number or an extreme, keeps them
//! in a vector or a list, or passes over those of a truth known without Python, needs none of
//! that between two items, since no Python code runs there. So it installs a [`YieldSink`] for
//! the generator's frame while it resumes it, and that frame's `YIELD_VALUE` offers the item to
//! the sink: taken, the frame runs on as if resumed with `None`; declined (an item the sink
//! cannot fold without running Python, such as an object with its own `__radd__`), the frame
//! suspends there as usual and the consumer handles the item the ordinary way.
//!
//! Nothing the snippet can observe differs: the generator is running for the whole drained
//! run (between two items it would be suspended, but nothing runs then that could look), it
//! stops at the same `yield` whenever it does suspend, and what the sink folds is exactly
//! what the consumer would have folded. Tracing and `sys.monitoring` see every suspension,
//! so a frame they watch is never drained.

use num_traits::Zero;

use crate::{
    AsObject, Py, PyObject, PyObjectRef, PyResult, VirtualMachine,
    builtins::{PyFloat, PyGenerator, PyInt, PyList, PyListRef, PyStr},
    frame::InterpreterFrame,
    protocol::{PyIter, PyIterReturn},
    types::PyComparisonOp,
};

/// What a Rust consumer folds a generator's items into while the generator's frame hands them
/// over at its `yield`.
#[derive(Debug)]
pub(crate) enum YieldSink {
    /// `sum`'s total while it is an exact int that fits 64 bits; it takes exact ints and bools
    /// whose sum still fits.
    IntTotal(i64),
    /// `sum`'s total while it is an exact float; it takes exact floats and the exact ints a
    /// float holds exactly, so that adding the `f64` is what `float.__add__` gives.
    FloatTotal(f64),
    /// The items in order, for a consumer that wants them all before it starts (`str.join`,
    /// `sorted`, `tuple`). Grown fallibly: an item there is no room for is handed back, and the
    /// consumer's own fallible push turns that into a `MemoryError`.
    Collect(Vec<PyObjectRef>),
    /// The list `list.extend` (and so `list()`) appends each item to as it comes, which the
    /// generator can look at between items, as it can in CPython. Grown as [`Self::Collect`].
    Append(PyListRef),
    /// `any` (`false`) and `all` (`true`) pass over the items of this truth; it takes those whose
    /// truth needs no Python (`None`, and exact bools, ints, floats and strs), and hands back
    /// every other item, for the consumer to test with `__bool__` or `__len__`.
    SkipTruth(bool),
    /// `max` (`Gt`) or `min` (`Lt`) without a key: the extreme so far. It takes the items of its
    /// own exact type among int, float and str, compared as that type compares them (a NaN
    /// never wins, an equal item never replaces the first), and hands back every other item for
    /// the consumer's rich comparison.
    Extreme {
        best: PyObjectRef,
        op: PyComparisonOp,
    },
}

impl YieldSink {
    /// Fold `item` in, or hand it back when folding it needs Python (`+` of objects).
    #[inline(always)]
    pub(crate) fn offer(
        &mut self,
        item: PyObjectRef,
        vm: &VirtualMachine,
    ) -> Result<(), PyObjectRef> {
        match self {
            Self::IntTotal(total) => {
                if let Some(added) = int_item(&item, vm).and_then(|v| total.checked_add(v)) {
                    *total = added;
                    return Ok(());
                }
            }
            Self::FloatTotal(total) => {
                if let Some(value) = float_item(&item, vm) {
                    *total += value;
                    return Ok(());
                }
            }
            Self::SkipTruth(skipped) => {
                if atom_truth(&item, vm) == Some(*skipped) {
                    return Ok(());
                }
            }
            Self::Extreme { best, op } => match item.compare_exact_scalars(best, *op, vm) {
                Some(true) => {
                    *best = item;
                    return Ok(());
                }
                Some(false) => return Ok(()),
                None => {}
            },
            Self::Collect(items) => return push_if_room(items, item),
            Self::Append(list) => return push_if_room(&mut list.borrow_vec_mut(), item),
        }
        Err(item)
    }
}

/// Push `item` if the vector has room for it or can make it, else hand it back.
#[inline]
fn push_if_room(items: &mut Vec<PyObjectRef>, item: PyObjectRef) -> Result<(), PyObjectRef> {
    if items.len() == items.capacity() && items.try_reserve(1).is_err() {
        return Err(item);
    }
    items.push(item);
    Ok(())
}

/// The truth of `item` when it needs no Python: `None`, or an exact bool, int, float or str.
#[inline]
fn atom_truth(item: &PyObject, vm: &VirtualMachine) -> Option<bool> {
    if item.is(&vm.ctx.true_value) {
        Some(true)
    } else if item.is(&vm.ctx.false_value) || vm.is_none(item) {
        Some(false)
    } else if let Some(int) = item.downcast_ref_if_exact::<PyInt>(vm) {
        Some(!int.as_bigint().is_zero())
    } else if let Some(float) = item.downcast_ref_if_exact::<PyFloat>(vm) {
        Some(float.to_f64() != 0.0)
    } else {
        item.downcast_ref_if_exact::<PyStr>(vm)
            .map(|text| !text.is_empty())
    }
}

/// An item an int total takes: an exact int that fits 64 bits, or a bool (which adds as one).
#[inline]
fn int_item(item: &PyObject, vm: &VirtualMachine) -> Option<i64> {
    if let Some(int) = item.downcast_ref_if_exact::<PyInt>(vm) {
        int.try_to_i64_fast()
    } else if item.is(&vm.ctx.true_value) {
        Some(1)
    } else if item.is(&vm.ctx.false_value) {
        Some(0)
    } else {
        None
    }
}

/// An item a float total takes: an exact float, or an exact int a float holds exactly.
#[inline]
fn float_item(item: &PyObject, vm: &VirtualMachine) -> Option<f64> {
    const EXACT_IN_F64: u64 = 1 << f64::MANTISSA_DIGITS;
    if let Some(float) = item.downcast_ref_if_exact::<PyFloat>(vm) {
        Some(float.to_f64())
    } else {
        let int = item.downcast_ref_if_exact::<PyInt>(vm)?.try_to_i64_fast()?;
        (int.unsigned_abs() <= EXACT_IN_F64).then_some(int as f64)
    }
}

/// The sink a consumer installed, and the one frame whose `yield` may feed it.
#[derive(Debug)]
pub(crate) struct YieldDrain {
    frame: *const InterpreterFrame,
    sink: YieldSink,
}

/// The drain installed for one resume of a generator, taken down again (and the one it
/// shadowed, by a consumer further out, put back) by [`Self::finish`], or when dropped on the
/// way out of a panic.
struct DrainScope<'vm> {
    vm: &'vm VirtualMachine,
    /// What to put back; `None` once it has been.
    outer: Option<Option<YieldDrain>>,
}

impl<'vm> DrainScope<'vm> {
    fn install(vm: &'vm VirtualMachine, frame: *const InterpreterFrame, sink: YieldSink) -> Self {
        let outer = vm.yield_drain.replace(Some(YieldDrain { frame, sink }));
        vm.yield_drain_frame.set(frame);
        Self {
            vm,
            outer: Some(outer),
        }
    }

    /// The sink as the drained run left it. Scopes nest, each putting back what it found, so the
    /// drain in place here is still this one.
    fn finish(mut self) -> YieldSink {
        let mine = put_back(self.vm, self.outer.take().flatten());
        mine.expect("nested drains put back what they found").sink
    }
}

impl Drop for DrainScope<'_> {
    fn drop(&mut self) {
        if let Some(outer) = self.outer.take() {
            put_back(self.vm, outer);
        }
    }
}

/// Make `outer` the drain in place again, and return the one it replaces.
fn put_back(vm: &VirtualMachine, outer: Option<YieldDrain>) -> Option<YieldDrain> {
    vm.yield_drain_frame.set(
        outer
            .as_ref()
            .map_or(core::ptr::null(), |drain| drain.frame),
    );
    vm.yield_drain.replace(outer)
}

impl VirtualMachine {
    /// Offer the item `frame` is about to yield to the consumer draining it, if one is; `item`
    /// takes it off the frame's stack only then. `Err` hands it back to be yielded.
    #[inline]
    pub(crate) fn take_from_drained_frame(
        &self,
        frame: *const InterpreterFrame,
        item: impl FnOnce() -> PyObjectRef,
    ) -> Option<Result<(), PyObjectRef>> {
        let mut drain = self.yield_drain.borrow_mut();
        let drain = drain
            .as_mut()
            .filter(|drain| core::ptr::eq(drain.frame, frame))?;
        Some(drain.sink.offer(item(), self))
    }
}

/// The next item of `items` that `sink` does not take, after folding every one before it into
/// `sink`; `None` once `items` is exhausted.
///
/// An exact generator is drained in its own frame (see the module docs); any other iterator is
/// stepped here, item by item, with the same sink.
pub(crate) fn next_declined(
    items: &PyIter,
    sink: &mut YieldSink,
    vm: &VirtualMachine,
) -> PyResult<Option<PyObjectRef>> {
    let Some(generator) = items.as_ref().downcast_ref_if_exact::<PyGenerator>(vm) else {
        loop {
            let PyIterReturn::Return(item) = items.next(vm)? else {
                return Ok(None);
            };
            match sink.offer(item, vm) {
                Ok(()) => continue,
                Err(item) => return Ok(Some(item)),
            }
        }
    };
    // As `PyIter::next`: every step a native loop takes polls for the embedder's limits.
    vm.check_signals()?;
    let coro = generator.as_coro();
    let result = match coro.frame_for_drain() {
        Some(frame) => {
            let taken = core::mem::replace(sink, YieldSink::IntTotal(0));
            let scope = DrainScope::install(vm, frame, taken);
            let result = coro.send_none(generator.as_object(), vm);
            *sink = scope.finish();
            result
        }
        None => coro.send_none(generator.as_object(), vm),
    };
    match result? {
        PyIterReturn::Return(item) => Ok(Some(item)),
        PyIterReturn::StopIteration(_) => Ok(None),
    }
}

/// Every item of `obj` in order, if it is an exact generator, which is drained in its own frame
/// (see the module docs); `None` for any other object, which the caller iterates as it would.
/// A vector there is no room for is a `MemoryError`.
pub(crate) fn collect_generator(
    obj: &PyObject,
    vm: &VirtualMachine,
) -> Option<PyResult<Vec<PyObjectRef>>> {
    obj.downcast_ref_if_exact::<PyGenerator>(vm)?;
    Some(collect_items(&PyIter::new(obj.to_owned()), vm))
}

/// Every item of `items` in order. The sink hands back only an item there was no room for, and
/// pushing it here fallibly makes that a `MemoryError`.
fn collect_items(items: &PyIter, vm: &VirtualMachine) -> PyResult<Vec<PyObjectRef>> {
    let mut sink = YieldSink::Collect(Vec::new());
    while let Some(item) = next_declined(items, &mut sink, vm)? {
        let YieldSink::Collect(collected) = &mut sink else {
            unreachable!("a collection stays one")
        };
        vm.push_fallibly(collected, item)?;
    }
    let YieldSink::Collect(collected) = sink else {
        unreachable!("a collection stays one")
    };
    Ok(collected)
}

/// Fold the items of `items` into `sink`, `sum`'s int or float total, up to the first one it
/// cannot take: the total as an object, and that item (`None` once `items` is exhausted).
pub(crate) fn fold_into_total(
    items: &PyIter,
    mut sink: YieldSink,
    vm: &VirtualMachine,
) -> PyResult<(PyObjectRef, Option<PyObjectRef>)> {
    let declined = next_declined(items, &mut sink, vm)?;
    let total = match sink {
        YieldSink::IntTotal(total) => vm.ctx.new_int(total).into(),
        YieldSink::FloatTotal(total) => vm.ctx.new_float(total).into(),
        _ => unreachable!("only a total is folded into one"),
    };
    Ok((total, declined))
}

/// Append every item of the exact generator `generator` to `list` as it comes (`list.extend`),
/// draining it in its own frame (see the module docs). Each append is fallible: a list there is
/// no room for is a `MemoryError`.
pub(crate) fn extend_from_generator(
    list: &Py<PyList>,
    generator: &PyObject,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let items = PyIter::new(generator.to_owned());
    let mut sink = YieldSink::Append(list.to_owned());
    while let Some(item) = next_declined(&items, &mut sink, vm)? {
        vm.push_fallibly(&mut list.borrow_vec_mut(), item)?;
    }
    Ok(())
}
