"""The catalog store and the embedding model, opened once and shared by whoever serves requests.

The CLI, the benchmarks and the MCP server all need the same two things; this is the one place that opens
them. The database is opened lazily and re-resolved after a failure, so a process started while the
database is down recovers on the next call once it is back.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from .catalog.db import Database
from .catalog.store import CatalogStore
from .embedding import Embedder, default_embedder


class Services:
    def __init__(
        self,
        database_factory: Callable[[], Database] = Database.from_environment,
        embedder: Embedder | None = None,
    ) -> None:
        self._database_factory = database_factory
        self._store: CatalogStore | None = None
        self._stale = False  # a call could not reach the database: resolve it again before the next one
        self._lock = threading.Lock()
        self.embedder = embedder or default_embedder()

    def store(self) -> CatalogStore:
        """The catalog store, connecting (or starting the embedded database) on first use.

        After a failed connection the database is resolved again (which restarts a stopped embedded
        server); when it is the same database as before, the store is kept with what it has loaded (the
        ranking snapshot), so recovering costs a reconnect, not a reload.
        """
        with self._lock:
            if self._store is None:
                self._store = CatalogStore(self._database_factory())
            elif self._stale:
                database = self._database_factory()
                if database is not self._store.db and database.url != self._store.db.url:
                    self._store.db.reset()
                    self._store = CatalogStore(database)
            self._stale = False
            return self._store

    def forget_connection(self, database: Database | None = None) -> None:
        """Let the next call resolve the database again (and start the embedded one if it stopped).

        ``database`` is the one a call failed to reach: when many concurrent calls fail together, only the
        first drops it, and a store opened since is kept. Idle connections are closed; connections other
        threads are using stay theirs until they return them.
        """
        with self._lock:
            if self._store is None or (database is not None and self._store.db is not database):
                return
            self._store.db.reset()
            self._stale = True

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.db.close()
