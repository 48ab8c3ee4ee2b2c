use super::PyType;
use crate::{
    AsObject, Context, Py, PyObjectRef, PyPayload, PyRef, PyResult, TryFromObject, VirtualMachine,
    builtins::PyTupleRef,
    class::PyClassImpl,
    function::{ArgIntoBool, PosArgs},
    protocol::{PyIter, PyIterReturn},
    types::{Constructor, IterNext, Iterable, SelfIter},
};
use rustpython_common::atomic::{self, PyAtomic, Radium};

#[pyclass(module = false, name = "zip", traverse)]
#[derive(Debug)]
pub struct PyZip {
    iterators: Vec<PyIter>,
    #[pytraverse(skip)]
    strict: PyAtomic<bool>,
}

impl PyPayload for PyZip {
    #[inline]
    fn class(ctx: &Context) -> &'static Py<PyType> {
        ctx.types.zip_type
    }
}

#[derive(FromArgs)]
pub struct PyZipNewArgs {
    #[pyarg(flatten)]
    iterables: PosArgs<PyIter, crate::function::NameIterables>,
    #[pyarg(named, default)]
    strict: bool,
}

impl Constructor for PyZip {
    type Args = PyZipNewArgs;

    fn py_new(
        _cls: &Py<PyType>,
        PyZipNewArgs { iterables, strict }: Self::Args,
        _vm: &VirtualMachine,
    ) -> PyResult<Self> {
        let iterators = iterables.into_vec();
        let strict = Radium::new(strict);
        Ok(Self { iterators, strict })
    }
}

#[pyclass(with(IterNext, Iterable, Constructor), flags(BASETYPE))]
impl PyZip {
    #[pymethod]
    fn __reduce__(zelf: PyRef<Self>, vm: &VirtualMachine) -> PyTupleRef {
        let cls = zelf.class().to_owned();
        let iterators = zelf
            .iterators
            .iter()
            .map(|obj| obj.clone().into())
            .collect::<Vec<_>>();
        let tuple_iter = vm.ctx.new_tuple(iterators);
        if zelf.strict.load(atomic::Ordering::Acquire) {
            vm.new_tuple((cls, tuple_iter, true))
        } else {
            vm.new_tuple((cls, tuple_iter))
        }
    }

    #[pymethod]
    fn __setstate__(zelf: PyRef<Self>, object: PyObjectRef, vm: &VirtualMachine) {
        if let Ok(obj) = ArgIntoBool::try_from_object(vm, object) {
            zelf.strict.store(obj.into(), atomic::Ordering::Release);
        }
    }
}

impl SelfIter for PyZip {}

impl IterNext for PyZip {
    fn next(zelf: &Py<Self>, vm: &VirtualMachine) -> PyResult<PyIterReturn> {
        if zelf.iterators.is_empty() {
            return Ok(PyIterReturn::StopIteration(None));
        }
        let mut next_objs = Vec::with_capacity(zelf.iterators.len());
        Ok(match zelf.next_items(vm, |item| next_objs.push(item))? {
            PyIterReturn::Return(()) => PyIterReturn::Return(vm.ctx.new_tuple(next_objs).into()),
            PyIterReturn::StopIteration(value) => PyIterReturn::StopIteration(value),
        })
    }
}

impl PyZip {
    /// Whether this zips exactly two iterables, for [`Self::next_pair`].
    pub(crate) fn is_pair(&self) -> bool {
        self.iterators.len() == 2
    }

    /// The next item of each of two iterables, without the tuple `next`
    /// makes of them: what `for a, b in zip(xs, ys)` unpacks at once (see
    /// the dispatch loop's `FOR_ITER`). Only for a zip of two
    /// ([`Self::is_pair`]).
    pub(crate) fn next_pair(
        &self,
        vm: &VirtualMachine,
    ) -> PyResult<PyIterReturn<(PyObjectRef, PyObjectRef)>> {
        debug_assert!(self.is_pair());
        let mut items = [None, None];
        let mut taken = 0;
        Ok(
            match self.next_items(vm, |item| {
                items[taken] = Some(item);
                taken += 1;
            })? {
                PyIterReturn::Return(()) => {
                    let [Some(first), Some(second)] = items else {
                        unreachable!("a zip of two took two items")
                    };
                    PyIterReturn::Return((first, second))
                }
                PyIterReturn::StopIteration(value) => PyIterReturn::StopIteration(value),
            },
        )
    }

    /// Take the next item of every iterable, in order, or stop (checking
    /// `strict`'s lengths) at the first that is done.
    fn next_items(
        &self,
        vm: &VirtualMachine,
        mut take: impl FnMut(PyObjectRef),
    ) -> PyResult<PyIterReturn<()>> {
        let zelf = self;
        for (idx, iterator) in zelf.iterators.iter().enumerate() {
            let item = match iterator.next(vm)? {
                PyIterReturn::Return(obj) => obj,
                PyIterReturn::StopIteration(v) => {
                    if zelf.strict.load(atomic::Ordering::Acquire) {
                        if idx > 0 {
                            let plural = if idx == 1 { " " } else { "s 1-" };
                            return Err(vm.new_value_error(format!(
                                "zip() argument {} is shorter than argument{}{}",
                                idx + 1,
                                plural,
                                idx
                            )));
                        }
                        for (idx, iterator) in zelf.iterators[1..].iter().enumerate() {
                            if let PyIterReturn::Return(_obj) = iterator.next(vm)? {
                                let plural = if idx == 0 { " " } else { "s 1-" };
                                return Err(vm.new_value_error(format!(
                                    "zip() argument {} is longer than argument{}{}",
                                    idx + 2,
                                    plural,
                                    idx + 1
                                )));
                            }
                        }
                    }
                    return Ok(PyIterReturn::StopIteration(v));
                }
            };
            take(item);
        }
        Ok(PyIterReturn::Return(()))
    }
}

pub(crate) fn init(ctx: &'static Context) {
    PyZip::extend_class(ctx, ctx.types.zip_type);
}
