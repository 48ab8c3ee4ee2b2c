//! In-process memory accounting: a counting global allocator that charges allocations made on a
//! sandbox thread during a run to that run's budget.
//!
//! Over the budget, a single huge request (≥ 64 MiB) fails at once — RustPython's paths that make such
//! requests (`[0] * n`, `'a' * n`, `bytearray(n)`) handle that as `MemoryError` — and any smaller one
//! is allowed but flags the run, which the watchdog turns into a `MemoryError` at the run's next backward
//! jump or function entry (where the VM checks for interrupts).
//! This is accounting, not a hard guarantee: memory freed by another thread, or native code that
//! grows in one step, can overshoot. Hard limits come with process isolation (RLIMIT_AS).

#[cfg(not(feature = "mimalloc"))]
use std::alloc::System as Underlying;
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};
#[cfg(feature = "mimalloc")]
use underlying::Hybrid as Underlying;

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

/// mimalloc's options, fixed before its first allocation in this process (a sandbox child inherits
/// them from its zygote). The numbers are v2's `mi_option_t` (its `mimalloc.h`); the crate names only
/// some of them.
#[cfg(feature = "mimalloc")]
mod underlying {
    use libmimalloc_sys::{mi_option_set, mi_option_t, mi_option_use_numa_nodes};
    use mimalloc::MiMalloc;
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicBool, Ordering};

    const ARENA_EAGER_COMMIT: mi_option_t = 4;
    const ARENA_RESERVE: mi_option_t = 23;
    /// Address space reserved at a time, in KiB (mimalloc's default is 1 GiB).
    const ARENA_RESERVE_KIB: libc::c_long = 64 << 10;

    static CONFIGURED: AtomicBool = AtomicBool::new(false);

    /// Blocks at least this large come from the system allocator: as CPython (pymalloc up to 512 bytes,
    /// malloc above), and copies between two large blocks of one mimalloc size class can run at a
    /// tenth of their speed (see docs/benchmarks.md, section 3, session 26).
    const LARGE: usize = 1 << 10;

    /// mimalloc for small blocks, the system allocator for large ones, chosen by size (a block is
    /// freed with the layout it was allocated with, so the size says whose it is).
    pub(super) struct Hybrid;

    /// Whether mimalloc's plain entry points already give `align` for a block of `size`: on 64-bit
    /// targets its size classes above one word are multiples of 16 bytes (`MI_ALIGN2W` in its
    /// `page-queue.c`, for `MI_MAX_ALIGN_SIZE` 16), so a block of more than 8 bytes is 16-byte aligned
    /// and a smaller one 8-byte aligned: std's `System` rule for `malloc`. The `mimalloc` crate always
    /// takes the aligned entry points, which do more per call.
    #[inline(always)]
    fn plainly_aligned(align: usize, size: usize) -> bool {
        align <= 16 && align <= size
    }

    /// A small block from mimalloc, through its plain entry point when that suffices.
    #[inline(always)]
    unsafe fn small_alloc(layout: Layout, zeroed: bool) -> *mut u8 {
        configure_once();
        // SAFETY: forwarded; the plain entry points are used only where they give the alignment.
        unsafe {
            match (plainly_aligned(layout.align(), layout.size()), zeroed) {
                (true, false) => libmimalloc_sys::mi_malloc(layout.size()).cast(),
                (true, true) => libmimalloc_sys::mi_zalloc(layout.size()).cast(),
                (false, false) => MiMalloc.alloc(layout),
                (false, true) => MiMalloc.alloc_zeroed(layout),
            }
        }
    }

    // SAFETY: each block is allocated, resized and freed by the allocator its size selects; a resize
    // across the threshold moves the block (allocate, copy the smaller length, free).
    unsafe impl GlobalAlloc for Hybrid {
        #[inline]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: forwarded as is.
            unsafe {
                if layout.size() >= LARGE {
                    System.alloc(layout)
                } else {
                    small_alloc(layout, false)
                }
            }
        }
        #[inline]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: forwarded as is.
            unsafe {
                if layout.size() >= LARGE {
                    System.alloc_zeroed(layout)
                } else {
                    small_alloc(layout, true)
                }
            }
        }
        #[inline]
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: forwarded to the allocator that made the block.
            unsafe {
                if layout.size() >= LARGE {
                    System.dealloc(ptr, layout)
                } else {
                    MiMalloc.dealloc(ptr, layout)
                }
            }
        }
        #[inline]
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: the block stays with its allocator, or moves as the impl's comment says.
            unsafe {
                match (layout.size() >= LARGE, new_size >= LARGE) {
                    (true, true) => System.realloc(ptr, layout, new_size),
                    (false, false) if plainly_aligned(layout.align(), new_size) => {
                        libmimalloc_sys::mi_realloc(ptr.cast(), new_size).cast()
                    }
                    (false, false) => MiMalloc.realloc(ptr, layout, new_size),
                    _ => {
                        let new_layout =
                            Layout::from_size_align_unchecked(new_size, layout.align());
                        let moved = self.alloc(new_layout);
                        if !moved.is_null() {
                            std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size));
                            self.dealloc(ptr, layout);
                        }
                        moved
                    }
                }
            }
        }
    }

    /// Called before mimalloc makes a block (a resize or a free follows one); does its work once.
    #[inline(always)]
    fn configure_once() {
        if !CONFIGURED.load(Ordering::Relaxed) {
            configure();
        }
    }

    #[cold]
    fn configure() {
        // SAFETY: option setters; they store a value and allocate nothing. Racing first allocations on
        // two threads set the same values.
        unsafe {
            // One NUMA node: otherwise mimalloc counts them on first use, by reading a file under
            // /sys, which a jailed child may not open.
            mi_option_set(mi_option_use_numa_nodes, 1);
            // A child's memory ceiling (RLIMIT_AS) is its address space at the start of a run plus the
            // limit: space reserved ahead and inherited unused would be outside that count.
            mi_option_set(ARENA_RESERVE, ARENA_RESERVE_KIB);
            // Commit arena memory as it is used, not at reservation: an eagerly committed arena is also
            // advised onto huge pages, and every process would then fault in 2 MiB at a time.
            mi_option_set(ARENA_EAGER_COMMIT, 0);
        }
        CONFIGURED.store(true, Ordering::Relaxed);
    }
}

/// Whether `addr` lies in the arenas of the allocator that holds small blocks (mimalloc's, with the
/// `mimalloc` feature): most of the interpreter's objects, which the zygote moves onto huge pages as it
/// does glibc's heap.
#[cfg(target_os = "linux")]
pub(crate) fn in_small_block_arena(addr: usize) -> bool {
    #[cfg(feature = "mimalloc")]
    {
        // SAFETY: asks whether an address lies in mimalloc's arenas; reads no memory there.
        unsafe { libmimalloc_sys::mi_is_in_heap_region(addr as *const libc::c_void) }
    }
    #[cfg(not(feature = "mimalloc"))]
    {
        let _ = addr;
        false
    }
}

/// The global allocator that makes `[limits] max_memory_mb` effective in process. The `toolplane`
/// binary installs it; an embedding application opts in the same way:
///
/// ```
/// #[global_allocator]
/// static ALLOC: toolplane::CountingAllocator = toolplane::CountingAllocator;
/// ```
///
/// Without it, runs are not memory-bounded in process. Outside sandbox runs it is the underlying
/// allocator plus one thread-local read per allocation. That allocator is mimalloc with the `mimalloc`
/// feature (on by default; the VM's allocation-heavy work takes less CPU), `std::alloc::System`
/// without it.
#[derive(Debug, Default, Clone, Copy)]
pub struct CountingAllocator;

// SAFETY: every call forwards to the underlying allocator with the caller's layout; accounting never
// touches the memory.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if with_current(|account| account.charge(layout.size())) == Some(false) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded as is.
        note_failure(unsafe { Underlying.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if with_current(|account| account.charge(layout.size())) == Some(false) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded as is.
        note_failure(unsafe { Underlying.alloc_zeroed(layout) })
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        with_current(|account| account.refund(layout.size()));
        // SAFETY: forwarded as is.
        unsafe { Underlying.dealloc(ptr, layout) }
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
        note_failure(unsafe { Underlying.realloc(ptr, layout, new_size) })
    }
}

#[cfg(all(test, feature = "mimalloc"))]
mod tests {
    use super::underlying::Hybrid;
    use std::alloc::{GlobalAlloc, Layout};

    fn mimallocs(ptr: *mut u8) -> bool {
        // SAFETY: asks whether an address lies in mimalloc's arenas; reads no memory.
        unsafe { libmimalloc_sys::mi_is_in_heap_region(ptr.cast()) }
    }

    /// Blocks under 1 KiB are mimalloc's and larger ones the system allocator's; a resize across the
    /// threshold moves the block to the other allocator with its bytes.
    #[test]
    fn the_hybrid_chooses_by_size_and_moves_across_the_threshold() {
        let small = Layout::from_size_align(1000, 8).unwrap();
        let large = Layout::from_size_align(4000, 8).unwrap();
        // SAFETY: each block is written within its size and freed with the layout it has.
        unsafe {
            let block = Hybrid.alloc(small);
            assert!(mimallocs(block));
            for i in 0..small.size() {
                *block.add(i) = i as u8;
            }
            let grown = Hybrid.realloc(block, small, large.size());
            assert!(!mimallocs(grown));
            assert!((0..small.size()).all(|i| *grown.add(i) == i as u8));
            let shrunk = Hybrid.realloc(grown, large, 24);
            assert!(mimallocs(shrunk));
            assert!((0..24).all(|i| *shrunk.add(i) == i as u8));
            Hybrid.dealloc(shrunk, Layout::from_size_align(24, 8).unwrap());
            let zeroed = Hybrid.alloc_zeroed(large);
            assert!(!mimallocs(zeroed));
            assert!((0..large.size()).all(|i| *zeroed.add(i) == 0));
            Hybrid.dealloc(zeroed, large);
        }
    }

    /// Small blocks come through mimalloc's plain entry points where those give the alignment asked
    /// for, and through its aligned ones where they would not: every block, fresh, zeroed or resized
    /// within the small sizes, is aligned as its layout says and keeps its bytes. Many blocks of each
    /// layout at once, so that they come from several of mimalloc's pages. (A build that sent every
    /// layout to `mi_malloc` fails here: `size` 1 with `align` 16 is not 16-byte aligned.)
    #[test]
    fn small_blocks_have_the_alignment_their_layout_asks_for() {
        for align in [1, 2, 4, 8, 16, 32, 64, 128] {
            // Sizes that are and are not multiples of the alignment, smaller and larger than it.
            for size in (1..1000).step_by(7) {
                let layout = Layout::from_size_align(size, align).unwrap();
                let new_size = (size * 2).min(1000);
                let resized = Layout::from_size_align(new_size, align).unwrap();
                // SAFETY: each block is written within its size and freed with the layout it has.
                unsafe {
                    let blocks: Vec<*mut u8> = (0..200)
                        .map(|n| {
                            let block = if n % 2 == 0 {
                                Hybrid.alloc(layout)
                            } else {
                                Hybrid.alloc_zeroed(layout)
                            };
                            assert!(
                                mimallocs(block) && (block as usize).is_multiple_of(align),
                                "{layout:?}"
                            );
                            if n % 2 == 1 {
                                assert!((0..size).all(|i| *block.add(i) == 0), "{layout:?}");
                            }
                            block.write_bytes(0xa5, size);
                            block
                        })
                        .collect();
                    for block in blocks {
                        let moved = Hybrid.realloc(block, layout, new_size);
                        assert!(
                            (moved as usize).is_multiple_of(align),
                            "{layout:?} to {new_size}"
                        );
                        assert!((0..size.min(new_size)).all(|i| *moved.add(i) == 0xa5));
                        Hybrid.dealloc(moved, resized);
                    }
                }
            }
        }
    }
}
