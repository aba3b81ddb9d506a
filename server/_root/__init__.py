"""rewrite-assist: turn a pull request into an OpenRewrite recipe that reproduces it.

The code lives in sub-packages mapped from the repository's top-level folders:
``rewrite_assist.server`` (server/), ``rewrite_assist.ingestion`` (ingestion/) and
``rewrite_assist.evaluation`` (evaluation/).
"""

__version__ = "0.1.0"
