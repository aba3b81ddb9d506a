"""Examples that match a PR on what they were told to edit, not on what their recipe does.

A recipe with options shows its example configured: ``java.NoStaticImport``'s example is told the method
pattern ``java.util.Collections emptyList()`` and so changes ``java.util.Collections`` imports. A PR hunk that
removes an unused ``import java.util.Collections`` shares the example's rarest changed tokens, yet the recipe
would make that hunk's change only if configured for it, and then it would inline a static import, which the hunk
does not do. Where every word the segment and the matched example share (their side-tagged changed tokens) is a
word of the example's option values, and they share no edit shape (``features.change_shapes``: a line of the same
kind removed, a version bumped), the match is the configuration's: the recipe's evidence in that segment is
weighed by ``CONFIGURED``. A shared shape is the same edit: a generic recipe (``gradle.RemoveRepository`` told
``jcenter``) matching a hunk that makes it on the thing its example was told is the right one. The anchors read
the same words out of a recipe's own (``anchors.recipe_anchors``: option values anchor no recipe).
"""

from __future__ import annotations

from collections.abc import Mapping

from ...diffs.features import Change
from .anchors import option_words
from .catalog import ExampleSnapshot, side_tokens
from .pick import DEPTH
from .scoring import Match, best_first

# Measured on the development sets (fresh sets 1-7 and the tune half of the pr-cases).
CONFIGURED = 0.5  # a recipe whose example shares only its option values' words with the segment: its score times this


def configured_only(change: Change, example: int, snap: ExampleSnapshot) -> bool:
    """Whether the words the segment shares with this example are all the example's option values' words."""
    ex = snap.examples[example]
    if not ex.parameters:
        return False
    both = side_tokens(change) & side_tokens(ex.change)
    if any(t.startswith("§") for t in both):
        return False  # the same edit (a line removed, a version bumped): a generic recipe told what to edit
    shared = {t[1:] for t in both}
    return bool(shared) and shared <= option_words(ex.parameters)


def weights(change: Change, scores: Mapping[str, Match], snap: ExampleSnapshot) -> dict[str, float]:
    """``CONFIGURED`` for each of the segment's best recipes (as deep as the pick reads) whose matched example is
    its own and shares only its option values' words with the segment (an inherited match is the composite's
    step's, configured by it)."""
    if CONFIGURED >= 1.0:
        return {}
    out: dict[str, float] = {}
    for rid, match in best_first(scores, DEPTH):  # the pick reads no deeper (``pick.DEPTH``)
        if match.example is None or snap.example_recipes[match.example] != rid:
            continue
        if configured_only(change, match.example, snap):
            out[rid] = CONFIGURED
    return out
