"""``python -m firmware_host.cli``: the ``draughtsboard`` command."""

import sys

from firmware_host.cli import main

if __name__ == "__main__":
    sys.exit(main())
