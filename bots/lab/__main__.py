"""``python -m bots.lab``: the local runner's command line (:func:`bots.lab.cli.main`)."""

import sys

from bots.lab.cli import main

if __name__ == "__main__":
    sys.exit(main())
