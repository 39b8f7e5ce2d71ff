"""``python -m solo_ops``: the same as the ``solo-ops`` command."""

from solo_ops.cli import main

main()
