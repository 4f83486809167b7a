"""``python -m benchsheet ...``: the ``benchsheet`` command, where pip left its script off PATH."""

import sys

from benchsheet.cli import main

sys.exit(main())
