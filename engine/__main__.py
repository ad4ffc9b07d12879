"""``python -m engine``: see engine/cli.py or ``--help``."""

import sys

from .cli import main

sys.exit(main())
