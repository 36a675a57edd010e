"""What the endpoints do with a game: the service that changes it, the searches that
answer hints, the cache of rebuilt games and the replays."""
