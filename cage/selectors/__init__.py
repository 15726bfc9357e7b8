"""Read-only queries for the cage's pages. Nothing here writes; the services are the only writers."""
