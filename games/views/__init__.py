"""The games app's pages: one module per part of the site (a game's sheet, clubs, accounts...).

Views read through games.selectors, write through games.services and decide who may do what
through games.services.access; they draw pages and translate coded errors for the user.
"""
