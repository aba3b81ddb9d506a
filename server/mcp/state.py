"""What the MCP tools share: the core ``Services`` plus the warm-up that starts after the handshake."""

from __future__ import annotations

import logging
import threading

from ..catalog.store import CatalogNotReady
from ..search.hybrid import preload
from ..services import Services

log = logging.getLogger(__name__)


class AppState(Services):
    _warming = False

    def warm_up(self) -> None:
        """Load the model, open the database and read the ranking snapshot in background threads, once."""
        with self._lock:
            if self._warming:
                return
            self._warming = True
        self.embedder.warm_up()
        threading.Thread(target=self._warm_db, name="db-warm-up", daemon=True).start()

    def _warm_db(self) -> None:
        try:
            preload(self.store())
        except CatalogNotReady as exc:  # reachable, but empty or outdated: each tool call says how to fix it
            log.warning("catalog not ready at start: %s", exc)
        except Exception as exc:
            log.warning("catalog database not ready at start: %s", exc)
            self.forget_connection()
