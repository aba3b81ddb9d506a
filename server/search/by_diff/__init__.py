"""Search by the change itself: ``find_recipes_for_diff`` ranks recipes for a PR diff (the MCP tool and
``rewrite-assist search-diff`` call the same function,
``by_diff.search.find_recipes_for_diff``; this package imports nothing on its own, so the CLI stays light).

Where each part lives: ``search`` is the entry point (``find_recipes_for_diff``) and the order of the
steps; ``split`` cuts the diff into segments, ``server.diffs.words`` puts segments and the whole PR into
words, ``catalog`` holds the catalog side (examples, recipe texts, composites, demotion facts) built
once per catalog revision, ``scoring`` scores each segment against it and fuses the evidence,
``phrases`` searches the words within the phrase budget, ``pick`` makes the whole-diff pick and
``evidence`` turns the picked recipes into hits with their evidence and suggested options.
The grammar that puts a change into words lives with the diff readers (``server.diffs.words``), because
the one-phrase rewrite of ``find_recipes`` uses it too.
"""
