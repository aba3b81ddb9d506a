"""One line-pairing rule (``features.pair_lines``) for the words and the substitution tokens."""

from __future__ import annotations

import pytest

from rewrite_assist.server.diffs import features
from rewrite_assist.server.diffs.features import Change, pair_lines
from rewrite_assist.server.search.by_diff.catalog import pair_tokens

REMOVED = [
    "    implementation 'com.google.guava:guava:21.0'",
    "    implementation 'com.sun.mail:javax.mail:1.6.2'",
    "    implementation 'org.apache.logging.log4j:log4j-core:2.19.0'",
]
ADDED = [
    "    implementation 'com.google.guava:guava:33.0.0-jre'",
    "    implementation 'jakarta.validation:jakarta.validation-api:3.0.2'",
    "    implementation 'org.eclipse.angus:angus-mail:2.0.2'",
    "    implementation 'org.apache.logging.log4j:log4j-core:2.22.1'",
]


def test_lines_of_one_keyword_pair_by_the_names_they_share() -> None:
    pairs, left_removed, left_added = pair_lines(REMOVED, ADDED)
    assert (REMOVED[0], ADDED[0]) in pairs  # guava with guava
    assert (REMOVED[2], ADDED[3]) in pairs  # log4j-core with log4j-core, not with the next added line
    assert left_removed == [] and len(left_added) == 1
    # the substitution tokens read the same pairs: version bumps say nothing, the swap says what became what
    tokens = pair_tokens(Change("gradle", REMOVED, ADDED))
    assert not any("guava" in t or "log4j" in t for t in tokens), tokens
    assert any(t.startswith("~com.sun.mail:javax.mail>") for t in tokens), tokens


def test_in_order_the_swap_is_misread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(features, "PAIR_BY_NAMES", False)
    pairs, _, _ = pair_lines(REMOVED, ADDED)
    assert (REMOVED[2], ADDED[3]) not in pairs  # log4j-core paired with the third added line
    tokens = pair_tokens(Change("gradle", REMOVED, ADDED))
    assert any("log4j" in t for t in tokens), tokens


def test_blank_lines_and_lines_put_back_unchanged_are_no_pairs() -> None:
    change = Change("maven", ["<version>1.0</version>", "", "<artifactId>a</artifactId>"], ["<version>2.0</version>"])
    pairs, left_removed, left_added = pair_lines(change.removed, change.added)
    assert pairs == [("<version>1.0</version>", "<version>2.0</version>")]
    assert left_removed == ["<artifactId>a</artifactId>"] and left_added == []  # blank lines are no line
    # leftovers of equal count pair in order; a line put back unchanged is no pair
    assert pair_lines(["a = 1", "b = 2"], ["c = 1", "b = 2"]) == ([("a = 1", "c = 1")], [], [])
