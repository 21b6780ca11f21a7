"""The RISC server: the one authority on every game it holds (asyncio + websockets)."""
