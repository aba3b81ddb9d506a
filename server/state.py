"""Process-wide state the MCP tools share: the catalog store (one connection pool) and the embedder.

The database is opened lazily and re-resolved after a failure, so a server started while the database is
down answers with an actionable error and recovers on the next call once the database is back.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator

from mcp.server.mcpserver.exceptions import ToolError

from rewrite_assist.server.catalog.db import Database, DatabaseUnavailable
from rewrite_assist.server.catalog.store import CatalogNotReady, CatalogStore
from rewrite_assist.server.embedding import Embedder, default_embedder
from rewrite_assist.server.errors import CatalogUnavailable

log = logging.getLogger(__name__)


class AppState:
    def __init__(
        self,
        database_factory: Callable[[], Database] = Database.from_environment,
        embedder: Embedder | None = None,
    ) -> None:
        self._database_factory = database_factory
        self._store: CatalogStore | None = None
        self._lock = threading.Lock()
        self._warming = False
        self.embedder = embedder or default_embedder()

    def store(self) -> CatalogStore:
        """The catalog store, connecting (or starting the embedded database) on first use."""
        with self._lock:
            if self._store is None:
                self._store = CatalogStore(self._database_factory())
            return self._store

    def forget_connection(self) -> None:
        """Drop the pool so the next call resolves and connects again."""
        with self._lock:
            if self._store is not None:
                self._store.db.reset()
            self._store = None

    def warm_up(self) -> None:
        """Load the model, open the database and read the ranking snapshot in background threads, once."""
        with self._lock:
            if self._warming:
                return
            self._warming = True
        self.embedder.warm_up()
        threading.Thread(target=self._warm_db, name="db-warm-up", daemon=True).start()

    def _warm_db(self) -> None:
        from rewrite_assist.server.search.hybrid import preload

        try:
            preload(self.store())
        except CatalogNotReady as exc:  # reachable, but empty or outdated: each tool call says how to fix it
            log.warning("catalog not ready at start: %s", exc)
        except Exception as exc:
            log.warning("catalog database not ready at start: %s", exc)
            self.forget_connection()

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.db.close()


@contextlib.contextmanager
def tool_errors(state: AppState) -> Iterator[None]:
    """Turn expected infrastructure failures into ``ToolError`` messages an agent can act on."""
    try:
        yield
    except ToolError:
        raise
    except DatabaseUnavailable as exc:
        state.forget_connection()  # the next call reconnects (or restarts the embedded server)
        raise ToolError(f"The catalog database is unavailable: {exc}") from exc
    except CatalogUnavailable as exc:  # empty/old catalog, missing model
        raise ToolError(str(exc)) from exc
