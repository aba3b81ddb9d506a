"""``python -m rewrite_assist`` runs the same CLI as the ``rewrite-assist`` command."""

from rewrite_assist.server.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
