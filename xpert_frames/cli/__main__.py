"""``python -m xpert_frames.cli``."""

import sys

from xpert_frames.cli.main import main

sys.exit(main())
