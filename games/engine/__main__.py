"""``python -m games.engine``: see games/engine/cli.py or ``--help``."""

import sys

from .cli import main

sys.exit(main())
