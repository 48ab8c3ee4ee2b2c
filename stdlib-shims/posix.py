"""`posix`, for the stdlib modules that import it by that name (importlib's path finder, posixpath).

toolplane's `os` shim answers for it: importing `os` puts that module in `sys.modules` under both names,
and the importer hands out what `sys.modules` holds once this module has run. Loaded only when one of
those modules asks, so no start-up pays for `os`.
"""

import os  # noqa: F401  (replaces this module in sys.modules)
