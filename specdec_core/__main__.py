"""`python -m specdec_core`: see cli.py."""
import sys

from specdec_core.services.cli import main

sys.exit(main())
