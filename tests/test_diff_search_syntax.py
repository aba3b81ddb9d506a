"""Diff search, Java source changes against the real docs snapshot: the construct a hand-written
modernisation moves between (read from the code's syntax, matched with the examples making the same construct
change), an annotation deleted with its declaration is no annotation removal, and a composite several of whose
steps each make one of the PR's changes ranks as the PR's umbrella."""

from __future__ import annotations

import pytest

from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.diffs.words import describe
from rewrite_assist.server.search.by_diff import rerank
from rewrite_assist.server.search.by_diff import scoring as diff_scoring
from rewrite_assist.server.search.by_diff import syntax as diff_syntax
from rewrite_assist.server.search.by_diff import umbrella as diff_umbrella
from rewrite_assist.server.search.by_diff.catalog import example_snapshot
from rewrite_assist.server.search.by_diff.scoring import Match, names_kept
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.syntax import construct_tokens, skeleton
from rewrite_assist.server.search.by_diff.umbrella import umbrellas

CAST = ["        if (event instanceof OrderPlaced) {", "            OrderPlaced placed = (OrderPlaced) event;"]
PATTERN = ["        if (event instanceof OrderPlaced placed) {"]


def _java_diff(path: str, hunks: list[tuple[list[str], list[str]]]) -> str:
    out = [f"diff --git a/{path} b/{path}", f"--- a/{path}", f"+++ b/{path}"]
    line = 10
    for removed, added in hunks:
        out.append(f"@@ -{line},{len(removed) + 2} +{line},{len(added) + 2} @@ class Handler {{")
        out.append("     void handle(Object event) {")
        out += ["-" + r for r in removed] + ["+" + a for a in added]
        out.append("         log(event);")
        line += 40
    return "\n".join(out) + "\n"


def test_a_skeleton_keeps_the_grammar_and_reads_names_strings_and_numbers_alike() -> None:
    assert skeleton('    var total = prices.get("eur") + 12;') == [
        "var",
        "x",
        "=",
        "x",
        ".",
        "x",
        "(",
        '"s"',
        ")",
        "+",
        "0",
        ";",
    ]
    assert skeleton('    String sql = """') == ["x", "x", "=", '"""']
    assert skeleton("    case METRE -> 1;")[:3] == ["case", "x", "->"]
    assert skeleton("    // if (a instanceof B b)") == []  # a comment is no construct


def test_the_construct_change_is_side_tagged_and_names_do_not_matter() -> None:
    tokens = construct_tokens(Change("java", CAST, PATTERN))
    assert "+instanceof x x" in tokens and "-) x ;" in tokens, sorted(tokens)
    # the reverse rewrite shows the same runs on the other side
    reverse = construct_tokens(Change("java", PATTERN, CAST))
    assert "-instanceof x x" in reverse and "+) x ;" in reverse
    # other names, same construct change: the same tokens
    renamed = [line.replace("OrderPlaced", "Rect").replace("placed", "r").replace("event", "shape") for line in CAST]
    assert construct_tokens(Change("java", renamed, [PATTERN[0].replace("OrderPlaced placed", "Rect r")])) >= {
        "+instanceof x x",
        "-) x ;",
    }
    # only Java and Kotlin code; a new file's constructs are all of it, no change of one
    assert construct_tokens(Change("yaml", ["a: 1"], ["a: 2"])) == set()
    assert construct_tokens(Change("java", [], PATTERN, new_file=True)) == set()


def test_names_kept_tells_a_construct_rewrite_from_a_names_swap() -> None:
    assert names_kept(Change("java", CAST, PATTERN)) == 1.0
    swap = Change("java", ["import org.junit.Before;"], ["import org.junit.jupiter.api.BeforeEach;"])
    assert names_kept(swap) < 0.5
    assert names_kept(Change("java", ["import a.B;"], [])) == 0.0


def test_a_hand_written_instanceof_pattern_meets_the_recipe_that_makes_it(
    pick_order, catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    diff = _java_diff("src/main/java/shop/Handler.java", [(CAST, PATTERN)])
    match, reverse = (
        "org.openrewrite.staticanalysis.InstanceOfPatternMatch",
        ("org.openrewrite.staticanalysis.RemoveInstanceOfPatternMatch"),
    )
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=10).hits]
    assert match in ids[:3], ids
    assert reverse not in ids or ids.index(match) < ids.index(reverse), ids
    # Without the construct evidence the recipe undoing the pattern ranks above the one making it (the construct's
    # words and the weight of a recipe undoing it left out too: this is the tokens' share).
    monkeypatch.setattr(diff_scoring, "W_CONSTRUCT", 0.0)
    monkeypatch.setattr(diff_syntax, "SAY_CONSTRUCTS", False)
    monkeypatch.setattr(diff_scoring, "REVERSE", 1.0)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=10).hits]
    assert match not in without or (reverse in without and without.index(reverse) < without.index(match)), without


# A class rewritten as a record: its methods go with their @Override; no annotation was removed from anything.
RECORD_REMOVED = [
    "public final class Point {",
    "    private final int x;",
    "    @Override",
    "    public String toString() {",
    '        return "Point" + x;',
    "    }",
    "    @Override",
    "    public int hashCode() {",
    "        return x;",
    "    }",
]


def test_an_annotation_deleted_with_its_declaration_is_no_annotation_removal() -> None:
    phrases = describe("src/main/java/geo/Point.java", Change("java", RECORD_REMOVED, ["public record Point(int x) {"]))
    assert not any("annotation" in p for p in phrases), phrases
    # an annotation taken off a declaration that stays is one
    alone = describe("src/main/java/geo/Point.java", Change("java", ["    @Deprecated"], []))
    assert "remove annotation @Deprecated" in alone, alone
    # one swapped on a method that stays (rewritten) is a change of annotation
    swapped = Change("java", ["    @Before", "    public void setUp() {"], ["    @BeforeEach", "    void setUp() {"])
    assert "change annotation @Before to @BeforeEach" in describe("src/test/java/ATest.java", swapped)


SYSOUT = _java_diff(
    "src/main/java/shop/Sync.java",
    [
        (['        System.out.println("synced " + count);'], ['        LOG.info("synced {}", count);']),
        (['        System.err.println("sync failed: " + e);'], ['        LOG.error("sync failed", e);']),
        (["        e.printStackTrace();"], ['        LOG.error("could not close", e);']),
    ],
)


def test_a_composite_whose_steps_make_the_changes_ranks_as_the_umbrella(
    catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = find_recipes_for_diff(catalog, embedder, SYSOUT, limit=10)
    ids = [h.id for h in result.hits]
    umbrella = "org.openrewrite.java.logging.SystemPrintToLogging"
    # beside its steps: the rerank may put the steps first (labelled PRs often name the leaves that make the edits)
    assert umbrella in ids[:5], ids
    assert "org.openrewrite.java.logging.SystemOutToLogging" in ids[:5], ids
    # it stands for the changes its steps make, in three places
    assert result.hits[ids.index(umbrella)].matched_variations >= 2
    # and the umbrella rule places it among the pick's own first three
    monkeypatch.setattr(rerank, "RERANK", False)
    picked = [h.id for h in find_recipes_for_diff(catalog, embedder, SYSOUT, limit=10).hits]
    assert umbrella in picked[:3], picked


def test_steps_many_composites_list_make_no_umbrella(catalog) -> None:
    snap = example_snapshot(catalog)
    known = set(snap.recipe_ids)
    leaf = Match(1.0, 0.5, 0, [])
    logging = [
        {"org.openrewrite.java.logging.SystemOutToLogging": leaf},
        {"org.openrewrite.java.logging.SystemErrToLogging": leaf},
    ]
    assert [u.recipe for u in umbrellas(logging, snap, known)] == ["org.openrewrite.java.logging.SystemPrintToLogging"]
    # one segment is no umbrella's many changes
    assert umbrellas([{**logging[0], **logging[1]}], snap, known) == []
    # the generic plugin bumps are listed by dozens of migrations: they name none of them
    bumps = [
        {"org.openrewrite.maven.UpgradePluginVersion": leaf},
        {"org.openrewrite.gradle.plugins.UpgradePluginVersion": leaf},
        {"org.openrewrite.maven.UpgradeDependencyVersion": leaf},
    ]
    assert len(snap.parents["org.openrewrite.maven.UpgradePluginVersion"]) > diff_umbrella.MAX_LISTED_BY
    assert umbrellas(bumps, snap, known) == []
