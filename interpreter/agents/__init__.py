"""meeple.agents."""
