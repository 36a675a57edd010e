"""Limits on the costly requests: which routes are costly, and the rate limits that count them."""
