//! In-process memory accounting: a counting global allocator that charges allocations made on a
//! sandbox thread during a run to that run's budget.
//!
//! Over the budget, a single huge request (≥ 64 MiB) fails at once — RustPython's paths that make such
//! requests (`[0] * n`, `'a' * n`, `bytearray(n)`) handle that as `MemoryError` — and any smaller one
//! is allowed but flags the run, which the watchdog turns into a `MemoryError` at the next bytecode.
//! This is accounting, not a hard guarantee: memory freed by another thread, or native code that
//! grows in one step, can overshoot. Hard limits come with process isolation (RLIMIT_AS).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

/// Requests at least this large fail outright once over budget.
const HUGE_REQUEST: usize = 64 << 20;

/// Grace a session run gets when the session already holds more than its cap (so `del big` can run).
const SESSION_GRACE: isize = 1 << 20;

/// A memory budget: one fresh run's, or a session's (cumulative over its runs).
#[derive(Debug)]
pub(crate) struct MemoryAccount {
    live: AtomicIsize,
    limit: AtomicIsize,
    exceeded: AtomicBool,
}

impl MemoryAccount {
    pub(crate) fn new(limit_bytes: usize) -> Self {
        Self {
            live: AtomicIsize::new(0),
            limit: AtomicIsize::new(limit_bytes.min(isize::MAX as usize) as isize),
            exceeded: AtomicBool::new(false),
        }
    }

    /// Starts a run on this account with `limit_bytes`: a session account keeps what earlier runs
    /// still hold; if that is already over the cap, the run may not grow it further.
    pub(crate) fn begin_run(&self, limit_bytes: usize) {
        let limit = limit_bytes.min(isize::MAX as usize) as isize;
        let live = self.live.load(Ordering::Relaxed);
        self.limit.store(
            limit.max(live.saturating_add(SESSION_GRACE)),
            Ordering::Relaxed,
        );
        self.exceeded.store(false, Ordering::Relaxed);
    }

    pub(crate) fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::Relaxed)
    }

    /// Charges `size` bytes; `false` means refuse the allocation.
    fn charge(&self, size: usize) -> bool {
        let size = size.min(isize::MAX as usize) as isize;
        let live = self.live.load(Ordering::Relaxed).saturating_add(size);
        if live > self.limit.load(Ordering::Relaxed) {
            self.exceeded.store(true, Ordering::Relaxed);
            if size as usize >= HUGE_REQUEST {
                // Callers that cannot take a refusal abort the process next: mark it as out of memory.
                SYSTEM_ALLOC_FAILED.store(true, Ordering::Relaxed);
                return false;
            }
        }
        // A plain store, not a locked read-modify-write: only the thread the account is tracking
        // writes `live` (one run, or one session's runs, at a time), and the lock prefix was a
        // measurable share of an allocation-heavy run such as `json.loads`.
        self.live.store(live, Ordering::Relaxed);
        true
    }

    /// Charges memory that already exists: never refused, but over the budget it flags the run (the
    /// watchdog raises `MemoryError` at its next instruction).
    fn adopt(&self, size: usize) {
        let live = self
            .live
            .load(Ordering::Relaxed)
            .saturating_add(size.min(isize::MAX as usize) as isize);
        if live > self.limit.load(Ordering::Relaxed) {
            self.exceeded.store(true, Ordering::Relaxed);
        }
        self.live.store(live, Ordering::Relaxed);
    }

    fn refund(&self, size: usize) {
        let size = size.min(isize::MAX as usize) as isize;
        let live = self.live.load(Ordering::Relaxed);
        self.live
            .store(live.saturating_sub(size), Ordering::Relaxed);
    }
}

/// Set when an allocation was refused (by the system or by the budget): a process that then aborts ran
/// out of memory.
static SYSTEM_ALLOC_FAILED: AtomicBool = AtomicBool::new(false);

/// Whether the system allocator has refused a request in this process (see [`CountingAllocator`]).
pub(crate) fn system_alloc_failed() -> bool {
    SYSTEM_ALLOC_FAILED.load(Ordering::Relaxed)
}

fn note_failure(ptr: *mut u8) -> *mut u8 {
    if ptr.is_null() {
        SYSTEM_ALLOC_FAILED.store(true, Ordering::Relaxed);
    }
    ptr
}

thread_local! {
    // A const-initialised Cell of a raw pointer: no lazy init and no destructor, so the allocator may
    // read it at any time, including during thread start-up and tear-down.
    static ACCOUNT: Cell<*const MemoryAccount> = const { Cell::new(std::ptr::null()) };
}

/// Charges this thread's allocations to an account while it lives. It owns a reference to the
/// account, so the account outlives the thread-local pointer on every path, a panic's unwinding
/// included; dropping it clears the pointer.
#[must_use = "tracking stops when the guard is dropped"]
pub(crate) struct Tracking {
    _account: Arc<MemoryAccount>,
    /// The pointer this guard replaced (nested tracking restores it), and `!Send`: the guard must
    /// end on the thread whose pointer it set.
    previous: *const MemoryAccount,
}

impl Tracking {
    /// Starts charging this thread's allocations to `account`.
    pub(crate) fn start(account: Arc<MemoryAccount>) -> Self {
        let previous = ACCOUNT.with(|a| a.replace(Arc::as_ptr(&account)));
        Self {
            _account: account,
            previous,
        }
    }
}

impl Drop for Tracking {
    fn drop(&mut self) {
        // Fields drop after this body: the pointer is gone before `self._account` may free the account.
        let _ = ACCOUNT.try_with(|a| a.set(self.previous));
    }
}

/// Runs `f` with the account this thread's allocations are charged to, if any. The reference
/// cannot escape `f`.
fn with_current<T>(f: impl FnOnce(&MemoryAccount) -> T) -> Option<T> {
    let ptr = ACCOUNT.try_with(|a| a.get()).unwrap_or(std::ptr::null());
    // SAFETY: a non-null pointer was set by a live `Tracking` guard on this thread, which owns a
    // reference to the account and clears the pointer before releasing it; the reference is used
    // only inside `f`, while the guard (dropped on this thread only: it is `!Send`) still lives.
    unsafe { ptr.as_ref() }.map(f)
}

/// Charges this thread's account (if it has one) for `bytes` that another thread allocated and this
/// one now owns and will free: their free is refunded here, so without the charge the run's count
/// would fall below what it holds.
pub(crate) fn adopt_foreign_allocation(bytes: usize) {
    with_current(|account| account.adopt(bytes));
}

/// The global allocator that makes `[limits] max_memory_mb` effective in process. The `toolplane`
/// binary installs it; an embedding application opts in the same way:
///
/// ```
/// #[global_allocator]
/// static ALLOC: toolplane::CountingAllocator = toolplane::CountingAllocator;
/// ```
///
/// Without it, runs are not memory-bounded in process. Outside sandbox runs it is `System` plus one
/// thread-local read per allocation.
#[derive(Debug, Default, Clone, Copy)]
pub struct CountingAllocator;

// SAFETY: every call forwards to `System` with the caller's layout; accounting never touches the memory.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if with_current(|account| account.charge(layout.size())) == Some(false) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded as is.
        note_failure(unsafe { System.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if with_current(|account| account.charge(layout.size())) == Some(false) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded as is.
        note_failure(unsafe { System.alloc_zeroed(layout) })
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        with_current(|account| account.refund(layout.size()));
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let charged = with_current(|account| {
            if new_size > layout.size() {
                account.charge(new_size - layout.size())
            } else {
                account.refund(layout.size() - new_size);
                true
            }
        });
        if charged == Some(false) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded as is.
        note_failure(unsafe { System.realloc(ptr, layout, new_size) })
    }
}
