# Escape attempts through the command-line door ([cli] allows only echo and printf here): another
# binary, a path, a shell, expansion, flag injection, the capability called directly. Inputs as the
# other suites: canary_path (a file holding a secret), canary_env (a host variable holding one).
# attempt: cli-shell
# expect: PermissionError
return await cli_run("sh", "-c", {"_": [f"cat {canary_path}"]})
# attempt: cli-absolute-path
# expect: PermissionError
return await cli_run("/bin/cat", canary_path)
# attempt: cli-relative-path
# expect: PermissionError
return await cli_run("../../../bin/cat", canary_path)
# attempt: cli-binary-with-shell-syntax
# expect: PermissionError
return await cli_run(f"echo;cat {canary_path}")
# attempt: cli-attribute-binary
# expect: PermissionError
return await cli.cat(canary_path)
# attempt: cli-capability-directly
# expect: PermissionError
return await call_tool("toolplane:cli/run", {"binary": "cat", "subcommand": canary_path})
# attempt: cli-no-expansion
r = await echo(_=["$" + canary_env, "${" + canary_env + "}", f"$(cat {canary_path})", f"`cat {canary_path}`"])
return r["stdout"]
# attempt: cli-flag-injection
r = await echo("x", _global={f"C; cat {canary_path}": True}, **{f"y=$(cat {canary_path})": 1})
return r["stdout"]
# attempt: cli-positional-injection
r = await printf(_=["%s\n", f"; cat {canary_path}", "|", "cat", canary_path, "\n$(id)"])
return r["stdout"]
# attempt: cli-environment
r = await printf("%s", _=[f"${canary_env}"])
return r["stdout"]
# attempt: cli-leading-dash-subcommand
r = await echo("-e", _=["\\x41"])
return r["stdout"]
