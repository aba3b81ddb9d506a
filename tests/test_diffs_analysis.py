"""``analyze_diffs`` on the inputs real tools emit and on broken ones: a correct result or a clear error."""

from __future__ import annotations

import pytest
from fixtures.diffs_support import binary_section, file_diff, lines

from rewrite_assist.server.diffs import DiffInputError, DiffParseError, analyze_diffs

BUILD = file_diff(
    "build.gradle",
    lines("plugins {", "}", "sourceCompatibility = '17'", "dependencies {", "}"),
    lines(
        "plugins {", "}", "java { toolchain { languageVersion = JavaLanguageVersion.of(21) } }", "dependencies {", "}"
    ),
)
README = file_diff("README.md", lines("# App", "Java 17"), lines("# App", "Java 21"))
PR = BUILD + README


def test_identical_diffs_are_a_perfect_match() -> None:
    result = analyze_diffs(PR, PR)
    assert result.metrics.model_dump() == {
        "total_expected_changes": 4,
        "total_resulting_changes": 4,
        "true_positives": 4,
        "false_positives": 0,
        "false_negatives": 0,
        "precision": 1.0,
        "recall": 1.0,
        "f1_score": 1.0,
        "is_perfect_match": True,
    }
    assert result.summary == "Perfect match: all 4 expected changes made, none extra."


def test_partial_match_counts_and_rounding() -> None:
    recipe = (
        BUILD
        + file_diff("README.md", lines("# App", "Java 17"), lines("# App", "Java 21!"))
        + file_diff("Other.java", lines("a"), lines("b"))
    )
    m = analyze_diffs(PR, recipe).metrics
    assert (m.true_positives, m.false_positives, m.false_negatives) == (3, 3, 1)
    assert (m.precision, m.recall, m.f1_score) == (0.5, 0.75, 0.6)
    assert not m.is_perfect_match


def test_line_numbers_do_not_matter() -> None:
    shifted = file_diff("README.md", lines("# App", "", "", "Java 17"), lines("# App", "", "", "Java 21"))
    assert analyze_diffs(README, shifted).metrics.is_perfect_match


def test_identical_lines_count_as_a_multiset() -> None:
    """The PR adds the same line three times, the recipe twice: 2 TP and 1 FN, not a set's 1 TP."""
    pr = file_diff("a.txt", lines("x"), lines("x", "dup", "y", "dup", "z", "dup"))
    recipe = file_diff("a.txt", lines("x"), lines("x", "dup", "y", "dup"))
    result = analyze_diffs(pr, recipe)
    m = result.metrics
    assert (m.true_positives, m.false_negatives, m.false_positives) == (3, 2, 0)
    assert sorted((u.content, u.line_number) for u in result.missing) == [("dup", 6), ("z", 5)]


def test_the_same_line_in_another_file_does_not_match() -> None:
    other = file_diff("docs.md", lines("# App", "Java 17"), lines("# App", "Java 21"))
    m = analyze_diffs(README, other).metrics
    assert (m.true_positives, m.false_positives, m.false_negatives) == (0, 2, 2)


@pytest.mark.parametrize(("pr", "recipe"), [("", ""), ("", PR), (PR, ""), ("\n\n", "  \n")])
def test_empty_diffs_score_zero_without_error(pr: str, recipe: str) -> None:
    m = analyze_diffs(pr, recipe).metrics
    assert m.true_positives == 0
    assert m.precision == 0.0 and m.recall == 0.0 and m.f1_score == 0.0
    assert m.is_perfect_match is (not pr.strip() and not recipe.strip())


def test_no_predictions_means_precision_zero_not_one() -> None:
    result = analyze_diffs(PR, "")
    assert result.metrics.precision == 0.0
    assert result.summary.startswith("The recipe changes no line: 0 of 4 expected changes made")


def test_diff_of_only_binary_changes_has_no_changed_lines() -> None:
    result = analyze_diffs(PR, binary_section("gradle/wrapper/gradle-wrapper.jar"))
    assert result.metrics.total_resulting_changes == 0
    assert result.inputs.recipe.binary_sections_removed == ["gradle/wrapper/gradle-wrapper.jar"]


def test_git_binary_patch_sections_are_skipped() -> None:
    section = (
        "diff --git a/x.bin b/x.bin\nindex 1..2 100644\nGIT binary patch\nliteral 5\n"
        "McmV+{0n`55i{La\n\nliteral 5\nzcmV+{0n`4o^z~0f1\n\n"
    )
    result = analyze_diffs(PR, section + README)
    assert result.metrics.total_resulting_changes == 2
    assert "x.bin" in result.inputs.recipe.binary_sections_removed


def test_non_utf8_bytes_are_replaced_not_fatal() -> None:
    latin1 = b"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-caf\xe9\n+cafe\n"
    result = analyze_diffs(latin1, latin1)
    assert result.metrics.is_perfect_match
    assert any("\ufffd" in line.content for line in analyze_diffs(latin1, b"").missing)


def test_crlf_diff_matches_lf_diff() -> None:
    assert analyze_diffs(PR, PR.replace("\n", "\r\n")).metrics.is_perfect_match


def test_missing_final_newline_does_not_change_the_last_line() -> None:
    assert analyze_diffs(PR, PR.rstrip("\n")).metrics.is_perfect_match


def test_truncated_hunk_is_a_clear_error_naming_the_diff() -> None:
    truncated = PR[: PR.rindex("+Java 21")]
    with pytest.raises(DiffParseError, match=r"^recipe diff: cannot parse the section starting at line \d+"):
        analyze_diffs(PR, truncated)


def test_hunk_without_file_header_is_a_clear_error() -> None:
    with pytest.raises(DiffParseError, match=r"PR diff: .*no '---'/'\+\+\+' file header"):
        analyze_diffs("@@ -1 +1 @@\n-a\n+b\n", PR)


@pytest.mark.parametrize("text", ["hello world\n", "Just some notes\nabout the change\n", '{"a": 1}'])
def test_text_that_is_not_a_diff_is_rejected(text: str) -> None:
    with pytest.raises(DiffParseError, match="recipe diff is not a unified diff"):
        analyze_diffs(PR, text)


def test_new_deleted_and_renamed_files_keep_git_prefixes() -> None:
    created = file_diff("New.java", [], lines("class New {}"))
    deleted = file_diff("Old.java", lines("class Old {}"), [])
    renamed = (
        "diff --git a/src/A.java b/src/B.java\nsimilarity index 80%\nrename from src/A.java\n"
        "rename to src/B.java\n--- a/src/A.java\n+++ b/src/B.java\n@@ -1 +1 @@\n-class A {}\n+class B {}\n"
    )
    result = analyze_diffs(created + deleted + renamed, created + renamed)
    assert result.metrics.false_negatives == 1
    assert [(u.path, u.change, u.content) for u in result.missing] == [("Old.java", "remove", "class Old {}")]
    by_path = {f.path: f for f in result.per_file}
    assert by_path["src/B.java"].true_positives == 2  # the rename's two sides are one file
    assert set(by_path) == {"New.java", "Old.java", "src/B.java"}


def test_rename_sides_keep_their_own_prefix() -> None:
    """A removal is keyed by the old a/ path: removing the same line from another file does not match."""
    renamed = "diff --git a/A b/B\n--- a/A\n+++ b/B\n@@ -1 +1 @@\n-x\n+y\n"
    in_place = "diff --git a/B b/B\n--- a/B\n+++ b/B\n@@ -1 +1 @@\n-x\n+y\n"
    m = analyze_diffs(renamed, in_place).metrics
    assert (m.true_positives, m.false_negatives, m.false_positives) == (1, 1, 1)


def test_no_newline_at_end_of_file_marker() -> None:
    diff = "diff --git a/n b/n\n--- a/n\n+++ b/n\n@@ -1 +1 @@\n-old\n\\ No newline at end of file\n+new\n"
    result = analyze_diffs(diff, diff)
    assert result.metrics.total_expected_changes == 2
    assert result.metrics.is_perfect_match


def test_stat_and_mail_headers_before_the_diff_are_ignored() -> None:
    mail = (
        "From 1f8bd07c Mon Sep 17 00:00:00 2001\nFrom: Dev <dev@example.com>\nDate: Mon, 1 Jan 2024\n"
        "Subject: [PATCH] Upgrade to Java 21\n\n---\n build.gradle | 2 +-\n README.md    | 2 +-\n"
        " 2 files changed, 2 insertions(+), 2 deletions(-)\n\n" + PR + "-- \n2.43.0\n\n"
    )
    stat = " build.gradle | 2 +-\n README.md | 2 +-\n 2 files changed\n\n" + PR
    assert analyze_diffs(PR, mail).metrics.is_perfect_match
    assert analyze_diffs(stat, PR).metrics.is_perfect_match


def test_openrewrite_output_quirks_are_cleaned() -> None:
    wrapper = file_diff("gradle/wrapper/gradle-wrapper.properties", lines("v=8.1"), lines("v=8.5"))
    annotated = wrapper.replace(" @@\n", " @@ org.openrewrite.gradle.UpgradeGradleWrapper\n")
    gradlew = file_diff("gradlew", lines("a"), lines("b"))
    recipe = annotated + binary_section("gradle/wrapper/gradle-wrapper.jar") + gradlew + wrapper + PR
    result = analyze_diffs(wrapper + PR, recipe)
    assert result.metrics.is_perfect_match
    assert result.inputs.recipe.duplicate_sections_removed == ["gradle/wrapper/gradle-wrapper.properties"]
    assert result.inputs.recipe.excluded_files == ["gradlew"]


def test_ignore_whitespace_is_off_by_default() -> None:
    spaced = file_diff("README.md", lines("# App", "Java 17"), lines("# App", "Java   21  "))
    assert analyze_diffs(README, spaced).metrics.true_positives == 1
    result = analyze_diffs(README, spaced, ignore_whitespace=True)
    assert result.metrics.is_perfect_match
    assert result.options.ignore_whitespace is True


def test_exclude_patterns_remove_files_from_both_sides() -> None:
    build_out = file_diff("build/classes/x.txt", lines("a"), lines("b"))
    result = analyze_diffs(PR + build_out, PR, exclude=["build/"])
    assert result.metrics.is_perfect_match
    assert result.inputs.pr.excluded_files == ["build/classes/x.txt"]
    assert result.options.exclude == ["build/"]
    assert analyze_diffs(PR + build_out, PR).metrics.false_negatives == 2


def test_exclude_applies_to_plain_unified_diffs_without_git_headers() -> None:
    plain = "--- a/build/x\n+++ b/build/x\n@@ -1 +1 @@\n-a\n+b\n"
    assert analyze_diffs(plain, "", exclude=["build"]).metrics.total_expected_changes == 0


def test_per_file_breakdown_sums_to_totals_and_lists_worst_first() -> None:
    recipe = BUILD.replace("of(21)", "of(17)") + README
    result = analyze_diffs(PR, recipe)
    assert [f.path for f in result.per_file] == ["build.gradle", "README.md"]
    worst = result.per_file[0]
    assert (worst.true_positives, worst.false_positives, worst.false_negatives) == (1, 1, 1)
    assert sum(f.true_positives for f in result.per_file) == result.metrics.true_positives
    assert result.summary == (
        "3 of 4 expected changes made, 1 extra (precision 0.75, recall 0.75, F1 0.75); "
        "worst file: build.gradle (1 missing, 1 extra)."
    )


def test_unmatched_lines_are_capped_with_a_count_of_the_rest() -> None:
    many = file_diff("a.txt", [], lines(*(f"line {i}" for i in range(30))))
    result = analyze_diffs(many, "", max_unmatched=10)
    assert len(result.missing) == 10
    assert result.missing_omitted == 20
    assert [u.line_number for u in result.missing] == list(range(1, 11))
    both = analyze_diffs(many, PR, max_unmatched=10)
    assert (len(both.missing), len(both.extra)) == (6, 4)  # the short list leaves its share to the long one
    assert (both.missing_omitted, both.extra_omitted) == (24, 0)


def test_negative_cap_is_rejected() -> None:
    with pytest.raises(DiffInputError, match="max_unmatched"):
        analyze_diffs(PR, PR, max_unmatched=-1)


def test_reference_json_without_extensions_has_exactly_the_anchor_keys() -> None:
    data = analyze_diffs(PR, PR, pr_label="pr.diff", recipe_label="out/recipe.diff").to_reference_json(extended=False)
    assert data == {
        "diff_files": {"pr_diff": "pr.diff", "recipe_diff": "out/recipe.diff"},
        "metrics": analyze_diffs(PR, PR).metrics.model_dump(),
    }
    full = analyze_diffs(PR, "").to_reference_json()
    assert "missing" not in full and full["per_file"]
