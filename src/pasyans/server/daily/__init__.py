"""Daily deals, their leaderboards and display names (docs/daily.md)."""
