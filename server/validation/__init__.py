"""Empirical validation: lint a recipe YAML, run it with real OpenRewrite on a copy of a repository, measure it.

Public API (import from the modules; this package imports nothing heavy on its own):

- ``lint.lint_recipe(text, lookup, recipe_name=None) -> models.LintReport``
- ``runner.validate_recipe(ValidationRequest, lookup, *, options=RunOptions(), progress=None, cancel=None)
  -> models.ValidationResult``; raises ``runner.ValidationFailed`` (``bad_input``) for environment problems
  and ``process.Cancelled`` when ``cancel`` is set.
- ``modules.resolve_modules(lookup, recipe_ids) -> models.ModuleResolution``
- ``inputs.load_recipe_arg(arg, check_path=None) -> (label, yaml_text)`` for "path or inline YAML" arguments.
- Plugin and BOM versions: ``settings.EngineSettings`` (``REWRITE_ASSIST_*_VERSION`` variables).
"""
