"""What lint and validation return, to the CLI (``--json``) and to MCP clients alike.

The models say what happened in terms an agent can act on: every lint issue carries the YAML path it is
about, and a failed run carries a one-line diagnosis next to the log tail, so a caller never has to read
a Gradle log to learn that a module was missing or the JDK was wrong.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

Severity = Literal["error", "warning"]
Status = Literal["ok", "lint_failed", "build_failed", "environment_error", "timeout", "no_changes"]


class LintIssue(BaseModel):
    """One finding of the pre-flight lint."""

    severity: Severity
    path: str = Field(description="where in the YAML, e.g. doc[0].recipeList[2].org.openrewrite.text.FindAndReplace")
    message: str
    line: int | None = Field(default=None, description="1-based line in the YAML text, when known")
    suggestions: list[str] = Field(default_factory=list, description="closest known recipe ids or option names")


class LintReport(BaseModel):
    """The result of linting one recipe YAML; ``ok`` is False when any error was found."""

    ok: bool
    recipe_name: str | None = Field(default=None, description="the recipe that would run")
    declared_recipes: list[str] = Field(default_factory=list, description="recipes the YAML declares")
    catalog_recipes: list[str] = Field(
        default_factory=list, description="catalog recipe ids the active recipe uses directly (from the YAML)"
    )
    catalog_checked: bool = Field(description="whether recipe names and options were checked against the catalog")
    errors: list[LintIssue] = Field(default_factory=list)
    warnings: list[LintIssue] = Field(default_factory=list)

    def summary(self) -> str:
        head = "OK" if self.ok else f"{len(self.errors)} error(s)"
        return f"{head}, {len(self.warnings)} warning(s)"


class RecipeModule(BaseModel):
    """A module (artifact) that ships recipes the run needs."""

    group_id: str
    artifact_id: str
    version: str | None = None
    license: str = "unknown"
    bundled: bool = Field(description="shipped with the build plugin itself, so not declared")
    overridden: bool = Field(default=False, description="version pinned by REWRITE_ASSIST_MODULE_VERSIONS")
    recipes: list[str] = Field(default_factory=list, description="recipes of the run that live in this module")

    @property
    def coordinates(self) -> str:
        base = f"{self.group_id}:{self.artifact_id}"
        return f"{base}:{self.version}" if self.version else base


class ModuleResolution(BaseModel):
    """Which modules a recipe needs, and which referenced recipes the catalog could not place."""

    modules: list[RecipeModule] = Field(default_factory=list)
    recipes_without_module: list[str] = Field(default_factory=list)

    @property
    def declared(self) -> list[RecipeModule]:
        return [m for m in self.modules if not m.bundled]


class BuildCheck(BaseModel):
    """Whether main and test sources still compile after the recipe ran."""

    passed: bool
    command: list[str]
    exit_code: int | None
    duration_s: float
    timed_out: bool = False
    log_tail: str = ""
    diagnosis: str | None = None


class ValidationResult(BaseModel):
    """Everything one ``validate`` run established."""

    status: Status
    recipe_name: str | None
    build_tool: str | None = Field(default=None, description="the build tool that ran: gradle or maven")
    java_version: int | None = Field(default=None, description="Java version the build declares, if found")
    java_version_evidence: list[str] = Field(default_factory=list)
    jdk_home: str | None = None
    jdk_version: str | None = None
    modules: list[str] = Field(default_factory=list, description="module coordinates declared for the run")
    repository: str | None = Field(default=None, description="the repository serving OpenRewrite's modules")
    duration_s: float = 0.0
    files_changed: list[str] = Field(default_factory=list)
    diff_path: str | None = None
    diff: str | None = Field(default=None, description="the diff text, when it is small")
    diff_truncated: bool = False
    metrics: dict[str, Any] | None = Field(default=None, description="analyze_diffs metrics against the PR diff")
    stats_path: str | None = None
    build_check: BuildCheck | None = None
    log_path: str | None = None
    log_tail: str | None = None
    diagnosis: str | None = Field(default=None, description="one line naming a known failure and its fix")
    lint: LintReport | None = None
    warnings: list[str] = Field(default_factory=list)
    output_dir: str | None = None
