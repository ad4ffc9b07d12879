"""The routes of the federations app's API."""

urlpatterns: list = []
