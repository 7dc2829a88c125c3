"""Starts Debian's apertium-apy bound to 127.0.0.1 only. APy 0.11.7 has no bind-address option
(it calls `HTTPServer.bind(port)`, which listens on every interface), so this launcher makes
Tornado's `bind` use 127.0.0.1 and then runs APy's own `main()` with the given arguments.
Run with the system python3, where Debian installs apertium_apy."""
import sys

import tornado.tcpserver

_bind = tornado.tcpserver.TCPServer.bind


def _loopback_bind(self, port, address=None, *args, **kwargs):
    return _bind(self, port, "127.0.0.1", *args, **kwargs)


tornado.tcpserver.TCPServer.bind = _loopback_bind

from apertium_apy.apy import main  # noqa: E402  (after the patch, on purpose)

sys.argv[0] = "apertium-apy"
main()
