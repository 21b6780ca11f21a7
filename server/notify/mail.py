"""Mail: the notifications of one account gathered into one message (at most one an hour), sent over SMTP.

Each message says what waits in a few lines, each with a link to the game on the web page (its address: no token
of any kind in it), and carries a one-click unsubscribe (RFC 8058: `List-Unsubscribe` with an https URL, and
`List-Unsubscribe-Post: List-Unsubscribe=One-Click`) whose key does nothing but stop the account's mail. Its
`Message-ID` is made from the outbox rows it carries, so a message sent again after a crash carries the same one.
A player's words (a name, a word of chat) reach a header only with every control character (CR, LF) taken out.
"""

from __future__ import annotations

import re
import ssl
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate
from urllib.parse import quote, unquote, urlsplit

from server.storage.notices import OutboxRow

SUBJECT_LENGTH = 120


class MailRefused(Exception):
    """The mail server refused the message for good (a 5xx: the address bounces)."""


class MailFailed(Exception):
    """The mail server could not be reached, or refused for now (a 4xx): tried again later."""


@dataclass(frozen=True)
class SmtpServer:
    """Where mail goes, from `--smtp URL`: smtp://[USER[:PASSWORD]@]HOST[:PORT] (STARTTLS when the server offers
    it), smtps://... (TLS from the start). Its password is never written to a log (`shown`)."""

    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False

    @classmethod
    def of_url(cls, url: str) -> SmtpServer:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("--smtp: give smtp://[USER[:PASSWORD]@]HOST[:PORT] or smtps://...")
        tls = parts.scheme == "smtps"
        return cls(
            parts.hostname,
            parts.port or (465 if tls else 25),
            unquote(parts.username) if parts.username else None,
            unquote(parts.password) if parts.password else None,
            tls,
        )

    @property
    def shown(self) -> str:
        return f"{'smtps' if self.tls else 'smtp'}://{self.host}:{self.port}"


def header_safe(text: str, most: int = SUBJECT_LENGTH) -> str:
    """A player's words as a header may carry them: every control character (CR and LF above all, which would start
    another header) a space, spaces run together, cut to `most` characters."""
    flat = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in text)
    flat = re.sub(r"\s+", " ", flat).strip()
    return flat if len(flat) <= most else flat[: most - 1] + "…"


def game_link(page_url: str, game_id: str | None, player: str | None = None) -> str:
    """The game on the web page (or the page itself): its address and the game's id, nothing secret."""
    if game_id is None:
        return page_url
    return f"{page_url}#game={quote(game_id)}" + (f"&player={quote(player)}" if player else "")


def line(row: OutboxRow) -> str:
    """One notification in words, as a mail's line, a webhook's message and a live notice say it."""
    notice = row.notice
    body = notice.body
    game = f"game {notice.game_id}" if notice.game_id else "the lobby"
    title = body.get("title")
    where = f"{game} ({title} on {body.get('map')})" if title else game
    match notice.kind:
        case "your_turn":
            return f"Turn {body.get('turn')} of {where} waits for your orders."
        case "game_started":
            return f"{_first_up(where)} started: {', '.join(body.get('players') or [])}."
        case "game_ended":
            winner = body.get("winner")
            return f"{_first_up(where)} is over: {winner} won." if winner else f"{_first_up(where)} ended in a draw."
        case "player_out":
            how = "was booted (out of time too many turns running)" if body.get("booted") else "is out"
            return f"In {where}, {body.get('player')} {how}."
        case "nudged":
            return f"{body.get('by')} nudged you in {where}: it waits for your orders."
        case "named":
            return f'{body.get("by")} named you in {where}: "{body.get("text")}"'
        case "challenge":
            return f"{body.get('by')} challenges you" + (f": {body.get('text')}" if body.get("text") else ".")
    return f"News of {where}."


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def subject(rows: Sequence[OutboxRow]) -> str:
    """One notification's words, or what several amount to ("3 games wait for your orders")."""
    if len(rows) == 1:
        return header_safe("RISC: " + line(rows[0]))
    waiting = {r.notice.game_id for r in rows if r.notice.kind == "your_turn"}
    others = len([r for r in rows if r.notice.kind != "your_turn"])
    parts = []
    if waiting:
        parts.append(f"{len(waiting)} game{'s' * (len(waiting) != 1)} wait{'s' * (len(waiting) == 1)} for your orders")
    if others:
        parts.append(f"{others} other thing{'s' * (others != 1)} happened")
    return header_safe("RISC: " + ", ".join(parts))


def message_id(rows: Sequence[OutboxRow], domain: str) -> str:
    """The same rows always make the same Message-ID: a receiver drops a message sent twice."""
    ids = sorted(r.id for r in rows)
    return f"<risc-{ids[0]}-{ids[-1]}-{len(ids)}@{domain}>"


def compose(
    rows: Sequence[OutboxRow],
    to: str,
    sender: str,
    page_url: str,
    unsubscribe_url: str,
    player_of: dict[str, str],
    now: float,
) -> EmailMessage:
    """The digest of `rows` (one account's) for `to`."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject(rows)
    message["Date"] = formatdate(now, localtime=False)
    message["Message-ID"] = message_id(rows, sender.rsplit("@", 1)[-1].strip("> ") or "risc")
    message["List-Unsubscribe"] = f"<{unsubscribe_url}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    lines = []
    for row in rows:
        game = row.notice.game_id
        lines.append(line(row))
        lines.append("  " + game_link(page_url, game, player_of.get(game or "")))
        lines.append("")
    lines.append(f"Stop these mails: {unsubscribe_url}")
    message.set_content("\n".join(lines))
    return message


async def send(server: SmtpServer, message: EmailMessage, context: ssl.SSLContext | None = None) -> None:
    """Hand the message to the mail server: MailRefused for a refusal for good (the address bounces), MailFailed for
    one to try again."""
    import aiosmtplib

    try:
        await aiosmtplib.send(
            message,
            hostname=server.host,
            port=server.port,
            username=server.username,
            password=server.password,
            use_tls=server.tls,
            start_tls=None if not server.tls else False,
            tls_context=context,
            timeout=10,
        )
    except aiosmtplib.SMTPRecipientsRefused as exc:
        raise MailRefused(
            f"the mail server refused the address: {exc.recipients[0] if exc.recipients else exc}"
        ) from None
    except aiosmtplib.SMTPResponseException as exc:
        if 500 <= exc.code < 600:
            raise MailRefused(f"the mail server refused it: {exc.code} {header_safe(exc.message, 80)}") from None
        raise MailFailed(f"the mail server answered {exc.code}") from None
    except (aiosmtplib.SMTPException, OSError) as exc:
        raise MailFailed(f"the mail server {server.shown} failed: {header_safe(str(exc), 120)}") from None
