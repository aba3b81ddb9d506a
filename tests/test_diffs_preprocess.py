"""Each preprocessing step on its own: decoding, binary sections, duplicates, hunk headers, exclusions."""

from __future__ import annotations

import pytest
from fixtures.diffs_support import binary_section, file_diff, lines

from rewrite_assist.server.diffs.globs import PathFilter
from rewrite_assist.server.diffs.models import DiffInputError
from rewrite_assist.server.diffs.preprocess import (
    EXCLUDED_FILES,
    clean_hunk_headers,
    normalise_text,
    preprocess,
)

JAVA = file_diff("src/A.java", lines("class A {", "}"), lines("class A {", "  int x;", "}"))


def test_normalise_replaces_bad_bytes_and_line_endings() -> None:
    assert normalise_text(b"+caf\xe9\r\n+b\rc") == "+caf\ufffd\n+b\nc\n"
    assert normalise_text("") == ""
    assert normalise_text("x\n") == "x\n"


def test_binary_section_removed_from_header_through_binary_line() -> None:
    pre = preprocess(binary_section("gradle/wrapper/gradle-wrapper.jar") + JAVA)
    assert pre.binary == ["gradle/wrapper/gradle-wrapper.jar"]
    assert [s.key for s in pre.sections] == ["src/A.java"]
    assert "Binary files" not in "".join(s.text(pre.text) for s in pre.sections)


def test_binary_line_is_found_after_mode_and_index_lines() -> None:
    section = (
        "diff --git a/x.jar b/x.jar\nnew file mode 100644\nindex 0000000..cb76119\n"
        "--- /dev/null\n+++ b/x.jar\nBinary files /dev/null and b/x.jar differ\n"
    )
    assert preprocess(JAVA + section).binary == ["x.jar"]


def test_lines_after_binary_line_join_the_previous_section() -> None:
    """The reference removed only header..Binary line; what followed was re-split with the section before."""
    orphan = "trailing junk\n"
    pre = preprocess(JAVA + binary_section("x.jar") + orphan)
    assert [s.key for s in pre.sections] == ["src/A.java"]
    assert pre.sections[0].text(pre.text).endswith(orphan)


def test_binary_search_stops_at_a_line_starting_diff_git() -> None:
    text = "diff --git a/x b/x\ndiff --gitk\nBinary files a/x and b/x differ\n"
    assert preprocess(text).binary == []


def test_only_the_first_section_per_file_is_kept() -> None:
    second = file_diff("src/A.java", lines("class A {", "}"), lines("class A {", "  int y;", "}"))
    pre = preprocess(JAVA + second)
    assert pre.duplicates == ["src/A.java"]
    assert "int x" in pre.sections[0].text(pre.text)
    assert "int y" not in "".join(s.text(pre.text) for s in pre.sections)


def test_binary_section_does_not_count_as_seen_for_deduplication() -> None:
    text = binary_section("w.jar") + "diff --git a/w.jar b/w.jar\n--- a/w.jar\n+++ b/w.jar\n@@ -1 +1 @@\n-a\n+b\n"
    pre = preprocess(text)
    assert pre.duplicates == []
    assert [s.key for s in pre.sections] == ["w.jar"]


def test_text_after_closing_hunk_marker_is_removed() -> None:
    text = "@@ -1,7 +1,8 @@ org.openrewrite.gradle.UpgradeGradleWrapper\n-a\n@@ -3 +3 @@\n"
    assert clean_hunk_headers(text) == "@@ -1,7 +1,8 @@\n-a\n@@ -3 +3 @@\n"


def test_hunk_marker_inside_content_is_left_alone() -> None:
    assert clean_hunk_headers("+@@ -1 +1 @@ keep\n") == "+@@ -1 +1 @@ keep\n"


@pytest.mark.parametrize("name", sorted(EXCLUDED_FILES))
def test_reference_exclusions_apply_to_root_files_only(name: str) -> None:
    root = file_diff(name, lines("a"), lines("b"))
    nested = file_diff(f"sub/{name}", lines("a"), lines("b"))
    pre = preprocess(root + nested)
    assert pre.excluded == [name]
    assert [s.key for s in pre.sections] == [f"sub/{name}"]


def test_duplicates_are_dropped_before_exclusion_counts() -> None:
    gradlew = file_diff("gradlew", lines("a"), lines("b"))
    pre = preprocess(gradlew + gradlew)
    assert pre.duplicates == ["gradlew"]
    assert pre.excluded == ["gradlew"]
    assert pre.sections == []


def test_text_before_the_first_header_is_kept_as_its_own_section() -> None:
    pre = preprocess("Subject: [PATCH] x\n\n" + JAVA)
    assert [s.key for s in pre.sections] == [None, "src/A.java"]


def test_extra_exclude_patterns_drop_matching_sections() -> None:
    build = file_diff("build/tmp/x.txt", lines("a"), lines("b"))
    pre = preprocess(build + JAVA, PathFilter(["build"]))
    assert pre.excluded == ["build/tmp/x.txt"]
    assert [s.key for s in pre.sections] == ["src/A.java"]


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("build", "build/libs/app.jar", True),
        ("build", "app/build/x", True),
        ("build", "src/builder/X.java", False),
        ("*.jar", "gradle/wrapper/gradle-wrapper.jar", True),
        ("*.jar", "src/Jar.java", False),
        (".gradle/", ".gradle/8.5/checksums/x.bin", True),
        ("src/*.java", "src/A.java", True),
        ("src/*.java", "src/main/A.java", False),
        ("src/**/*.java", "src/main/A.java", True),
        ("src/**/*.java", "src/A.java", True),
        ("/docs", "docs/x.md", True),
        ("docs/", "src/docs/x.md", True),
        ("src/gen", "src/gen/a/B.java", True),
        ("src/gen", "lib/src/gen/B.java", False),
        ("[ab].txt", "a.txt", True),
    ],
)
def test_exclude_patterns_follow_gitignore_rules(pattern: str, path: str, expected: bool) -> None:
    assert PathFilter([pattern]).matches(path) is expected


def test_exclude_pattern_that_names_nothing_is_rejected() -> None:
    with pytest.raises(DiffInputError, match="every file"):
        PathFilter(["/"])
    assert not PathFilter(["  "])
