#!/usr/bin/python3
"""Starts Apertium APY (Debian's apertium-apy) listening on 127.0.0.1 only.

APY has no option to choose the address it binds: it listens on every interface. Glossa's
components reach it on the loopback interface, and nothing else should, so this wrapper makes
its HTTP server bind 127.0.0.1 and then runs APY's own entry point with the given arguments
(the same as `apertium-apy`'s, e.g. `-p 2737 /usr/share/apertium/modes`).
"""

import tornado.httpserver
from apertium_apy import apy

_bind = tornado.httpserver.HTTPServer.bind


def _bind_loopback(self, port, address=None, *args, **kwargs):
    return _bind(self, port, "127.0.0.1", *args, **kwargs)


tornado.httpserver.HTTPServer.bind = _bind_loopback

if __name__ == "__main__":
    apy.main()
