"""Export and import of a federation's own records: one versioned JSON document
(docs/design/federation-export.md, schema in ``federations/exchange_schema.json``), on the model
of a club's export (``tournaments.exchange``).

What is exported is what the federation recorded: its settings, its register, its member clubs'
periods, its links, its rated tournaments and its published monthly lists. Clubs, players and
tournaments are named by address and name, never by database id: they are the clubs' own
records, imported first with ``import_club``. Nothing derived (the live list and its events):
the import re-rates it with the code that derives it on every write.
"""
