# Bytes go to the artifact store: the result lists the artifact with its toolplane:// URI.
lines = ["id,total"] + [f"{i},{i * 7 % 13}" for i in range(50)]
handle = await save_artifact("\n".join(lines).encode(), filename="report.csv", label="totals")
data = await load_artifact(handle)
return {"bytes": len(data), "rows": data.count(b"\n"), "handle": handle}
