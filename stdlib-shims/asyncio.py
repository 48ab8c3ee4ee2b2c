"""toolplane's minimal `asyncio`, over the snippet driver.

Host calls are dispatched when they are made and answered by the host, so there is no event loop to
run: `gather` awaits its arguments in order, `sleep` sleeps (interruptibly), and `run` drives a
coroutine to completion. Sockets, subprocesses, streams and loops are not part of the sandbox.
"""

import time as _time


async def sleep(delay, result=None):
    if delay > 0:
        _time.sleep(delay)
    return result


async def gather(*aws, return_exceptions=False):
    results = []
    for aw in aws:
        if return_exceptions:
            try:
                results.append(await aw)
            except Exception as exc:  # noqa: BLE001  (asyncio.gather semantics)
                results.append(exc)
        else:
            results.append(await aw)
    return results


async def wait_for(aw, timeout=None):
    return await aw


def create_task(coro, *, name=None):
    return coro


ensure_future = create_task


def iscoroutine(obj):
    return hasattr(obj, "send") and hasattr(obj, "throw") and hasattr(obj, "__await__")


def run(main, *, debug=None):
    """Drive a coroutine to completion and return its value."""
    if not hasattr(main, "send"):
        raise TypeError(f"a coroutine was expected, got {main!r}")
    try:
        while True:
            main.send(None)
    except StopIteration as stop:
        return stop.value


TimeoutError = TimeoutError  # asyncio.TimeoutError is the builtin since Python 3.11
CancelledError = type("CancelledError", (BaseException,), {"__module__": "asyncio"})
