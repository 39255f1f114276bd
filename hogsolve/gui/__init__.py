"""The browser GUI: one Starlette application (:mod:`hogsolve.gui.app`) served by uvicorn
(:mod:`hogsolve.gui.server`), with its pages and scripts in ``static/``."""
