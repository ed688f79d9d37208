"""The asyncio shell around the engine: websockets, players, games, rooms, Redis."""
