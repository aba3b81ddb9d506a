"""The ingestion pipeline: OpenRewrite recipe docs → parsed recipes → embeddings → the catalog."""
