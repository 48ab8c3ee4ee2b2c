"""Times the Python reference (toolplane 0.5.2 on monty) on the same snippets as benches/toolplane.rs.

Run with the reference venv's python: `python benches/reference_bench.py N` prints one JSON object of
medians in milliseconds. Used by `cargo perf` when TOOLPLANE_REFERENCE_PYTHON points at that python.
"""
import asyncio
import json
import statistics
import sys
import time

from toolplane import Toolplane

BIG = "v = ['x' * 990 for _ in range(8000)]\n"


async def timed(runtime, code, n, **kw):
    samples = []
    last = None
    for _ in range(n):
        t0 = time.perf_counter()
        last = await runtime.execute(code, backend="monty", **kw)
        samples.append((time.perf_counter() - t0) * 1000)
        if last.error is not None:
            raise SystemExit(f"reference run failed: {last.error}")
    return statistics.median(samples), last


async def main(n):
    runtime = Toolplane(default_backend="monty", sessions=False)
    out = {}
    out["fresh_trivial_ms"], _ = await timed(runtime, "return 1 + 1", n)
    out["fresh_json_ms"], _ = await timed(runtime, "import json\nreturn json.dumps([1, 2])", n)
    out["build_8mib_ms"], _ = await timed(runtime, BIG + "return len(v)", max(3, n // 10))
    out["build_save_8mib_ms"], saved = await timed(
        runtime, BIG + "return await save_result(v)", max(3, n // 10)
    )
    handle = saved.value
    out["load_8mib_ms"], _ = await timed(
        runtime, f"v = await load_result({handle!r})\nreturn len(v)", max(3, n // 10)
    )
    print(json.dumps(out))


asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
