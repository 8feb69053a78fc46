"""The build's one step beyond pyproject.toml: the engine and the built-ins compiled by mypyc.

`runtime/engine.py` (applying actions, the flow, settling) and `compile/builtins.py` (the functions rule
expressions call) are where a game's time goes outside its generated code; compiled to C extensions they
run about 1.2 times as fast (benchmarks/README.md, thirty-seventh round). Everything else stays Python,
and so do these two where they cannot be compiled: `MEEPLE_PURE=1 pip install .` asks for that, a
machine without a C compiler gets it too (the extensions are optional: a failed compile is a warning),
and so does an editable install (`pip install -e .`).
`python -c "import meeple; print(meeple.compiled())"` says which one an installation has.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
COMPILED = ("runtime/engine.py", "compile/builtins.py")  # within the package


# The commands that build extensions: pip's other calls (the metadata, the build's requirements) need
# none, and mypyc's type check takes a while. An editable install (`pip install -e .`) is not one of them:
# its compiled modules would stand in the source folder and shadow every later edit of the two files.
BUILDING = {"bdist_wheel", "build", "build_ext", "install"}


def extensions() -> list:
    if os.environ.get("MEEPLE_PURE", "") not in ("", "0") or not BUILDING.intersection(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # no mypy where the build runs: the Python modules alone
        return []
    # mypy names a module after the folders it sits in, and the package's folder is `interpreter` while
    # its modules are `meeple.*`: a copy under the name they are imported by, in the build folder.
    staged = ROOT / "build" / "mypyc-src" / "meeple"
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(ROOT / "interpreter", staged, ignore=shutil.ignore_patterns("__pycache__"))
    # The modules they import are read for their types, their own errors not reported (they run as Python).
    built = mypycify(["--follow-imports=silent", *(str(staged / path) for path in COMPILED)], opt_level="3")
    for extension in built:
        extension.optional = True
    return built


setup(ext_modules=extensions())
