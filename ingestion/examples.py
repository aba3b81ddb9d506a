"""Before/after examples from the ``## Example`` / ``## Examples`` section.

Each file of an example is shown as a tab (labelled with the language or the file name) holding a
``###### Before`` and a ``###### After`` code block, followed by a "Diff" tab with a ``diff`` block.
Files the recipe leaves alone appear as ``###### Unchanged`` and files it creates as ``###### New file``,
each with a single block. The code block's ``title="..."`` names the file when the page knows it.
Blocks in the pseudo-languages ``mavenProject`` and ``project`` only name the test project that wraps
the files (``mavenProject("project", ...)`` in the recipe's test), so they are not examples.
A page with several examples numbers them with ``##### Example N`` headings; a ``###### Parameters`` table
before an example's files holds the option values it ran with.
"""

from __future__ import annotations

from ..server.catalog.models import RecipeExample
from . import mdx

_PROJECT_MARKERS = frozenset({"mavenProject", "project"})


def parse_examples(tokens: list[mdx.Token]) -> list[RecipeExample]:
    """One :class:`RecipeExample` per shown file, in page order."""
    examples: list[RecipeExample] = []
    current: RecipeExample | None = None
    tab_label: str | None = None
    role: str | None = None
    number = 1
    parameters: dict[str, str] = {}

    def new(**fields: str | None) -> RecipeExample:
        return RecipeExample(example=number, parameters=dict(parameters), **fields)

    for token in tokens:
        if isinstance(token, str):
            found = mdx.heading(token)
            if found is not None and found[0] == 5 and found[1].strip().lower().startswith("example"):
                digits = found[1].strip()[len("example") :].strip()
                number = int(digits) if digits.isdigit() else number + 1
                parameters = {}
                current = None
            elif found is not None and found[0] == 6:
                role = found[1].strip().lower()
                if role == "parameters":
                    parameters = {}
            elif role == "parameters" and token.lstrip().startswith("|"):
                _parameter_row(token, parameters)
            elif token.lstrip().startswith("<TabItem"):
                tab_label = _attribute(token, "label")
            elif token.lstrip().startswith("</TabItem"):
                tab_label = None
            continue
        if token.language in _PROJECT_MARKERS:
            role = None
            continue
        if role is None and token.language == "diff":
            if current is not None and current.diff is None:
                current.diff = token.body
            continue
        if role == "before":
            current = new(file=_file_name(token, tab_label), language=token.language)
            current.before = token.body
            examples.append(current)
        elif role == "after":
            if current is None or current.after is not None:
                current = new(file=_file_name(token, tab_label), language=token.language)
                examples.append(current)
            current.after = token.body
        elif role == "unchanged":
            file = _file_name(token, tab_label)
            examples.append(new(file=file, language=token.language, before=token.body, after=token.body))
        elif role == "new file":
            file = _file_name(token, tab_label)
            examples.append(new(file=file, language=token.language, after=token.body))
        role = None
    return examples


def _parameter_row(row: str, into: dict[str, str]) -> None:
    """``|version|`7.4.2`|`` → ``version: 7.4.2``; the header, the rule and ``null`` values are skipped."""
    cells = mdx.table_cells(row)
    if len(cells) < 2 or cells[0] in {"Parameter", ""} or set(cells[0]) <= set("-: "):
        return
    value = cells[1]
    if len(value) >= 2 and value.startswith("`") and value.endswith("`"):
        value = value[1:-1]
    if value != "null":
        into[cells[0]] = value


def _file_name(fence: mdx.Fence, tab_label: str | None) -> str | None:
    """The block's title, else a tab label that is not just the language (``pom.xml``, ``Jenkinsfile``)."""
    if fence.title:
        return fence.title
    if tab_label and tab_label.lower() not in {fence.language or "", "diff"}:
        return tab_label
    return None


def _attribute(line: str, name: str) -> str | None:
    start = line.find(f'{name}="')
    if start < 0:
        return None
    start += len(name) + 2
    end = line.find('"', start)
    return line[start:end] if end >= 0 else None
