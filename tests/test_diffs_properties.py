"""Property-based tests: the metric identities hold for any pair of diffs, and the offset-based
preprocessing gives the same scores as an independent text-level oracle written from the issue's rules."""

from __future__ import annotations

import re
from collections import Counter

from fixtures.diffs_support import binary_section, file_diff
from hypothesis import given, settings
from hypothesis import strategies as st
from unidiff import PatchSet

from rewrite_assist.server.diffs import DiffError, analyze_diffs
from rewrite_assist.server.diffs.metrics import scores

# Few distinct lines, some differing only in whitespace, so keys collide and multiset counting matters.
LINE = st.sampled_from(["a\n", "b\n", "c\n", "int x = 1;\n", "int  x = 1;\n", "  int x = 1;\n", "\n"])
PATH = st.sampled_from(["A.java", "src/B.java", "build.gradle", "sub/gradlew", "gradlew", "rewrite.gradle"])


@st.composite
def file_section(draw: st.DrawFn) -> str:
    old, new = draw(st.lists(LINE, max_size=6)), draw(st.lists(LINE, max_size=6))
    text = file_diff(draw(PATH), old, new, context=draw(st.integers(0, 3)))
    if draw(st.booleans()):  # OpenRewrite appends the recipe name to hunk headers
        text = re.sub(r"(?m)^(@@ .* @@)$", r"\1 org.openrewrite.Recipe", text)
    return text


SECTION = st.one_of(
    file_section(),
    st.builds(binary_section, st.sampled_from(["gradle/wrapper/gradle-wrapper.jar", "A.java"])),
    st.builds(lambda p: binary_section(p) + "left over after the binary line\n", st.just("x.jar")),
)
PREAMBLE = st.sampled_from(["", "Subject: [PATCH] change\n\n---\n A.java | 2 +-\n\n"])


@st.composite
def diff_text(draw: st.DrawFn) -> str:
    sections = "".join(draw(st.lists(SECTION, max_size=6)))
    return draw(PREAMBLE) + sections if sections else ""  # a mail header alone is not a diff


def oracle_metrics(pr_text: str, recipe_text: str) -> tuple[int, int, int]:
    """(TP, FP, FN) by the issue's rules, as whole-text regex passes and one unidiff parse per diff."""

    def header_path(chunk: str) -> str | None:
        found = re.match(r"diff --git a/(.*?) b/", chunk)
        return found.group(1) if found else None

    def chunks(text: str) -> list[str]:
        return [c for c in re.split(r"(?m)^(?=diff --git )", text) if c.strip()]

    def changes(text: str) -> Counter[tuple[str, str, str]]:
        text = re.sub(r"diff --git [^\n]*\n(?:(?!diff --git).*\n)*?Binary files[^\n]*\n?", "", text)
        seen: set[str] = set()
        kept = []
        for chunk in chunks(text):
            path = header_path(chunk)
            if path is None or path not in seen:
                kept.append(chunk)
            if path is not None:
                seen.add(path)
        text = re.sub(r"(?m)^(@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@).*$", r"\1", "".join(kept))
        text = "".join(c for c in chunks(text) if header_path(c) not in {"gradlew", "gradlew.bat", "rewrite.gradle"})
        found: Counter[tuple[str, str, str]] = Counter()
        for patched in PatchSet(text):
            for line in (line for hunk in patched for line in hunk):
                if line.is_added:
                    found[(patched.target_file, "add", line.value)] += 1
                elif line.is_removed:
                    found[(patched.source_file, "remove", line.value)] += 1
        return found

    expected, resulting = changes(pr_text), changes(recipe_text)
    tp = sum((expected & resulting).values())
    return tp, sum(resulting.values()) - tp, sum(expected.values()) - tp


@settings(max_examples=300, deadline=None)
@given(diff_text(), diff_text())
def test_scores_equal_the_text_level_oracle(pr: str, recipe: str) -> None:
    m = analyze_diffs(pr, recipe).metrics
    tp, fp, fn = oracle_metrics(pr, recipe)
    assert (m.true_positives, m.false_positives, m.false_negatives) == (tp, fp, fn)
    assert (m.precision, m.recall, m.f1_score) == scores(tp, fp, fn)


@settings(max_examples=150, deadline=None)
@given(diff_text(), diff_text())
def test_totals_equal_each_diffs_own_count(pr: str, recipe: str) -> None:
    m = analyze_diffs(pr, recipe).metrics
    expected = analyze_diffs(pr, "").metrics.false_negatives
    resulting = analyze_diffs("", recipe).metrics.false_positives
    assert m.true_positives + m.false_negatives == expected == m.total_expected_changes
    assert m.true_positives + m.false_positives == resulting == m.total_resulting_changes


@settings(max_examples=150, deadline=None)
@given(diff_text())
def test_a_diff_against_itself_is_perfect(diff: str) -> None:
    m = analyze_diffs(diff, diff).metrics
    assert m.is_perfect_match
    assert m.false_positives == m.false_negatives == 0
    assert m.f1_score == (1.0 if m.true_positives else 0.0)


@settings(max_examples=150, deadline=None)
@given(diff_text(), diff_text())
def test_swapping_inputs_swaps_fp_and_fn(pr: str, recipe: str) -> None:
    forward, backward = analyze_diffs(pr, recipe).metrics, analyze_diffs(recipe, pr).metrics
    assert forward.true_positives == backward.true_positives
    assert (forward.false_positives, forward.false_negatives) == (backward.false_negatives, backward.false_positives)
    assert (forward.precision, forward.recall, forward.f1_score) == (
        backward.recall,
        backward.precision,
        backward.f1_score,
    )


@settings(max_examples=150, deadline=None)
@given(diff_text(), diff_text(), st.integers(0, 8))
def test_breakdown_and_unmatched_lines_add_up(pr: str, recipe: str, cap: int) -> None:
    result = analyze_diffs(pr, recipe, max_unmatched=cap)
    m = result.metrics
    per_file = [(f.true_positives, f.false_positives, f.false_negatives) for f in result.per_file]
    assert [sum(col) for col in zip(*per_file, strict=True)] == (
        [m.true_positives, m.false_positives, m.false_negatives] if per_file else []
    )
    assert len(result.missing) + result.missing_omitted == m.false_negatives
    assert len(result.extra) + result.extra_omitted == m.false_positives
    assert len(result.missing) + len(result.extra) == min(cap, m.false_negatives + m.false_positives)


@settings(max_examples=150, deadline=None)
@given(diff_text(), diff_text())
def test_ignoring_whitespace_never_loses_a_match(pr: str, recipe: str) -> None:
    strict = analyze_diffs(pr, recipe).metrics
    loose = analyze_diffs(pr, recipe, ignore_whitespace=True).metrics
    assert loose.true_positives >= strict.true_positives
    assert loose.total_expected_changes == strict.total_expected_changes


@st.composite
def damaged_diff(draw: st.DrawFn) -> str | bytes:
    """A valid diff cut short, with lines dropped or duplicated, or with arbitrary bytes spliced in."""
    text = draw(diff_text())
    rows = text.split("\n")
    for _ in range(draw(st.integers(0, 3))):
        if not rows:
            break
        at = draw(st.integers(0, len(rows) - 1))
        action = draw(st.sampled_from(["drop", "repeat", "garble"]))
        if action == "drop":
            del rows[at]
        elif action == "repeat":
            rows.insert(at, rows[at])
        else:
            rows[at] = draw(st.text(alphabet=" +-@\\abdfgit,0123456789/\r\x00\x0c\u2028é", max_size=20))
    damaged = "\n".join(rows)[: draw(st.integers(0, len(text) + 1))]
    return damaged.encode("utf-8") + draw(st.binary(max_size=4)) if draw(st.booleans()) else damaged


@settings(max_examples=400, deadline=None)
@given(damaged_diff())
def test_damaged_input_gives_a_result_or_a_diff_error(diff: str | bytes) -> None:
    try:
        result = analyze_diffs(diff, diff)
    except DiffError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert result.metrics.is_perfect_match
