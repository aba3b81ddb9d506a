"""One-line diagnoses of known build failures, read from the run log.

An agent cannot act on 300 lines of Gradle output; it can act on "the build needs a different JDK" or
"module X could not be resolved". Rules are tried in order; the first that matches names the cause, and
says whether it is the environment's (JDK, network, credentials, a missing artifact: ``environment_error``)
or the project's or recipe's (``build_failed``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    pattern: re.Pattern[str]
    explain: Callable[[re.Match[str]], str]
    environment: bool = True
    kind: str = ""


@dataclass(frozen=True)
class Diagnosis:
    message: str
    environment: bool  # the machine or its access to repositories is at fault, not the project or recipe
    kind: str = ""  # "auth" for refused credentials (the caller adds how to set them)


def _class_version(m: re.Match[str]) -> str:
    major = int(m.group(1))
    java = major - 44
    return (
        f"wrong JDK: 'Unsupported class file major version {major}' means something was compiled for "
        f"Java {java} "
        "but the build tool (or a plugin) running it is too old for that JDK. Run the build on the JDK the "
        "project declares (pass java_home), or upgrade the Gradle wrapper / Maven."
    )


def _too_old(m: re.Match[str]) -> str:
    return (
        f"wrong JDK: the build targets Java {m.group(1)} but ran on an older JDK. "
        f"Pass java_home pointing to JDK {m.group(1)} or newer."
    )


def _recipe_not_found(m: re.Match[str]) -> str:
    names = m.group(1).strip().rstrip(".")
    return (
        f"recipe not found: {names}. The name is wrong or its module was not on the classpath; "
        "check the id with get_recipe and run lint_recipe."
    )


def _module(m: re.Match[str]) -> str:
    return (
        f"missing module: {m.group(1)} could not be resolved. Check the version exists and the repository "
        "serving it is reachable (recipe modules under the Moderne license may need their repository)."
    )


_NO_NETWORK = (
    "no network: dependencies or the build tool could not be downloaded. Run once with network access "
    "to fill the Gradle/Maven caches, or configure a reachable mirror."
)

_AUTH = (
    "credentials refused: a repository answered 401/403 (unauthorized). OpenRewrite's modules need "
    "credentials for the Code Genome Project or a mirror you can read."
)

RULES: tuple[Rule, ...] = (
    Rule(
        re.compile(
            r"(status code 40[13]|\b40[13] (?:Unauthorized|Forbidden)|Received status code 40[13]|"
            r"status: 40[13]|Not authorized|authentication failed)",
            re.I,
        ),
        lambda m: _AUTH,
        kind="auth",
    ),
    Rule(re.compile(r"Unsupported class file major version (\d+)"), _class_version),
    Rule(
        re.compile(r"(?:invalid (?:source|target) release:?|release version) (\d+)"),
        _too_old,
    ),
    Rule(
        re.compile(r"has been compiled by a more recent version of the Java Runtime \(class file version (\d+)"),
        lambda m: (
            f"wrong JDK: a plugin needs Java {int(m.group(1)) - 44} or newer to run. "
            "Pass java_home pointing to a newer JDK."
        ),
    ),
    Rule(
        re.compile(r"Recipe(?:\(s\)|s)? not found(?: in project)?:?\s*([^\n]+)", re.I),
        _recipe_not_found,
        environment=False,
    ),
    Rule(
        re.compile(r"Could not find (?:any )?recipe(?:s)? (?:named )?([\w.$]+)", re.I),
        _recipe_not_found,
        environment=False,
    ),
    Rule(
        re.compile(
            r"(UnknownHostException|Unknown host|Network is unreachable|Temporary failure in name resolution|"
            r"No route to host|Connection timed out|Could not GET '|Could not HEAD '|"
            r"No cached version of .* available for offline mode|Failed to connect to|Connection refused|"
            r"in offline mode and the artifact .* has not been downloaded|Cannot access [\w-]+ \([^)]*\) in offline)"
        ),
        lambda m: _NO_NETWORK,
    ),
    Rule(re.compile(r"Could not (?:find|resolve) ((?:org\.openrewrite[\w.]*):[\w.-]+(?::[\w.-]+)?)"), _module),
    Rule(re.compile(r"Plugin \[id: '([^']+)'[^\]]*\] was not found"), _module),
    Rule(re.compile(r"Failure to find ([\w.-]+:[\w.-]+:\w+:[\w.-]+)"), _module),
    Rule(re.compile(r"Plugin ([\w.-]+:[\w.-]+:[\w.-]+) or one of its dependencies could not be resolved"), _module),
    Rule(
        re.compile(
            r"Could not resolve (?:all (?:files|dependencies|artifacts) for configuration"
            r"|dependencies for project) ?([^\n]*)"
        ),
        lambda m: (
            f"missing module: dependencies could not be resolved {m.group(1).strip()}".rstrip()
            + ". Check the module coordinates and that the repositories are reachable."
        ),
    ),
    Rule(
        re.compile(r"(Compilation failed|COMPILATION ERROR|error: cannot find symbol)"),
        lambda m: "compile error: the project does not compile (see the log tail); the recipe never ran or broke it.",
        environment=False,
    ),
    Rule(
        re.compile(r"OutOfMemoryError"),
        lambda m: "out of memory: raise the heap (org.gradle.jvmargs in GRADLE_OPTS, or MAVEN_OPTS=-Xmx...).",
        environment=False,
    ),
)


def diagnose_failure(log_text: str) -> Diagnosis | None:
    """The first known failure the log shows, as one actionable line with its kind, or None."""
    for rule in RULES:
        m = rule.pattern.search(log_text)
        if m:
            return Diagnosis(rule.explain(m), rule.environment, rule.kind)
    return None


def diagnose(log_text: str) -> str | None:
    """The first known failure the log shows, as one actionable line, or None."""
    found = diagnose_failure(log_text)
    return found.message if found else None
