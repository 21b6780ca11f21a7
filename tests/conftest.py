"""Fixtures shared by several test modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shared.rulesets import register, unregister
from tests.toy_ruleset import RaceToTwenty


@pytest.fixture
def race() -> Iterator[RaceToTwenty]:
    """The tests' own rule set, registered for one test: the server and the clients know it only through the seam."""
    ruleset = RaceToTwenty()
    register(ruleset)
    try:
        yield ruleset
    finally:
        unregister(ruleset.name)
