"""``python -m config.launcher run|services -- CMD``."""

import sys

from config.launcher.commands import main

sys.exit(main())
