"""Print the addresses that phones on the same network can open."""

from typing import Any

from django.core.management.base import BaseCommand

from games.web.links import lan_addresses


class Command(BaseCommand):
    help = "Print the URLs at which phones on the same Wi-Fi can reach this site."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--port", default="8000")
        parser.add_argument(
            "--first-url",
            action="store_true",
            help="Print only the first LAN address as a URL (nothing if there is none), for LAN_URL.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        port = options["port"]
        found = lan_addresses()
        if options["first_url"]:
            if found:
                self.stdout.write(f"http://{found[0]}:{port}")
            return
        self.stdout.write("The site is served on all interfaces. Open it at:")
        self.stdout.write(f"  this computer:   http://localhost:{port}/")
        for address in found:
            self.stdout.write(f"  phones on Wi-Fi: http://{address}:{port}/")
        if found:
            self.stdout.write("Shared links and QR codes use the first Wi-Fi address.")
