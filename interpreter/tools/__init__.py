"""meeple.tools."""
