"""`python -m meeple`: the `meeple` command, for an environment whose scripts folder is not on PATH."""

import sys

from meeple.tools.cli import main

if __name__ == "__main__":
    sys.exit(main())
