"""One line-pairing rule (``features.pair_lines``) for the words and the substitution tokens."""

from __future__ import annotations

import pytest
from test_diff_search import pr_case

from rewrite_assist.server.diffs import features
from rewrite_assist.server.diffs.features import Change, pair_lines
from rewrite_assist.server.search.by_diff.catalog import pair_tokens

# Real Gradle dependency lines of a pr-case (read from ../shared, not copied): two bumps and a swap of the mail
# library, with the swap's new lines listed between the bumps' new lines.
REMOVED_NAMES = ("com.google.guava:guava", "com.sun.mail:javax.mail", "com.fasterxml.jackson.core:jackson-databind")
ADDED_NAMES = (
    "com.google.guava:guava",
    "jakarta.validation:jakarta.validation-api",
    "org.eclipse.angus:angus-mail",
    "com.fasterxml.jackson.core:jackson-databind",
)


@pytest.fixture(scope="module")
def lines() -> tuple[list[str], list[str]]:
    """The removed and added dependency lines named above, as the PR's ``build.gradle`` hunk has them."""
    diff = pr_case("notification-service-pr2").read_text(encoding="utf-8").splitlines()

    def pick(sign: str, names: tuple[str, ...]) -> list[str]:
        return [next(line[1:] for line in diff if line.startswith(sign) and f"'{name}:" in line) for name in names]

    return pick("-", REMOVED_NAMES), pick("+", ADDED_NAMES)


def test_lines_of_one_keyword_pair_by_the_names_they_share(lines: tuple[list[str], list[str]]) -> None:
    removed, added = lines
    pairs, left_removed, left_added = pair_lines(removed, added)
    assert (removed[0], added[0]) in pairs  # guava with guava
    assert (removed[2], added[3]) in pairs  # jackson-databind with jackson-databind, not with the next added line
    assert left_removed == [] and len(left_added) == 1
    # the substitution tokens read the same pairs: version bumps say nothing, the swap says what became what
    tokens = pair_tokens(Change("gradle", removed, added))
    assert not any("guava" in t or "jackson" in t for t in tokens), tokens
    assert any(t.startswith("~com.sun.mail:javax.mail>") for t in tokens), tokens


def test_in_order_the_swap_is_misread(monkeypatch: pytest.MonkeyPatch, lines: tuple[list[str], list[str]]) -> None:
    removed, added = lines
    monkeypatch.setattr(features, "PAIR_BY_NAMES", False)
    pairs, _, _ = pair_lines(removed, added)
    assert (removed[2], added[3]) not in pairs  # jackson-databind paired with the third added line
    tokens = pair_tokens(Change("gradle", removed, added))
    assert any("jackson" in t for t in tokens), tokens


def test_blank_lines_and_lines_put_back_unchanged_are_no_pairs() -> None:
    change = Change("maven", ["<version>1.0</version>", "", "<artifactId>a</artifactId>"], ["<version>2.0</version>"])
    pairs, left_removed, left_added = pair_lines(change.removed, change.added)
    assert pairs == [("<version>1.0</version>", "<version>2.0</version>")]
    assert left_removed == ["<artifactId>a</artifactId>"] and left_added == []  # blank lines are no line
    # leftovers of equal count pair in order; a line put back unchanged is no pair
    assert pair_lines(["a = 1", "b = 2"], ["c = 1", "b = 2"]) == ([("a = 1", "c = 1")], [], [])
