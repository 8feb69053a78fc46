"""meeple.rules."""
