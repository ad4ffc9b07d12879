"""Print the addresses that phones on the same network can open."""

import socket
import subprocess
from typing import Any

from django.core.management.base import BaseCommand


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine other than loopback, without sending any traffic."""
    found: set[str] = set()
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False)
        found.update(a for a in out.stdout.split() if "." in a)
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    return sorted(a for a in found if not a.startswith("127."))


class Command(BaseCommand):
    help = "Print the URLs at which phones on the same Wi-Fi can reach this site."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--port", default="8000")

    def handle(self, *args: Any, **options: Any) -> None:
        port = options["port"]
        self.stdout.write("The site is served on all interfaces. Open it at:")
        self.stdout.write(f"  this computer:   http://localhost:{port}/")
        for address in lan_addresses():
            self.stdout.write(f"  phones on Wi-Fi: http://{address}:{port}/")
