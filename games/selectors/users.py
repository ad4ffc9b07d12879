"""Site users as the pages and the API name them."""

from __future__ import annotations

from django.contrib.auth.models import User


def user_by_username(*, username: str) -> User | None:
    return User.objects.filter(username=username).first()


def user_by_pk(*, pk: int) -> User | None:
    return User.objects.filter(pk=pk).first()
