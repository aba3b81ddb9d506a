"""Java version detection from build files, JDK discovery and selection, build tool detection."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fixtures.validation_support import PR_CASES, make_fake_jdk, unpack_case, write_files

from rewrite_assist.server.validation.buildtool import BuildToolError
from rewrite_assist.server.validation.javaversion import (
    gradle_java_requirement,
    maven_java_requirement,
    normalize_version,
)
from rewrite_assist.server.validation.jdk import (
    JdkNotFound,
    discover_jdks,
    inspect_java_home,
    jdk_version,
    select_jdk,
)
from rewrite_assist.server.validation.registry import detect_build


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1.8", 8), ("1_8", 8), ("8", 8), ("17.0.2", 17), ("'21'", 21), ("abc", None), ("3", None)],
)
def test_normalize_version(text: str, expected: int | None) -> None:
    assert normalize_version(text) == expected


@pytest.mark.parametrize(
    ("name", "snippet", "expected"),
    [
        ("build.gradle", "sourceCompatibility = '11'\ntargetCompatibility = '11'\n", 11),
        ("build.gradle", "sourceCompatibility = 1.8\n", 8),
        ("build.gradle", "java {\n  sourceCompatibility = JavaVersion.VERSION_17\n}\n", 17),
        ("build.gradle", "sourceCompatibility JavaVersion.VERSION_1_8\n", 8),
        ("build.gradle", "java { toolchain { languageVersion = JavaLanguageVersion.of(21) } }\n", 21),
        ("build.gradle", "tasks.withType(JavaCompile) { options.release = 17 }\n", 17),
        ("build.gradle.kts", "java { toolchain { languageVersion.set(JavaLanguageVersion.of(17)) } }\n", 17),
        ("build.gradle.kts", 'java.sourceCompatibility = JavaVersion.toVersion("11")\n', 11),
        ("build.gradle.kts", "tasks.withType<JavaCompile> { options.release.set(21) }\n", 21),
        ("build.gradle.kts", "kotlin { jvmToolchain(17) }\n", 17),
        ("build.gradle", "// sourceCompatibility = '21'\n/* languageVersion = JavaLanguageVersion.of(25) */\n", None),
    ],
)
def test_gradle_declarations(tmp_path: Path, name: str, snippet: str, expected: int | None) -> None:
    write_files(tmp_path, {name: "plugins { id 'java' }\n" + snippet})
    req = gradle_java_requirement(tmp_path)
    assert req.version == expected
    if expected is not None:
        assert req.evidence and req.evidence[0].startswith(f"{name}:")


def test_gradle_takes_the_highest_across_subprojects_with_line_numbers(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "settings.gradle": "include 'app'\n",
            "build.gradle": "/* a\nmulti-line\ncomment */\nsourceCompatibility = '11'\n",
            "app/build.gradle.kts": "java { toolchain { languageVersion = JavaLanguageVersion.of(17) } }\n",
            "build/generated.gradle": "sourceCompatibility = '25'\n",  # build output: ignored
        },
    )
    req = gradle_java_requirement(tmp_path)
    assert req.version == 17
    assert "build.gradle:4: sourceCompatibility 11" in req.evidence
    assert any(e.startswith("app/build.gradle.kts:1: toolchain") for e in req.evidence)


def test_maven_properties_and_compiler_plugin(tmp_path: Path) -> None:
    pom = """<project xmlns="http://maven.apache.org/POM/4.0.0"><properties>
      <jdk>11</jdk><maven.compiler.source>${jdk}</maven.compiler.source></properties>
      <build><plugins><plugin><artifactId>maven-compiler-plugin</artifactId>
      <configuration><release>17</release></configuration></plugin></plugins></build></project>"""
    write_files(
        tmp_path,
        {
            "pom.xml": pom,
            "module/pom.xml": "<project><properties><java.version>1.8</java.version></properties></project>",
        },
    )
    req = maven_java_requirement(tmp_path)
    assert req.version == 17
    assert "pom.xml: <maven.compiler.source>${jdk}</maven.compiler.source>" in req.evidence
    assert "module/pom.xml: <java.version>1.8</java.version>" in req.evidence
    write_files(tmp_path / "broken", {"pom.xml": "<project><unclosed>"})
    assert maven_java_requirement(tmp_path / "broken").version is None


def _case_versions() -> list[tuple[str, int]]:
    """Every PR case with the Java version its case.json records for the base (before the PR)."""
    cases: list[tuple[str, int]] = []
    for case_json in sorted(PR_CASES.glob("*/case.json")):
        declared = json.loads(case_json.read_text())["java_version"]
        declared = declared["before"] if isinstance(declared, dict) else declared
        version = normalize_version(str(declared)) if declared else None
        if version is not None:
            cases.append((case_json.parent.name, version))
    return cases


CASES = _case_versions()


@pytest.mark.skipif(not CASES, reason=f"shared data missing at {PR_CASES}")
@pytest.mark.parametrize(("case", "expected"), CASES, ids=[c for c, _ in CASES])
def test_real_case_trees(tmp_path: Path, case: str, expected: int) -> None:
    root = unpack_case(case, tmp_path / case)
    setup = detect_build(root, path_env="/usr/bin:/bin")
    req = setup.tool.java_requirement(root)
    assert req.version == expected, req.evidence


def test_detect_build_prefers_wrappers_and_explains_absence(tmp_path: Path) -> None:
    write_files(tmp_path / "g", {"build.gradle.kts": "", "gradlew": "#!/bin/sh\n"})
    setup = detect_build(tmp_path / "g", path_env="")
    assert (setup.name, setup.wrapper, setup.build_files) == ("gradle", "gradlew", ("build.gradle.kts",))
    # not executable: run through sh rather than chmod (a mode change would show in the diff)
    assert setup.command(tmp_path / "g") == ["sh", str(tmp_path / "g" / "gradlew")]

    write_files(tmp_path / "m", {"pom.xml": "<project/>"})
    bindir = tmp_path / "bin"
    write_files(bindir, {"mvn": "#!/bin/sh\n"})
    (bindir / "mvn").chmod(0o755)
    setup = detect_build(tmp_path / "m", path_env=str(bindir))
    assert setup.name == "maven" and setup.command(tmp_path / "m") == [str(bindir / "mvn")]
    with pytest.raises(BuildToolError, match=r"no \./mvnw and there is no 'mvn' on PATH"):
        detect_build(tmp_path / "m", path_env="")

    write_files(tmp_path / "g2", {"settings.gradle": ""})
    with pytest.raises(BuildToolError, match=r"no \./gradlew"):
        detect_build(tmp_path / "g2", path_env="")
    (tmp_path / "empty").mkdir()
    with pytest.raises(BuildToolError, match="No build file"):
        detect_build(tmp_path / "empty", path_env="")


def test_jdk_version_from_release_file_and_from_java_binary(tmp_path: Path) -> None:
    assert jdk_version(make_fake_jdk(tmp_path, 17)) == (17, "17.0.2")
    assert jdk_version(make_fake_jdk(tmp_path, 8, release_file=False)) == (8, "1.8.0_392")
    (tmp_path / "notajdk").mkdir()
    assert jdk_version(tmp_path / "notajdk") is None


def test_discovery_reads_variables_dirs_and_java_home_once(tmp_path: Path) -> None:
    jvm = tmp_path / "jvm"
    jdk11 = make_fake_jdk(jvm, 11)
    jdk17 = make_fake_jdk(jvm, 17)
    jdk21 = make_fake_jdk(tmp_path / "elsewhere", 21)
    (jvm / "default").symlink_to(jdk17)  # same JDK twice: listed once
    env = {"JAVA_HOME_21_X64": str(jdk21), "JAVA_HOME": str(jdk11), "JAVA_HOME_99_X64": str(tmp_path / "gone")}
    found = discover_jdks([jvm, tmp_path / "missing"], env)
    assert [(j.major, j.source) for j in found] == [(21, "$JAVA_HOME_21_X64"), (17, str(jvm)), (11, str(jvm))]
    assert select_jdk(17, found, env).home == jdk17
    assert select_jdk(None, found, env).home == jdk11  # no requirement: JAVA_HOME
    assert select_jdk(None, found, {}).major == 17  # no requirement, no JAVA_HOME: the preferred LTS


def test_no_matching_jdk_names_version_and_candidates(tmp_path: Path) -> None:
    found = discover_jdks([tmp_path], {"JAVA_HOME_11_X64": str(make_fake_jdk(tmp_path / "x", 11))})
    with pytest.raises(JdkNotFound) as info:
        select_jdk(21, found, {})
    message = str(info.value)
    assert "needs Java 21" in message and "found: 11 (11.0.2)" in message and "JAVA_HOME_21_X64" in message
    with pytest.raises(JdkNotFound, match="No JDK found"):
        select_jdk(None, [], {})
    with pytest.raises(JdkNotFound, match="is not a JDK"):
        inspect_java_home(tmp_path / "x")


def test_this_machine_has_a_jdk() -> None:
    if not Path("/usr/lib/jvm").is_dir():
        pytest.skip("no /usr/lib/jvm on this machine")
    found = discover_jdks(env=dict(os.environ))
    assert found, "JDKs exist in /usr/lib/jvm but none was discovered"
    assert all(j.major >= 8 and (j.home / "bin" / "java").exists() for j in found)
