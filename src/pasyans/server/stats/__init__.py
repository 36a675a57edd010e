"""The players' statistics and history."""
