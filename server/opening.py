"""What a server keeps its games in and where it plays them, chosen once from its settings: a SQLite file (or memory)
played by this server alone, or a PostgreSQL store shared by several nodes, each game played by one of them."""

from __future__ import annotations

from server.clock import Clock
from server.config import ServerConfig
from server.lobby.directory import RESTORED_LOG_ENTRIES, Directory, LocalDirectory
from server.storage.base import Storage
from server.storage.opening import open_storage


def alone(storage: Storage, config: ServerConfig) -> tuple[Storage, Directory]:
    """`storage` played by this server alone, every game of it restored at the start."""
    return storage, LocalDirectory(storage, config.finished_games_kept, RESTORED_LOG_ENTRIES)


def open_place(config: ServerConfig, clock: Clock | None = None) -> tuple[Storage, Directory]:
    """The store `config` names, and the directory that says where each of its games is played (`clock`: the
    server's). Raises StorageError when the store cannot be used."""
    if config.store is None:
        return alone(open_storage(config.data_dir, clock=clock), config)
    from server.cluster.directory import ClusterDirectory
    from server.cluster.network import default_node_id
    from server.cluster.node import Node
    from server.storage.postgres import Epochs, PostgresStorage

    node_id = config.node_id or default_node_id(config.port)
    epochs = Epochs()
    store = PostgresStorage(config.store, node_id=node_id, epochs=epochs)
    node = Node(
        store,
        epochs,
        node_id,
        config.public_url or "",
        heartbeat=config.heartbeat,
        fence_after=config.fence_after,
        sweep_every=config.sweep_every,
    )
    directory = ClusterDirectory(store, node)
    return store, directory
