"""Moving a test database to an older schema and back, for tests of what an upgrade does."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets: list[tuple[str, str]] | None = None) -> Any:
    """Migrate to ``targets`` (None: the latest); returns the apps of that state, whose models
    are the ones its data migrations see."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    nodes = targets if targets is not None else executor.loader.graph.leaf_nodes()
    executor.migrate(nodes)
    return executor.loader.project_state(nodes).apps
