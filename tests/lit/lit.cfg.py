# lit configuration for KernelOPT's FileCheck tests (`lit tests/lit`).
# Each test file holds `RUN:` lines; `%s` is the file, `%S` its folder.
import os
import shutil
import sys

import lit.formats

config.name = "KernelOPT"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".kir", ".test", ".py.test"]
config.excludes = ["Inputs", "lit.cfg.py", "Output"]
config.test_source_root = os.path.dirname(__file__)

repo = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
fixtures = os.path.join(repo, "tests", "fixtures")
corpus = os.path.join(repo, "tests", "corpus")


def tool(name, module):
    """Prefer the installed console script; fall back to `python -m` so a bare checkout still works."""
    found = shutil.which(name)
    return found if found else f"{sys.executable} -m {module}"


config.substitutions.append(("%fixtures", fixtures))
config.substitutions.append(("%corpus", corpus))
config.substitutions.append(("%python", sys.executable))
# Longest names first: lit substitutes in order, and `kernelopt` is a prefix of `kernelopt-opt`.
config.substitutions.append(("kernelopt-opt", tool("kernelopt-opt", "kernelopt.opt")))
config.substitutions.append(("kernelopt ", tool("kernelopt", "kernelopt.cli") + " "))
config.substitutions.append(("filecheck", tool("filecheck", "filecheck")))
# `%exit1 CMD` / `%exit2 CMD`: CMD must fail with exactly that exit code (1: bad input, 2: usage).
for code in (1, 2):
    config.substitutions.insert(0, (f"%exit{code}", f"{sys.executable} {os.path.join(repo, 'tests', 'lit', 'expect_exit.py')} --code={code}"))

for var in ("PATH", "HOME", "TRITON_INTERPRET", "KERNELOPT_CACHE_DIR", "PYTHONPATH", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The example pass plugin is not installed for users: its entry points are made visible here instead.
sys.path.insert(0, os.path.join(repo, "tests", "plugins"))
from plugin_path import with_plugin  # noqa: E402

config.environment["PYTHONPATH"] = with_plugin(os.environ.get("PYTHONPATH"))
