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
from toolplane.results import ResultStore

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
    # Room for every save of the run (the caps are the same as ours otherwise).
    store = ResultStore(max_entries=100_000, max_total_bytes=1 << 31)
    runtime = Toolplane(default_backend="monty", sessions=False, result_store=store)
    out = {}
    out["fresh_trivial_ms"], _ = await timed(runtime, "return 1 + 1", n)
    out["fresh_json_ms"], _ = await timed(runtime, "import json\nreturn json.dumps([1, 2])", n)
    # Store throughput at three sizes (lists of 990-character strings, as in benches/toolplane.rs).
    for label, items in (("1kib", 1), ("1mib", 1000), ("8mib", 8000)):
        build = f"v = ['x' * 990 for _ in range({items})]\n"
        reps = max(3, n // (10 if items > 1 else 1))
        built, _ = await timed(runtime, build + "return len(v)", reps)
        saved_ms, saved = await timed(runtime, build + "return await save_result(v)", reps)
        load_ms, _ = await timed(
            runtime, f"v = await load_result({saved.value!r})\nreturn len(v)", reps
        )
        out[f"save_{label}_ms"] = saved_ms - built
        out[f"load_{label}_ms"] = load_ms - built
    out["build_8mib_ms"] = built
    out["build_save_8mib_ms"] = saved_ms
    out["load_8mib_ms"] = load_ms
    print(json.dumps(out))


asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
