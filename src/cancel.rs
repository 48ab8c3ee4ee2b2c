//! Cancelling a run from outside it: [`CancelToken`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

type Hook = Box<dyn FnOnce() + Send>;

/// Stops a run from another thread or task: pass it to
/// [`Toolplane::execute_cancellable`](crate::Toolplane::execute_cancellable) or
/// [`Session::execute_cancellable`](crate::Session::execute_cancellable), then call
/// [`CancelToken::cancel`]. The run ends as it does at its time limit — interrupted at its next
/// instruction in process, its worker killed with process isolation — and its result is a
/// `CancelledError`; a session run with process isolation is rolled back to its state before the run.
/// Host-side effects made before the cancel (saved results, artifacts, tool calls) stand.
///
/// A token stays cancelled: a run given a cancelled token does not start. Clones share the token.
/// Dropping the future of [`Toolplane::execute_async`](crate::Toolplane::execute_async) cancels its
/// run the same way.
///
/// ```
/// use std::time::Duration;
/// let runtime = toolplane::Toolplane::new(Default::default()).unwrap();
/// let cancel = toolplane::CancelToken::new();
/// let stopper = cancel.clone();
/// std::thread::spawn(move || {
///     std::thread::sleep(Duration::from_millis(200));
///     stopper.cancel();
/// });
/// let result = runtime.execute_cancellable("while True: pass", None, &cancel).unwrap();
/// assert_eq!(result.error.unwrap().error_type, "CancelledError");
/// ```
#[derive(Clone, Default)]
pub struct CancelToken {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    cancelled: AtomicBool,
    next_hook: AtomicU64,
    /// What stops the run in flight, by the id its [`Armed`] guard removes it with.
    hooks: Mutex<Vec<(u64, Hook)>>,
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelToken")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels the run this token was given to, if one is in flight, and every later one.
    pub fn cancel(&self) {
        if self.inner.cancelled.swap(true, Ordering::SeqCst) {
            return;
        }
        let hooks = std::mem::take(&mut *lock(&self.inner.hooks));
        // Innermost first, as guards unwind: a run's own flag is set before the engine wakes the
        // run from a call it waits for, so the woken run reports itself cancelled.
        for (_, hook) in hooks.into_iter().rev() {
            hook();
        }
    }

    /// Whether [`CancelToken::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancelled.load(Ordering::SeqCst)
    }

    /// Runs `stop` when the token is cancelled while the returned guard lives (at once if it already
    /// is). Dropping the guard disarms it.
    pub(crate) fn arm(&self, stop: impl FnOnce() + Send + 'static) -> Armed {
        let id = self.inner.next_hook.fetch_add(1, Ordering::Relaxed);
        {
            let mut hooks = lock(&self.inner.hooks);
            // Checked under the lock `cancel` takes its hooks under: a hook is run exactly once or not
            // at all.
            if !self.is_cancelled() {
                hooks.push((id, Box::new(stop)));
                return Armed {
                    token: Some(self.clone()),
                    id,
                };
            }
        }
        stop();
        Armed { token: None, id }
    }
}

/// Disarms a hook of [`CancelToken::arm`] when dropped.
#[must_use = "the hook is disarmed when the guard is dropped"]
pub(crate) struct Armed {
    token: Option<CancelToken>,
    id: u64,
}

impl Drop for Armed {
    fn drop(&mut self) {
        if let Some(token) = &self.token {
            lock(&token.inner.hooks).retain(|(id, _)| *id != self.id);
        }
    }
}

/// Cancels its token when dropped, unless [`CancelOnDrop::disarm`]ed: an async run whose future is
/// dropped stops.
pub(crate) struct CancelOnDrop(Option<CancelToken>);

impl CancelOnDrop {
    pub(crate) fn new(token: CancelToken) -> Self {
        Self(Some(token))
    }

    pub(crate) fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(token) = self.0.take() {
            token.cancel();
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The error type of a cancelled run's result.
pub(crate) const CANCELLED_ERROR: &str = "CancelledError";
/// Its message.
pub(crate) const CANCELLED_MESSAGE: &str = "the run was cancelled by its caller";

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn armed_hooks_run_once_on_cancel_and_not_after_disarming() {
        let token = CancelToken::new();
        let runs = Arc::new(AtomicUsize::new(0));
        let counter = |runs: &Arc<AtomicUsize>| {
            let runs = runs.clone();
            move || {
                runs.fetch_add(1, Ordering::SeqCst);
            }
        };
        drop(token.arm(counter(&runs)));
        let kept = token.arm(counter(&runs));
        token.cancel();
        token.cancel();
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        drop(kept);
        // Armed after the cancel: runs at once.
        let _late = token.arm(counter(&runs));
        assert_eq!(runs.load(Ordering::SeqCst), 2);
        assert!(token.clone().is_cancelled());
    }

    /// Hooks run innermost first. A run arms its own flag inside the engine's wake-up of a call it
    /// waits for; the other way round, the woken run could end before its flag was set and report the
    /// wake-up's `RuntimeError` instead of `CancelledError` (seen in process under load, in
    /// `tests/cancel.rs::a_run_that_ends_drops_its_pending_tool_calls`).
    #[test]
    fn hooks_run_last_armed_first() {
        let token = CancelToken::new();
        let order = Arc::new(Mutex::new(Vec::new()));
        let record = |name: &'static str| {
            let order = order.clone();
            move || lock(&order).push(name)
        };
        let _engine = token.arm(record("engine wake-up"));
        let _run = token.arm(record("run flag"));
        token.cancel();
        assert_eq!(*lock(&order), ["run flag", "engine wake-up"]);
    }

    #[test]
    fn dropping_the_guard_cancels_unless_disarmed() {
        let token = CancelToken::new();
        CancelOnDrop::new(token.clone()).disarm();
        assert!(!token.is_cancelled());
        drop(CancelOnDrop::new(token.clone()));
        assert!(token.is_cancelled());
    }
}
