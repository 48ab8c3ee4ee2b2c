//! Hooks for this crate's own tests, off unless the process engine's zygote was started with
//! `TOOLPLANE_TEST_HOOKS` in the host's environment. In process only the panic probe can be turned
//! on: by that variable in the environment of the `toolplane` CLI, or by
//! `toolplane::sandbox::enable_test_hooks()` (the jail probe stays off there).

use std::sync::atomic::{AtomicBool, Ordering};

static ENABLED: AtomicBool = AtomicBool::new(false);
static PANIC_PROBE: AtomicBool = AtomicBool::new(false);

/// Turns the hooks on (or off) for this process and the children it forks.
pub(crate) fn enable(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
    PANIC_PROBE.store(on, Ordering::Relaxed);
}

/// Turns the panic probe on in this process (its in-process runs, and the workers it starts after).
pub(crate) fn enable_panic_probe() {
    PANIC_PROBE.store(true, Ordering::Relaxed);
}

/// Whether `_toolplane_host._panic_probe()` panics.
pub(crate) fn panic_probe_enabled() -> bool {
    PANIC_PROBE.load(Ordering::Relaxed)
}

/// Whether the hooks are on.
pub(crate) fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// A forbidden call for tests (`_toolplane_host._jail_probe`, only where `TOOLPLANE_TEST_HOOKS` was
/// set when the zygote started): each is refused by the jail, and harmless where there is none.
#[cfg(target_os = "linux")]
pub(crate) fn issue_forbidden_call(name: &str) -> Result<i64, String> {
    // SAFETY: each call's arguments are valid; their results are closed or unused.
    let result = unsafe {
        match name {
            "socket" => libc::syscall(libc::SYS_socket, libc::AF_UNIX, libc::SOCK_STREAM, 0),
            "openat" => libc::syscall(
                libc::SYS_openat,
                libc::AT_FDCWD,
                c"/dev/null".as_ptr(),
                libc::O_RDONLY | libc::O_CLOEXEC,
            ),
            "kill" => libc::syscall(libc::SYS_kill, libc::getpid(), 0),
            // Only naming threads and memory is allowed of prctl; this reads a flag.
            "prctl" => libc::syscall(libc::SYS_prctl, libc::PR_GET_DUMPABLE, 0, 0, 0, 0),
            _ => return Err(format!("no jail probe named {name:?}")),
        }
    };
    if result >= 0 && !matches!(name, "kill" | "prctl") {
        // SAFETY: the descriptor was just made by this call and is owned by nothing else.
        unsafe { libc::close(result as libc::c_int) };
    }
    Ok(result)
}
