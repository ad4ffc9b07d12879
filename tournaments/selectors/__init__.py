"""Every read the tournaments app's pages need: tournaments, seasons and ratings, the league
lists (the rating list, a player's card)."""
