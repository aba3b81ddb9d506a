"""The hunk → words bridge: a short description of what a PR hunk does, in the catalog's own vocabulary.

Diff search compares hunks with the examples on recipe pages, but many recipes have no example (or one
that looks nothing like a real project's file), while their names and descriptions say exactly what they
do: "Add property", "Upgrade Gradle plugin version", "Change package", "Delete files". Written as words,
the hunk reaches them through the hybrid ``find_recipes`` search.

The description is a grammar over the hunk's structured features, never a list of recipes: the file kind
(Gradle build, Maven pom, properties file, YAML, GitHub Actions workflow, Dockerfile, Java, text), the
edit's shape per line (a key added, removed, or its value changed; only a version changed; a dependency
coordinate or plugin id changed; a package moved; an annotation removed; a file deleted or created) and
the changed values themselves (keys, coordinates, package names, versions).

``describe_pr`` does the same for the PR as a whole: the same package family moved in several files
(imports, Gradle coordinates, Maven ``groupId``) reads as "migrate javax to jakarta", the same Java level in
several build, CI and container files as "migrate to Java 17". A change in one file yields nothing.

One module per kind of file (``keys``: properties and YAML, ``docker``, ``build``: Gradle and Maven, ``java``),
``hunk`` picks the writer for a hunk, ``pr`` reads the whole PR, ``common`` holds what they share.
"""

from .common import KEY_VALUE, MAX_PHRASE_CHARS, MAX_PHRASES, XML_TAG, file_noun, new_versions, strip_quotes, versions
from .docker import dockerfile_instructions, from_image, image_parts
from .hunk import describe, names_something
from .java import import_changes, split_type_changes
from .keys import yaml_parents
from .pr import Wide, describe_pr, package_moves

__all__ = [
    "KEY_VALUE",
    "MAX_PHRASES",
    "MAX_PHRASE_CHARS",
    "XML_TAG",
    "Wide",
    "describe",
    "describe_pr",
    "dockerfile_instructions",
    "file_noun",
    "from_image",
    "image_parts",
    "import_changes",
    "names_something",
    "new_versions",
    "package_moves",
    "split_type_changes",
    "strip_quotes",
    "versions",
    "yaml_parents",
]
