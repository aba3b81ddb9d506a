"""Diff search, hand-written Java changes against the real docs snapshot: a change from one construct of
the language to another is said in the construct's names (``syntax.construct_phrases``), so a recipe that makes it
without an example (``UseTextBlocks``) is found, and a recipe whose examples take the new construct away
(``ReplaceTextBlockWithString``) weighs less there."""

from __future__ import annotations

import pytest

from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff import scoring as diff_scoring
from rewrite_assist.server.search.by_diff import syntax as diff_syntax
from rewrite_assist.server.search.by_diff.catalog import example_snapshot
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.syntax import construct_phrases, taken_away, undone_by

TEXT_BLOCKS = "org.openrewrite.java.migrate.lang.UseTextBlocks"
BACK_TO_STRING = "org.openrewrite.staticanalysis.ReplaceTextBlockWithString"

CONCATENATED = [
    "    private static final String FIND =",
    '            "SELECT id, name " +',
    '            "FROM member " +',
    '            "WHERE id = ?";',
]
TEXT_BLOCK = [
    '    private static final String FIND = """',
    "            SELECT id, name",
    "              FROM member",
    "             WHERE id = ?",
    '            """;',
]
ANONYMOUS = [
    "        executor.submit(new Runnable() {",
    "            @Override",
    "            public void run() {",
    "                refresh(cache);",
    "            }",
    "        });",
]
LAMBDA = ["        executor.submit(() -> refresh(cache));"]


def _diff(path: str, removed: list[str], added: list[str]) -> str:
    return (
        "\n".join(
            [
                f"diff --git a/{path} b/{path}",
                f"--- a/{path}",
                f"+++ b/{path}",
                f"@@ -10,{len(removed) + 2} +10,{len(added) + 2} @@ public class Repository {{",
                " ",
                *("-" + line for line in removed),
                *("+" + line for line in added),
                " ",
                "     private final DataSource dataSource;",
            ]
        )
        + "\n"
    )


def test_a_construct_change_is_said_in_the_names_of_both_constructs() -> None:
    assert construct_phrases(Change("java", CONCATENATED, TEXT_BLOCK)) == ["string concatenation to text block"]
    assert construct_phrases(Change("java", ANONYMOUS, LAMBDA)) == ["anonymous class to lambda"]
    cast = ["if (shape instanceof Rect) {", "    Rect r = (Rect) shape;"]
    assert construct_phrases(Change("java", cast, ["if (shape instanceof Rect r) {"])) == [
        "cast to pattern matching instanceof"
    ]
    diamond = (["Map<String, List<Item>> byZone = new HashMap<String, List<Item>>();"],)
    assert construct_phrases(Change("java", *diamond, ["Map<String, List<Item>> byZone = new HashMap<>();"])) == [
        "explicit type arguments to diamond operator"
    ]


def test_only_a_conversion_is_said_not_a_construct_written_beside_its_old_form() -> None:
    # a lambda added where no anonymous class went: new code, no conversion
    assert construct_phrases(Change("java", ["        refresh(cache);"], LAMBDA)) == []
    # a lambda on both sides: the anonymous class removed elsewhere is no conversion to it
    assert construct_phrases(Change("java", [*ANONYMOUS, *LAMBDA], [*LAMBDA, "        stop();"])) == []
    # the other way round is not this change
    assert construct_phrases(Change("java", TEXT_BLOCK, CONCATENATED)) == []
    assert taken_away(TEXT_BLOCK, CONCATENATED) == ["string concatenation to text block"]
    # other kinds, and whole files, have no construct change
    assert construct_phrases(Change("kotlin", CONCATENATED, TEXT_BLOCK)) == []
    assert construct_phrases(Change("java", [], TEXT_BLOCK, new_file=True)) == []


def test_the_catalog_knows_which_recipes_undo_a_construct_change(catalog) -> None:
    undone = undone_by(example_snapshot(catalog).examples)
    assert "string concatenation to text block" in undone[BACK_TO_STRING]
    assert (
        "cast to pattern matching instanceof" in undone["org.openrewrite.staticanalysis.RemoveInstanceOfPatternMatch"]
    )
    # UseVar's example takes a diamond away (var needs the type arguments) but it makes var: it undoes nothing
    assert "org.openrewrite.java.migrate.lang.UseVar" not in undone
    assert "org.openrewrite.staticanalysis.InstanceOfPatternMatch" not in undone


def test_concatenated_sql_turned_into_a_text_block_finds_use_text_blocks(
    catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    diff = _diff("src/main/java/com/acme/Repository.java", CONCATENATED, TEXT_BLOCK)
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=10).hits]
    assert TEXT_BLOCKS in ids[:3], ids
    assert BACK_TO_STRING not in ids or ids.index(TEXT_BLOCKS) < ids.index(BACK_TO_STRING), ids
    # the recipe has no example: without the construct's words nothing finds it
    monkeypatch.setattr(diff_syntax, "SAY_CONSTRUCTS", False)
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=10).hits]
    assert TEXT_BLOCKS not in ids, ids


def test_a_recipe_undoing_the_construct_weighs_less(catalog, embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    diff = _diff("src/main/java/com/acme/Repository.java", CONCATENATED, TEXT_BLOCK)

    def score(rid: str) -> float:
        groups = find_recipes_for_diff(catalog, embedder, diff, limit=10).groups
        return max((r.score for g in groups for r in g.recipes if r.id == rid), default=0.0)

    monkeypatch.setattr(diff_scoring, "REVERSE", 1.0)
    full = score(BACK_TO_STRING)
    monkeypatch.setattr(diff_scoring, "REVERSE", 0.5)
    assert full > 0
    assert score(BACK_TO_STRING) < full


GUARDED = [
    "        if (LOGGER.isDebugEnabled()) {",
    '            LOGGER.debug("Order " + order.getId() + " -> zone " + order.getZone());',
    "        }",
]
UNGUARDED = ['        LOGGER.debug("Order {} -> zone {}", order.getId(), order.getZone());']


def test_an_if_taken_away_around_the_statement_it_guarded_is_said() -> None:
    assert construct_phrases(Change("java", GUARDED, UNGUARDED)) == ["remove if statement guard"]
    # the guarded statement replaced by other code: a rewrite, no guard taken away
    rewritten = ["        history.computeIfAbsent(player, p -> new ArrayList<>()).add(result);"]
    guard = [
        "        if (matches == null) {",
        "            matches = new ArrayList<>();",
        "            put(p, matches);",
    ]
    assert "remove if statement guard" not in construct_phrases(Change("java", [*guard, "        }"], rewritten))
    # an if kept on the added side is no guard taken away
    assert construct_phrases(Change("java", GUARDED, ["        if (LOGGER.isDebugEnabled()) {", *UNGUARDED])) == []


def test_a_removed_log_level_guard_finds_its_recipe(catalog, embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    guards = "org.openrewrite.java.logging.slf4j.RemoveUnnecessaryLogLevelGuards"
    placeholders = "org.openrewrite.java.logging.ParameterizedLogging"
    diff = _diff("src/main/java/com/acme/Dispatcher.java", GUARDED, UNGUARDED)

    def scores() -> dict[str, float]:
        groups = find_recipes_for_diff(catalog, embedder, diff, limit=10).groups
        return {r.id: r.score for r in groups[0].recipes}

    said = scores()
    assert max(said, key=lambda rid: said[rid]) == guards, said
    # the same lines also write placeholders: with the guard said, that recipe is well below the guard's, and a
    # pick of it leaves the guard's segment uncovered
    assert said.get(placeholders, 0.0) < 0.85 * said[guards], said
    monkeypatch.setattr(diff_syntax, "SAY_CONSTRUCTS", False)
    unsaid = scores()
    assert unsaid[guards] * 1.2 < said[guards], (said, unsaid)
