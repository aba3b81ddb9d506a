"""The recipe catalog: pydantic models, the database schema, connections and queries."""
