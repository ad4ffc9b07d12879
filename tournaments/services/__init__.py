"""Every write of the tournaments app: tournaments (their rounds and entries) and seasons."""
