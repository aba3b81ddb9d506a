"""Recipe → module resolution, and how the modules reach the Gradle init script and the Maven command."""

from __future__ import annotations

from pathlib import Path

from fixtures.validation_support import InMemoryLookup

from rewrite_assist.server.validation import gradle, maven
from rewrite_assist.server.validation.modules import resolve_modules
from rewrite_assist.server.validation.settings import EngineSettings


def test_composites_are_expanded_recursively_with_preconditions() -> None:
    lookup = InMemoryLookup()
    res = resolve_modules(
        lookup, ["org.openrewrite.java.migrate.UpgradeToJava21", "org.openrewrite.text.FindAndReplace"]
    )
    declared = [m.coordinates for m in res.declared]
    # rewrite-docker is reached only through UpgradeBuildToJava21's recipe list; it is not bundled
    assert declared == [
        "org.openrewrite:rewrite-docker:8.90.3",
        "org.openrewrite.recipe:rewrite-github-actions:3.29.0",
        "org.openrewrite.recipe:rewrite-migrate-java:3.42.1",
    ]
    bundled = {m.artifact_id for m in res.modules if m.bundled}
    assert bundled == {"rewrite-core", "rewrite-java"}  # FindAndReplace, and HasJavaVersion (a precondition)
    migrate = next(m for m in res.modules if m.artifact_id == "rewrite-migrate-java")
    assert migrate.recipes == [
        "org.openrewrite.java.migrate.UpgradeBuildToJava21",
        "org.openrewrite.java.migrate.UpgradeToJava21",
    ]
    assert res.recipes_without_module == []


def test_unknown_recipes_and_missing_module_info_are_reported() -> None:
    from rewrite_assist.server.catalog.models import Recipe

    lookup = InMemoryLookup([Recipe(id="a.NoModule", display_name="x")])
    res = resolve_modules(lookup, ["a.NoModule", "a.Unknown"])
    assert res.modules == []
    assert sorted(res.recipes_without_module) == ["a.NoModule", "a.Unknown"]
    assert resolve_modules(None, ["x.Y"]).recipes_without_module == ["x.Y"]


def test_batch_lookup_is_used_per_level() -> None:
    from rewrite_assist.server.catalog.models import Recipe

    class Batched(InMemoryLookup):
        def __init__(self) -> None:
            super().__init__()
            self.batches: list[list[str]] = []

        def get_recipes(self, ids: list[str]) -> dict[str, Recipe]:
            self.batches.append(list(ids))
            return {i: self.recipes[i] for i in ids if i in self.recipes}

    lookup = Batched()
    resolve_modules(lookup, ["org.openrewrite.java.migrate.UpgradeToJava21"])
    assert lookup.queries == 0  # never one-by-one
    assert len(lookup.batches) == 3  # the composite, its two children, then their children


def test_init_script_declares_exactly_the_needed_modules(tmp_path: Path) -> None:
    res = resolve_modules(InMemoryLookup(), ["org.openrewrite.github.SetupJavaUpgradeJavaVersion"])
    settings = EngineSettings(gradle_plugin_version="7.39.0", recipe_bom_version="3.37.0")
    script = gradle.init_script("com.example.It's", tmp_path / "rewrite.yml", res.declared, settings)
    assert "classpath('org.openrewrite:plugin:7.39.0')" in script
    assert "plugins.apply(org.openrewrite.gradle.RewritePlugin)" in script
    assert "rewrite(platform('org.openrewrite.recipe:rewrite-recipe-bom:3.37.0'))" in script
    assert script.count("        rewrite('") == 1
    assert "rewrite('org.openrewrite.recipe:rewrite-github-actions:3.29.0')" in script
    assert "activeRecipe('com.example.It\\'s')" in script  # quoted safely
    assert f"setConfigFile(new File('{tmp_path / 'rewrite.yml'}'))" in script
    assert "exclusion('gradlew', 'gradlew.bat', '**/gradlew', '**/gradlew.bat', '**/gradle-wrapper.jar')" in script


def test_init_script_without_bom_or_versions(tmp_path: Path) -> None:
    from rewrite_assist.server.validation.models import RecipeModule

    module = RecipeModule(group_id="org.openrewrite.recipe", artifact_id="rewrite-x", bundled=False)
    script = gradle.init_script("a.B", tmp_path / "r.yml", [module], EngineSettings(recipe_bom_version=None))
    assert "platform(" not in script
    assert "rewrite('org.openrewrite.recipe:rewrite-x:latest.release')" in script


def test_maven_arguments(tmp_path: Path) -> None:
    res = resolve_modules(InMemoryLookup(), ["org.openrewrite.java.migrate.UpgradeToJava21"])
    args = maven.rewrite_args("com.example.R", tmp_path / "rewrite.yml", res.declared, EngineSettings())
    assert args[:3] == ["-B", "-Dstyle.color=never", "org.openrewrite.maven:rewrite-maven-plugin:6.46.1:run"]
    assert "-Drewrite.activeRecipes=com.example.R" in args
    assert f"-Drewrite.configLocation={tmp_path / 'rewrite.yml'}" in args
    coords = next(a for a in args if a.startswith("-Drewrite.recipeArtifactCoordinates="))
    assert coords.split("=", 1)[1].split(",") == [
        "org.openrewrite:rewrite-docker:8.90.3",
        "org.openrewrite.recipe:rewrite-github-actions:3.29.0",
        "org.openrewrite.recipe:rewrite-migrate-java:3.42.1",
    ]
    only_core = maven.rewrite_args("a.B", tmp_path / "r.yml", [], EngineSettings())
    assert not any(a.startswith("-Drewrite.recipeArtifactCoordinates") for a in only_core)


def test_settings_from_environment() -> None:
    s = EngineSettings.from_env(
        {"REWRITE_ASSIST_GRADLE_PLUGIN_VERSION": "7.1.0", "REWRITE_ASSIST_RECIPE_BOM_VERSION": ""}
    )
    assert s.gradle_plugin_version == "7.1.0"
    assert s.maven_plugin_version == "6.46.1"
    assert s.recipe_bom_version is None
    assert EngineSettings.from_env({}).recipe_bom_version == "3.37.0"
