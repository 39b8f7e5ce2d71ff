"""The table session: one game being played, whatever screen shows it.

:mod:`solo_ops.session.table` holds :class:`~solo_ops.session.table.GameTable` (answers, undo,
proposals, narration order, saving each step), worded by :mod:`solo_ops.session.words`;
:mod:`solo_ops.session.opening` opens a new or saved game at a table. The layer sits above
``view`` (what a player sees) and ``io`` (files), and below the screens that drive it (``cli``,
``web``).
"""
