//! Cancelling runs from outside (`CancelToken`, a dropped `execute_async` future), in both engines,
//! fresh and in a session: the run stops, its result says `CancelledError`, its host calls stop, and
//! a session with process isolation is rolled back.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{config_for, err, isolations, ok};
use serde_json::{Value, json};
use toolplane::{CancelToken, Capability, Isolation, Toolplane};

/// A runtime whose snippets can say they started (`await started()`), count calls (`await tick()`) and
/// wait for an answer that never comes (`await never()`). The time limit is far away: a run that is
/// not stopped by its cancel ends at it, with a `TimeoutError` the tests tell apart.
struct Probe {
    runtime: Toolplane,
    started: std::sync::Mutex<mpsc::Receiver<()>>,
    ticks: Arc<AtomicUsize>,
}

fn probe(isolation: Isolation) -> Probe {
    probe_with(isolation, 120.0, None)
}

/// [`probe`] with another time limit, and one more tool.
fn probe_with(isolation: Isolation, timeout_seconds: f64, extra: Option<Capability>) -> Probe {
    let mut config = config_for(isolation);
    config.limits.timeout_seconds = timeout_seconds;
    let (tell, started) = mpsc::channel();
    let tell = std::sync::Mutex::new(tell);
    let ticks = Arc::new(AtomicUsize::new(0));
    let counted = ticks.clone();
    let runtime = Toolplane::builder()
        .config(config)
        .tool(
            Capability::new("probe/started", move |_| {
                let _ = tell.lock().unwrap().send(());
                Ok(Value::Null)
            })
            .alias("started"),
        )
        .tool(
            Capability::new("probe/tick", move |_| {
                Ok(json!(counted.fetch_add(1, Ordering::SeqCst)))
            })
            .alias("tick"),
        )
        .tool(Capability::new_async("probe/never", |_| std::future::pending()).alias("never"));
    let runtime = match extra {
        Some(tool) => runtime.tool(tool),
        None => runtime,
    }
    .build()
    .unwrap();
    Probe {
        runtime,
        started: std::sync::Mutex::new(started),
        ticks,
    }
}

impl Probe {
    /// Waits until `tick` has not been called for a while (bounded): the run making the calls is over.
    fn assert_ticks_stop(&self, what: &str) {
        let give_up = Instant::now() + Duration::from_secs(20);
        let mut seen = self.ticks.load(Ordering::SeqCst);
        loop {
            std::thread::sleep(Duration::from_millis(300));
            let now = self.ticks.load(Ordering::SeqCst);
            if now == seen {
                return;
            }
            assert!(
                Instant::now() < give_up,
                "{what}: tick() is still being called after the cancel ({now} calls)"
            );
            seen = now;
        }
    }
}

/// Runs `run` with a token cancelled as soon as the snippet calls `started()`.
fn run_and_cancel(
    probe: &Probe,
    run: impl FnOnce(&CancelToken) -> toolplane::ExecutionResult,
) -> toolplane::ExecutionResult {
    run_and_cancel_after(probe, Duration::ZERO, run)
}

/// [`run_and_cancel`], cancelling `delay` after `started()`.
fn run_and_cancel_after(
    probe: &Probe,
    delay: Duration,
    run: impl FnOnce(&CancelToken) -> toolplane::ExecutionResult,
) -> toolplane::ExecutionResult {
    let token = CancelToken::new();
    std::thread::scope(|scope| {
        let canceller = token.clone();
        let started = &probe.started;
        scope.spawn(move || {
            let started = started
                .lock()
                .unwrap()
                .recv_timeout(Duration::from_secs(60));
            if started.is_ok() {
                std::thread::sleep(delay);
                canceller.cancel();
            }
        });
        run(&token)
    })
}

const TICKING: &str = "await started()\nwhile True:\n    await tick()";
const SPINNING: &str = "await started()\nwhile True:\n    pass";
/// Waits for an async tool that never answers, again after catching the cancel's error.
const WAITING: &str = "await started()\nwhile True:\n    try:\n        await never()\n    except Exception:\n        pass";
/// Catches everything it can, and keeps spinning.
const STUBBORN: &str = "await started()\nwhile True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass";

#[test]
fn a_cancelled_run_stops_and_says_so() {
    for isolation in isolations() {
        let probe = probe(isolation);
        let session = probe.runtime.session();
        for code in [TICKING, SPINNING, WAITING, STUBBORN] {
            for in_session in [false, true] {
                let what = format!("{isolation:?}, session {in_session}: {code:?}");
                let result = run_and_cancel(&probe, |token| {
                    if in_session {
                        session.execute_cancellable(code, None, token).unwrap()
                    } else {
                        probe
                            .runtime
                            .execute_cancellable(code, None, token)
                            .unwrap()
                    }
                });
                let (error_type, message) = err(result);
                assert_eq!(error_type, "CancelledError", "{what}: {message}");
                assert!(
                    message.starts_with("the run was cancelled by its caller"),
                    "{what}: {message}"
                );
                probe.assert_ticks_stop(&what);
                // The engine serves the next run at once.
                assert_eq!(
                    ok(probe.runtime.execute("return 1", None).unwrap()),
                    json!(1),
                    "{what}"
                );
                assert_eq!(
                    ok(session.execute("return 2", None).unwrap()),
                    json!(2),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn a_cancelled_session_run_is_rolled_back_with_process_isolation() {
    for isolation in isolations() {
        let probe = probe(isolation);
        let session = probe.runtime.session();
        ok(session.execute("x = 1", None).unwrap());
        let result = run_and_cancel(&probe, |token| {
            session
                .execute_cancellable(&format!("x = 2\n{SPINNING}"), None, token)
                .unwrap()
        });
        let (error_type, message) = err(result);
        assert_eq!(error_type, "CancelledError", "{isolation:?}: {message}");
        let x = ok(session.execute("return x", None).unwrap());
        match isolation {
            Isolation::Process => {
                assert!(message.contains("rolled back"), "{message}");
                assert_eq!(x, json!(1), "the run's assignment must be undone");
            }
            _ => {
                assert!(message.contains("partially updated"), "{message}");
                assert_eq!(x, json!(2));
            }
        }
    }
}

#[test]
fn a_run_given_a_cancelled_token_does_not_start() {
    for isolation in isolations() {
        let probe = probe(isolation);
        let token = CancelToken::new();
        token.cancel();
        let fresh = probe
            .runtime
            .execute_cancellable("await tick()", None, &token)
            .unwrap();
        let in_session = probe
            .runtime
            .session()
            .execute_cancellable("await tick()", None, &token)
            .unwrap();
        for result in [fresh, in_session] {
            let (error_type, message) = err(result);
            assert_eq!(error_type, "CancelledError");
            assert!(message.contains("did not start"), "{message}");
        }
        assert_eq!(probe.ticks.load(Ordering::SeqCst), 0, "{isolation:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_an_async_run_cancels_it() {
    for isolation in isolations() {
        let probe = probe(isolation);
        let started = probe.started;
        let probe_ticks = probe.ticks.clone();
        let runtime = probe.runtime;
        let waited = tokio::task::spawn_blocking(move || {
            started
                .lock()
                .unwrap()
                .recv_timeout(Duration::from_secs(60))
                .is_ok()
        });
        tokio::select! {
            result = runtime.execute_async(TICKING, None) => panic!("{isolation:?}: the run ended by itself: {result:?}"),
            started = waited => assert!(started.unwrap(), "{isolation:?}: the run never started"),
        }
        // The future is dropped: the run stops, and the runtime serves the next one.
        let probe = Probe {
            runtime,
            started: std::sync::Mutex::new(mpsc::channel().1),
            ticks: probe_ticks,
        };
        tokio::task::block_in_place(|| probe.assert_ticks_stop(&format!("{isolation:?}")));
        let next = probe.runtime.execute_async("return 3", None).await.unwrap();
        assert_eq!(ok(next), json!(3));
    }
}

/// Sets its flag when dropped: an async tool's future that its run abandoned.
struct SetOnDrop(Arc<std::sync::atomic::AtomicBool>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A run that ends — cancelled, or at its time limit — drops the async tool calls it still waits for
/// (an MCP server's call then gets `notifications/cancelled`), in both engines; before, they ran on.
#[test]
fn a_run_that_ends_drops_its_pending_tool_calls() {
    for isolation in isolations() {
        for cancel in [true, false] {
            let dropped = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let flag = dropped.clone();
            let hold = Capability::new_async("probe/hold", move |_| {
                let guard = SetOnDrop(flag.clone());
                async move {
                    let _guard = guard;
                    std::future::pending::<Result<Value, toolplane::HostError>>().await
                }
            })
            .alias("hold");
            let probe = probe_with(isolation, if cancel { 120.0 } else { 1.0 }, Some(hold));
            let code = "await started()\nawait hold()";
            let result = if cancel {
                // The call is made right after started() returns.
                run_and_cancel_after(&probe, Duration::from_millis(200), |token| {
                    probe
                        .runtime
                        .execute_cancellable(code, None, token)
                        .unwrap()
                })
            } else {
                probe.runtime.execute(code, None).unwrap()
            };
            let (error_type, _) = err(result);
            let expected = if cancel {
                "CancelledError"
            } else {
                "TimeoutError"
            };
            assert_eq!(error_type, expected, "{isolation:?}");
            let give_up = Instant::now() + Duration::from_secs(20);
            while !dropped.load(Ordering::SeqCst) {
                assert!(
                    Instant::now() < give_up,
                    "{isolation:?}, cancel {cancel}: the pending call was never dropped"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}
