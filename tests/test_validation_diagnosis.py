"""Known build failures become one actionable line."""

from __future__ import annotations

import pytest

from rewrite_assist.server.validation.diagnosis import diagnose


@pytest.mark.parametrize(
    ("log", "starts", "mentions"),
    [
        (
            "FAILURE: Build failed with an exception.\n* What went wrong:\nUnsupported class file major version 69\n",
            "wrong JDK",
            "Java 25",
        ),
        ("error: invalid target release: 21\n", "wrong JDK", "JDK 21"),
        (
            "java.lang.UnsupportedClassVersionError: org/openrewrite/Foo has been compiled by a more recent version "
            "of the Java Runtime (class file version 61.0)",
            "wrong JDK",
            "Java 17",
        ),
        (
            "org.openrewrite.config.RecipeException: Recipe(s) not found: com.example.Nope\nDid you mean: ...",
            "recipe not found",
            "com.example.Nope",
        ),
        (
            "> Could not resolve org.openrewrite.recipe:rewrite-github-actions:3.29.0.\n"
            "  > Could not get resource 'https://repo.maven.apache.org/...'\n"
            "    > Could not GET 'https://repo.maven.apache.org/...'.\n"
            "      > java.net.UnknownHostException: repo.maven.apache.org",
            "no network",
            "mirror",
        ),
        (
            "> Could not find org.openrewrite.recipe:rewrite-nope:1.0.0.\n  Searched in the following locations:",
            "missing module",
            "org.openrewrite.recipe:rewrite-nope:1.0.0",
        ),
        (
            "[ERROR] Failed to execute goal ... Failure to find org.openrewrite.recipe:rewrite-x:jar:9.9 in https://...",
            "missing module",
            "rewrite-x",
        ),
        (
            "[ERROR] Plugin org.openrewrite.maven:rewrite-maven-plugin:6.46.1 or one of its dependencies could not "
            "be resolved: ... transfer failed for https://repo.maven.apache.org/...: Unknown host "
            "repo.maven.apache.org: Name or service not known -> [Help 1]",
            "no network",
            "Gradle/Maven caches",
        ),
        (
            "[ERROR] Plugin org.openrewrite.maven:rewrite-maven-plugin:9.9.9 or one of its dependencies could not "
            "be resolved: The following artifacts could not be resolved",
            "missing module",
            "org.openrewrite.maven:rewrite-maven-plugin:9.9.9",
        ),
        ("> Task :compileJava FAILED\nerror: cannot find symbol\n", "compile error", "does not compile"),
        ("java.lang.OutOfMemoryError: Java heap space", "out of memory", "MAVEN_OPTS"),
    ],
)
def test_known_failures(log: str, starts: str, mentions: str) -> None:
    line = diagnose(log)
    assert line is not None
    assert line.startswith(starts)
    assert mentions in line
    assert "\n" not in line


def test_unknown_failure_has_no_diagnosis() -> None:
    assert diagnose("BUILD FAILED in 3s\nsomething odd happened") is None
