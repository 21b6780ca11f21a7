"""The words client and server exchange: pydantic models, one discriminated union per direction."""

from shared.protocol.codes import PROTOCOL_VERSION, CloseCode, ErrorCode
from shared.protocol.messages import CLIENT_ADAPTER, SERVER_ADAPTER, ClientMessage, ServerMessage

__all__ = [
    "CLIENT_ADAPTER",
    "PROTOCOL_VERSION",
    "SERVER_ADAPTER",
    "ClientMessage",
    "CloseCode",
    "ErrorCode",
    "ServerMessage",
]
