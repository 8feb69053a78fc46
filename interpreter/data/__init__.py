"""Where the grammar, schema and seed games are found once installed."""
