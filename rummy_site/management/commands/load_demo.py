"""Load demo data. Idempotent: running it again changes nothing that is already there."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-rummy"


class Command(BaseCommand):
    help = "Create the demo organiser account (and, as features land, demo games). Safe to run twice."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("Demo data has a known password; it is only loaded with DEBUG on.")
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"first_name": "Demo", "is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
            self.stdout.write(f"Created demo organiser: {DEMO_USERNAME} / {DEMO_PASSWORD}")
        else:
            self.stdout.write(f"Demo organiser already there: {DEMO_USERNAME} / {DEMO_PASSWORD}")
