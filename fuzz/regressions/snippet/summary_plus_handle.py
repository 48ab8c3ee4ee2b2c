# The code-mode pattern: keep the full data host-side, return a summary plus a handle.
rows = [{"id": i, "total": i * 3 % 17} for i in range(1000)]
handle = await save_result(rows, label="orders")
big = [r for r in rows if r["total"] > 14]
print(f"{len(big)} large orders")
return {"count": len(rows), "large": len(big), "sample": rows[:2], "handle": handle}
