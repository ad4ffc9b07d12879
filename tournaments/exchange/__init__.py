"""Export and import of a club's recorded data: one versioned JSON document
(docs/design/export-format.md, schema in ``tournaments/exchange_schema.json``) and a CSV of the
score sheets.

What is exported is what was *recorded*: the club's settings, its players (names only: no
accounts, no personal data), its games with their seats and hands (each hand's outcome as it
was typed), its tournaments (settings, entries, rounds with their tables and byes) and its
seasons' settings. Nothing derived (scores, results, ratings, standings): the import rebuilds
those with the same code that derives them on every write, so the numbers cannot disagree.

References inside a document are ordinals (``p1``, ``g3``, ``t1``), never database ids, so the
export of an imported club is the same document (apart from the club's own name and address).

The import validates everything first (the schema, every reference, every setting and every
game scored from its hands with the scoring package) and writes nothing when anything is
wrong: ``ImportInvalid`` carries the list of problems, each at its place in the document
(``games[3].hands[2]``: 0-based indexes, as in JSON). Then it writes everything in one
transaction and rebuilds the derived rows (results, ratings, season standings) inside it.
"""
