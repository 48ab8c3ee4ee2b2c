# Host errors are real Python exceptions: catch them by type.
caught = {}
try:
    await load_result("res_does_not_exist")
except ValueError as e:
    caught["store"] = str(e)
try:
    await call_tool("nobody/registered_this", {})
except LookupError as e:
    caught["capability"] = str(e)[:40]
try:
    await save_result(float("nan"))
except ValueError as e:
    caught["nan"] = str(e)[:40]
return caught
