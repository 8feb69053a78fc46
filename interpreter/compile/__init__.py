"""meeple.compile."""
