"""Empirical validation: lint a recipe YAML, run it with real OpenRewrite on a copy of a repository, measure it.

Public API (import from the modules; this package imports nothing heavy on its own):

- ``lint.lint_recipe(text, lookup, recipe_name=None) -> models.LintReport``
- ``runner.validate_recipe(ValidationRequest, lookup, *, options=RunOptions(), progress=None, cancel=None)
  -> models.ValidationResult``; raises ``runner.ValidationFailed`` for arguments the caller must fix and
  ``process.Cancelled`` when ``cancel`` is set; a machine that lacks something is status ``environment_error``.
- Build tools: ``buildtool.BuildTool`` (one per tool: ``gradle.GradleTool``, ``maven.MavenTool``), listed in
  ``registry.BUILD_TOOLS``; ``registry.detect_build(project)``.
- Where artifacts come from: ``repository.RepositorySettings`` (``REWRITE_ASSIST_MAVEN_*``, settings.xml,
  gradle.properties); ``preflight.run_preflight``; ``doctor.run_checks``.
- ``modules.resolve_modules(lookup, recipe_ids) -> models.ModuleResolution``
- ``inputs.load_recipe_arg(arg, check_path=None) -> (label, yaml_text)`` for "path or inline YAML" arguments.
- Plugin, BOM and module versions, preflight, offline: ``settings.EngineSettings`` (``REWRITE_ASSIST_*`` variables).
"""
