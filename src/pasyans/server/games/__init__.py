"""What the endpoints do with a game: the request context, the service that changes a game, the searches that answer hints, the cache of rebuilt games and replays."""
