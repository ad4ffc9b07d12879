"""The tournaments app's pages: tournaments, their public pages, seasons, the club exchange.

Views read through tournaments.selectors and write through tournaments.services.
"""
