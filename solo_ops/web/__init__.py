"""The table view: a local web page that shows a game live and takes the players' answers.

:mod:`solo_ops.web.app` is the ASGI application (Starlette) over a
:class:`~solo_ops.session.table.GameTable`; :mod:`solo_ops.web.board` draws the board for it;
:mod:`solo_ops.web.placing` turns a tap on the board into a move; ``static/`` holds the page
(plain HTML, CSS and JavaScript, no build step). ``solo-ops serve`` runs it with uvicorn.
"""
