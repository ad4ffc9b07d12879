"""The months in the form a date's day takes ("3. decembra", "3. prosince"), under Django's own
context, so that the site's catalogues carry them: Django's Slovak catalogue has only the
nominative there. Nothing calls these; the catalogue extraction reads them."""

from django.utils.translation import pgettext_lazy

GENITIVE = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
