"""Reads that pages need, typed, each with its query count pinned by a test
(tests/games/test_selectors.py). Views call selectors and services, never the ORM for a page."""
