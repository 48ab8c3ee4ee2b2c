use super::{Callee, FromArgs, FuncArgs, PositionalArgs, bind_positionals_for};
use crate::{
    Py, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine, convert::ToPyResult,
    object::PyThreadingConstraint,
};
use core::marker::PhantomData;

/// A built-in Python function.
// PyCFunction in CPython
pub trait PyNativeFn:
    Fn(&VirtualMachine, FuncArgs, Callee) -> PyResult + PyThreadingConstraint + 'static
{
}

impl<F> PyNativeFn for F where
    F: Fn(&VirtualMachine, FuncArgs, Callee) -> PyResult + PyThreadingConstraint + 'static
{
}

/// Implemented by types that are or can generate built-in functions.
///
/// This trait is implemented by any function that matches the pattern:
///
/// ```rust,ignore
/// Fn([&self,] [T where T: FromArgs, ...] [, vm: &VirtualMachine])
/// ```
///
/// For example, anything from `Fn()` to `Fn(vm: &VirtualMachine) -> u32` to
/// `Fn(PyIntRef, PyIntRef) -> String` to
/// `Fn(&self, PyStrRef, FooOptions, vm: &VirtualMachine) -> PyResult<PyInt>`
/// is `IntoPyNativeFn`. If you do want a really general function signature, e.g.
/// to forward the args to another function, you can define a function like
/// `Fn(FuncArgs [, &VirtualMachine]) -> ...`
///
/// Note that the `Kind` type parameter is meaningless and should be considered
/// an implementation detail; if you need to use `IntoPyNativeFn` as a trait bound
/// just pass an unconstrained generic type, e.g.
/// `fn foo<F, FKind>(f: F) where F: IntoPyNativeFn<FKind>`
pub trait IntoPyNativeFn<Kind>: Sized + PyThreadingConstraint + 'static {
    /// Whether [`call_positionals`](Self::call_positionals) binds positional
    /// arguments without building a [`FuncArgs`].
    const BINDS_FROM_POSITIONALS: bool = false;

    fn call(&self, vm: &VirtualMachine, args: FuncArgs, callee: Callee) -> PyResult;

    /// Calls the function with positional arguments alone, held in the
    /// caller's `slots` (the instance first, for a method), as
    /// [`call`](Self::call) would with a [`FuncArgs`] holding them.
    ///
    /// A function whose parameters all bind from positionals
    /// ([`FromArgs::BINDS_FROM_POSITIONALS`]) takes them without an argument
    /// vector; the default builds one.
    fn call_positionals(
        &self,
        vm: &VirtualMachine,
        slots: &mut [Option<PyObjectRef>],
        callee: Callee,
    ) -> PyResult {
        self.call(vm, PositionalArgs::new(slots).take_rest(), callee)
    }

    /// `IntoPyNativeFn::into_func()` generates a PyNativeFn that performs the
    /// appropriate type and arity checking, any requested conversions, and then if
    /// successful calls the function with the extracted parameters.
    fn into_func(self) -> impl PyNativeFn {
        into_func(self)
    }
}

const fn into_func<F: IntoPyNativeFn<Kind>, Kind>(f: F) -> impl PyNativeFn {
    move |vm: &VirtualMachine, args, callee| f.call(vm, args, callee)
}

/// A built-in function's entry point for a call with positional arguments
/// alone, held in the caller's slots: see [`IntoPyNativeFn::call_positionals`].
pub type PyNativePositionalFn = fn(&VirtualMachine, &mut [Option<PyObjectRef>], Callee) -> PyResult;

/// The [`PyNativePositionalFn`] of `f`, a zero-sized function (as
/// [`static_func`] requires), when it binds positional arguments without a
/// [`FuncArgs`]; `None` when it would only build one.
pub(crate) const fn positional_func<Kind, F: IntoPyNativeFn<Kind>>(
    _f: &F,
) -> Option<PyNativePositionalFn> {
    if F::BINDS_FROM_POSITIONALS {
        // `_f` exists, so `call_zst_positionals::<_, F>` may conjure one like it.
        Some(call_zst_positionals::<Kind, F>)
    } else {
        None
    }
}

fn call_zst_positionals<Kind, F: IntoPyNativeFn<Kind>>(
    vm: &VirtualMachine,
    slots: &mut [Option<PyObjectRef>],
    callee: Callee,
) -> PyResult {
    const {
        assert!(
            core::mem::size_of::<F>() == 0,
            "can't use a non-zero-sized type here"
        );
    }
    // SAFETY: F is zero-sized (checked above), so a dangling, aligned pointer
    // is a valid reference to it, and it has no state to be wrong about. This
    // function is only reachable through `positional_func`, which was shown
    // a value of F, so F is inhabited (`static_func` conjures one the same
    // way).
    let f = unsafe { core::ptr::NonNull::<F>::dangling().as_ref() };
    f.call_positionals(vm, slots, callee)
}

const fn zst_ref_out_of_thin_air<T: 'static>(x: T) -> &'static T {
    // if T is zero-sized, there's no issue forgetting it - even if it does have a Drop impl, it
    // would never get called anyway if we consider this semantically a Box::leak(Box::new(x))-type
    // operation. if T isn't zero-sized, we don't have to worry about it because we'll fail to compile.
    core::mem::forget(x);
    const {
        assert!(
            core::mem::size_of::<T>() == 0,
            "can't use a non-zero-sized type here"
        );
        // SAFETY: we just confirmed that T is zero-sized, so we can
        //         pull a value of it out of thin air.
        unsafe { core::ptr::NonNull::<T>::dangling().as_ref() }
    }
}

/// Get the STATIC_FUNC of the passed function. The same
/// requirements of zero-sized-ness apply, see that documentation for details.
///
/// Equivalent to [`IntoPyNativeFn::into_func()`], but usable in a const context. This is only
/// valid if the function is zero-sized, i.e. that `std::mem::size_of::<F>() == 0`. If you call
/// this function with a non-zero-sized function, it will raise a compile error.
#[inline(always)]
pub const fn static_func<Kind, F: IntoPyNativeFn<Kind>>(f: F) -> &'static dyn PyNativeFn {
    zst_ref_out_of_thin_air(into_func(f))
}

#[inline(always)]
pub const fn static_raw_func<F: PyNativeFn>(f: F) -> &'static dyn PyNativeFn {
    zst_ref_out_of_thin_air(f)
}

// TODO: once higher-rank trait bounds are stabilized, remove the `Kind` type
// parameter and impl for F where F: for<T, R, VM> PyNativeFnInternal<T, R, VM>
impl<F, T, R, VM> IntoPyNativeFn<(T, R, VM)> for F
where
    F: PyNativeFnInternal<T, R, VM>,
{
    const BINDS_FROM_POSITIONALS: bool = F::BINDS_FROM_POSITIONALS;

    #[inline(always)]
    fn call(&self, vm: &VirtualMachine, args: FuncArgs, callee: Callee) -> PyResult {
        self.call_(vm, args, callee)
    }

    #[inline(always)]
    fn call_positionals(
        &self,
        vm: &VirtualMachine,
        slots: &mut [Option<PyObjectRef>],
        callee: Callee,
    ) -> PyResult {
        self.call_positionals_(vm, slots, callee)
    }
}

mod sealed {
    use super::*;
    pub trait PyNativeFnInternal<T, R, VM>: Sized + PyThreadingConstraint + 'static {
        const BINDS_FROM_POSITIONALS: bool;
        fn call_(&self, vm: &VirtualMachine, args: FuncArgs, callee: Callee) -> PyResult;
        fn call_positionals_(
            &self,
            vm: &VirtualMachine,
            slots: &mut [Option<PyObjectRef>],
            callee: Callee,
        ) -> PyResult;
    }
}
use sealed::PyNativeFnInternal;

#[doc(hidden)]
pub struct OwnedParam<T>(PhantomData<T>);

#[doc(hidden)]
pub struct BorrowedParam<T>(PhantomData<T>);

#[doc(hidden)]
pub struct RefParam<T>(PhantomData<T>);

// This is the "magic" that allows rust functions of varying signatures to
// generate native python functions.
//
// Note that this could be done without a macro - it is simply to avoid repetition.
macro_rules! into_py_native_fn_tuple {
    ($(($n:tt, $T:ident)),*) => {
        impl<F, $($T,)* R> PyNativeFnInternal<($(OwnedParam<$T>,)*), R, VirtualMachine> for F
        where
            F: Fn($($T,)* &VirtualMachine) -> R + PyThreadingConstraint + 'static,
            $($T: FromArgs,)*
            R: ToPyResult,
        {
            const BINDS_FROM_POSITIONALS: bool = <($($T,)*)>::BINDS_FROM_POSITIONALS;

            fn call_(&self, vm: &VirtualMachine, args: FuncArgs, callee: Callee) -> PyResult {
                let ($($n,)*) = args.bind_for::<($($T,)*)>(vm, callee)?;

                (self)($($n,)* vm).to_pyresult(vm)
            }

            #[inline]
            fn call_positionals_(
                &self,
                vm: &VirtualMachine,
                slots: &mut [Option<PyObjectRef>],
                callee: Callee,
            ) -> PyResult {
                let ($($n,)*) = bind_positionals_for::<($($T,)*)>(vm, slots, callee)?;

                (self)($($n,)* vm).to_pyresult(vm)
            }
        }

        impl<F, S, $($T,)* R> PyNativeFnInternal<(BorrowedParam<S>, $(OwnedParam<$T>,)*), R, VirtualMachine> for F
        where
            F: Fn(&Py<S>, $($T,)* &VirtualMachine) -> R + PyThreadingConstraint + 'static,
            S: PyPayload,
            $($T: FromArgs,)*
            R: ToPyResult,
        {
            const BINDS_FROM_POSITIONALS: bool =
                <(PyRef<S>, $($T,)*)>::BINDS_FROM_POSITIONALS;

            fn call_(&self, vm: &VirtualMachine, args: FuncArgs, callee: Callee) -> PyResult {
                let (zelf, $($n,)*) = args.bind_for::<(PyRef<S>, $($T,)*)>(vm, callee)?;

                (self)(&zelf, $($n,)* vm).to_pyresult(vm)
            }

            #[inline]
            fn call_positionals_(
                &self,
                vm: &VirtualMachine,
                slots: &mut [Option<PyObjectRef>],
                callee: Callee,
            ) -> PyResult {
                let (zelf, $($n,)*) = bind_positionals_for::<(PyRef<S>, $($T,)*)>(vm, slots, callee)?;

                (self)(&zelf, $($n,)* vm).to_pyresult(vm)
            }
        }

        impl<F, S, $($T,)* R> PyNativeFnInternal<(RefParam<S>, $(OwnedParam<$T>,)*), R, VirtualMachine> for F
        where
            F: Fn(&S, $($T,)* &VirtualMachine) -> R + PyThreadingConstraint + 'static,
            S: PyPayload,
            $($T: FromArgs,)*
            R: ToPyResult,
        {
            const BINDS_FROM_POSITIONALS: bool =
                <(PyRef<S>, $($T,)*)>::BINDS_FROM_POSITIONALS;

            fn call_(&self, vm: &VirtualMachine, args: FuncArgs, callee: Callee) -> PyResult {
                let (zelf, $($n,)*) = args.bind_for::<(PyRef<S>, $($T,)*)>(vm, callee)?;

                (self)(&zelf, $($n,)* vm).to_pyresult(vm)
            }

            #[inline]
            fn call_positionals_(
                &self,
                vm: &VirtualMachine,
                slots: &mut [Option<PyObjectRef>],
                callee: Callee,
            ) -> PyResult {
                let (zelf, $($n,)*) = bind_positionals_for::<(PyRef<S>, $($T,)*)>(vm, slots, callee)?;

                (self)(&zelf, $($n,)* vm).to_pyresult(vm)
            }
        }

        impl<F, $($T,)* R> PyNativeFnInternal<($(OwnedParam<$T>,)*), R, ()> for F
        where
            F: Fn($($T,)*) -> R + PyThreadingConstraint + 'static,
            $($T: FromArgs,)*
            R: ToPyResult,
        {
            const BINDS_FROM_POSITIONALS: bool = <($($T,)*)>::BINDS_FROM_POSITIONALS;

            fn call_(&self, vm: &VirtualMachine, args: FuncArgs, callee: Callee) -> PyResult {
                let ($($n,)*) = args.bind_for::<($($T,)*)>(vm, callee)?;

                (self)($($n,)*).to_pyresult(vm)
            }

            #[inline]
            fn call_positionals_(
                &self,
                vm: &VirtualMachine,
                slots: &mut [Option<PyObjectRef>],
                callee: Callee,
            ) -> PyResult {
                let ($($n,)*) = bind_positionals_for::<($($T,)*)>(vm, slots, callee)?;

                (self)($($n,)*).to_pyresult(vm)
            }
        }

        impl<F, S, $($T,)* R> PyNativeFnInternal<(BorrowedParam<S>, $(OwnedParam<$T>,)*), R, ()> for F
        where
            F: Fn(&Py<S>, $($T,)*) -> R + PyThreadingConstraint + 'static,
            S: PyPayload,
            $($T: FromArgs,)*
            R: ToPyResult,
        {
            const BINDS_FROM_POSITIONALS: bool =
                <(PyRef<S>, $($T,)*)>::BINDS_FROM_POSITIONALS;

            fn call_(&self, vm: &VirtualMachine, args: FuncArgs, callee: Callee) -> PyResult {
                let (zelf, $($n,)*) = args.bind_for::<(PyRef<S>, $($T,)*)>(vm, callee)?;

                (self)(&zelf, $($n,)*).to_pyresult(vm)
            }

            #[inline]
            fn call_positionals_(
                &self,
                vm: &VirtualMachine,
                slots: &mut [Option<PyObjectRef>],
                callee: Callee,
            ) -> PyResult {
                let (zelf, $($n,)*) = bind_positionals_for::<(PyRef<S>, $($T,)*)>(vm, slots, callee)?;

                (self)(&zelf, $($n,)*).to_pyresult(vm)
            }
        }

        impl<F, S, $($T,)* R> PyNativeFnInternal<(RefParam<S>, $(OwnedParam<$T>,)*), R, ()> for F
        where
            F: Fn(&S, $($T,)*) -> R + PyThreadingConstraint + 'static,
            S: PyPayload,
            $($T: FromArgs,)*
            R: ToPyResult,
        {
            const BINDS_FROM_POSITIONALS: bool =
                <(PyRef<S>, $($T,)*)>::BINDS_FROM_POSITIONALS;

            fn call_(&self, vm: &VirtualMachine, args: FuncArgs, callee: Callee) -> PyResult {
                let (zelf, $($n,)*) = args.bind_for::<(PyRef<S>, $($T,)*)>(vm, callee)?;

                (self)(&zelf, $($n,)*).to_pyresult(vm)
            }

            #[inline]
            fn call_positionals_(
                &self,
                vm: &VirtualMachine,
                slots: &mut [Option<PyObjectRef>],
                callee: Callee,
            ) -> PyResult {
                let (zelf, $($n,)*) = bind_positionals_for::<(PyRef<S>, $($T,)*)>(vm, slots, callee)?;

                (self)(&zelf, $($n,)*).to_pyresult(vm)
            }
        }
    };
}

into_py_native_fn_tuple!();
into_py_native_fn_tuple!((v1, T1));
into_py_native_fn_tuple!((v1, T1), (v2, T2));
into_py_native_fn_tuple!((v1, T1), (v2, T2), (v3, T3));
into_py_native_fn_tuple!((v1, T1), (v2, T2), (v3, T3), (v4, T4));
into_py_native_fn_tuple!((v1, T1), (v2, T2), (v3, T3), (v4, T4), (v5, T5));
into_py_native_fn_tuple!((v1, T1), (v2, T2), (v3, T3), (v4, T4), (v5, T5), (v6, T6));
into_py_native_fn_tuple!(
    (v1, T1),
    (v2, T2),
    (v3, T3),
    (v4, T4),
    (v5, T5),
    (v6, T6),
    (v7, T7)
);

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::size_of_val;

    #[test]
    fn into_native_fn_noalloc() {
        fn py_func(_b: bool, _vm: &crate::VirtualMachine) -> i32 {
            1
        }
        assert_eq!(size_of_val(&py_func.into_func()), 0);
        let empty_closure = || "foo".to_owned();
        assert_eq!(size_of_val(&empty_closure.into_func()), 0);
        assert_eq!(size_of_val(static_func(empty_closure)), 0);
    }
}
