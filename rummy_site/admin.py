"""The admin's own record of what was done in it, to read."""

from django.contrib import admin
from django.contrib.admin.models import LogEntry

from games.admin import ReadOnlyAdmin


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnlyAdmin):
    list_display = ("action_time", "user", "content_type", "object_repr", "action_flag")
    list_filter = ("action_flag", "content_type")
    search_fields = ("object_repr", "user__username")
    list_select_related = ("user", "content_type")
