"""meeple.runtime."""
