"""What the diff search says about each hit: its evidence (the PR file and hunk, or the PR-level description,
that matched it; the example on the recipe page and the changed tokens both share; the phrase that found
it) and the option values read off the PR where an example's parameter lines up with a changed value.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from ...catalog.examples import StoredExample
from ...catalog.models import Recipe
from ...catalog.store import CatalogStore
from ...diffs.features import Change, corresponding_value
from ..models import SearchHit, catalog_fields
from .build_edits import BUILD_EDIT_IDS, BuildEdit, declared_only, edit_options
from .catalog import ExampleSnapshot, side_tokens
from .generic import GENERIC_IDS, generic_options
from .scoring import Match, top_score
from .split import Segment


class Evidence(BaseModel):
    file: str = Field(description="the PR file the match is in")
    hunk: int = Field(description="1-based hunk number within that file (0: the whole file, merged)")
    lines: str | None = Field(
        default=None, description="the matched change's own line numbers in the PR diff (a hunk can hold several)"
    )
    score: float
    example: int | None = Field(description="number of the matched example on the recipe page (None: description)")
    example_file: str | None = None
    example_recipe: str | None = Field(
        default=None, description="whose example matched, when it is a recipe this composite runs"
    )
    matched_tokens: list[str] = Field(default_factory=list, description="changed tokens both sides share")
    described_as: str | None = Field(
        default=None, description="the hunk put in words, when searching those words found this recipe"
    )
    summed_up: int | None = Field(
        default=None, description="a PR-level description found it: how many hunks it sums up (file: those files)"
    )
    generic: bool = Field(
        default=False,
        description="offered as the generic edit for this file kind: it makes the change when told what to edit",
    )
    intent: bool = Field(
        default=False,
        description="found by the PR's description passed as `intent`, not by the diff (score: that search's)",
    )


class DiffSearchHit(SearchHit):
    matched_variations: int = Field(
        description="how many of the diff's searched changes found this recipe (a PR-level match counts the "
        "changes it sums up)"
    )
    evidence: list[Evidence] = Field(default_factory=list, description="best matches, strongest first")
    suggested_options: dict[str, str] = Field(
        default_factory=dict,
        description="option values read off one change of the PR (the strongest evidence that yields any) where "
        "an example's parameter lines up",
    )


def shared_tokens(seg: Change, ex: Change, idf: dict[str, float]) -> list[str]:
    """The rarest changed tokens a PR hunk and an example share (for the evidence)."""
    same = side_tokens(seg) & side_tokens(ex)
    ranked = sorted((t for t in same if not t.startswith("§")), key=lambda t: (-idf.get(t, 1.0), t))
    return list(dict.fromkeys(t[1:] for t in ranked))[:6]  # a token removed and added back counts once


def build_hits(
    store: CatalogStore,
    ranked: Sequence[tuple[str, float]],
    units: Sequence[dict[str, Match]],
    segments: Sequence[Segment],
    covers: Sequence[Sequence[int]],
    wide_files: Sequence[str],
    snap: ExampleSnapshot,
    fallbacks: Sequence[Sequence[str]] = (),
    edits: Sequence[Sequence[BuildEdit]] = (),
) -> list[DiffSearchHit]:
    """The picked recipes as hits, each with its three strongest matches as evidence. ``units`` are the
    segments' scores followed by the PR-level descriptions' (``wide_files`` names the files each sums up),
    ``covers`` the segments each unit stands for. A generic edit recipe that no segment's evidence found
    (``fallbacks``: per unit, the generic recipes for its edit) cites the segments it was offered for; a build
    edit recipe suggests the options of the segments' build edits (``edits``: per segment)."""
    recipes = store.get_recipes([rid for rid, _ in ranked])
    hits = []
    for rid, total in ranked:
        recipe = recipes.get(rid)
        if recipe is None:
            continue
        matches = sorted(
            ((n, units[n][rid]) for n in range(len(units)) if rid in units[n]),
            key=lambda nm: -nm[1].score,
        )
        if not matches:
            offered = [n for n in range(len(fallbacks)) if rid in fallbacks[n] and n < len(segments)]
            if not offered:
                continue
            hits.append(
                DiffSearchHit(
                    **catalog_fields(recipe),
                    cosine_score=0.0,
                    fusion_score=round(total, 6),
                    matched_variations=len(offered),
                    evidence=[
                        Evidence(
                            file=segments[n].file,
                            hunk=segments[n].hunk,
                            lines=segments[n].header,
                            score=0.0,
                            example=None,
                            generic=True,
                        )
                        for n in offered[:3]
                    ],
                    # the options for the change the specific evidence explains least
                    suggested_options=_build_suggestion(recipe, segments, edits)
                    or _generic_suggestion(
                        rid, [segments[n] for n in sorted(offered, key=lambda n: top_score(units[n]))]
                    ),
                )
            )
            continue
        evidence = []
        suggested: dict[str, str] = {}
        for n, match in matches[:3]:
            if n >= len(segments):  # a PR-level description found it
                evidence.append(
                    Evidence(
                        file=wide_files[n - len(segments)],
                        hunk=0,
                        score=round(match.score, 4),
                        example=None,
                        described_as=match.phrase,
                        summed_up=len(covers[n]),
                    )
                )
                continue
            seg = segments[n]
            ex = snap.examples[match.example] if match.example is not None else None
            evidence.append(
                Evidence(
                    file=seg.file,
                    hunk=seg.hunk,
                    lines=seg.header,
                    score=round(match.score, 4),
                    example=ex.example if ex else None,
                    example_file=ex.file if ex else None,
                    example_recipe=ex.recipe_id if ex and ex.recipe_id != rid else None,
                    matched_tokens=shared_tokens(seg.change, ex.change, snap.idf) if ex else [],
                    described_as=match.phrase,
                )
            )
            # A listed recipe's parameters are not the composite's; and the values come from one change only
            # (a version read off one hunk beside a coordinate read off another would configure neither).
            if ex is not None and ex.recipe_id == rid and not suggested:
                suggested = suggest_options(ex, seg.change)
        if rid in BUILD_EDIT_IDS:  # read off the build file's structure: better than an example's alignment
            suggested = _build_suggestion(recipe, segments, edits) or suggested
        if rid in GENERIC_IDS and not suggested:
            suggested = _generic_suggestion(rid, [segments[n] for n, _ in matches if n < len(segments)])
        hits.append(
            DiffSearchHit(
                **catalog_fields(recipe),
                cosine_score=round(max(m.cosine for _, m in matches), 4),
                fusion_score=round(total, 6),
                # the changes matched; a PR-level match counts the changes it sums up
                matched_variations=len({s for n, _ in matches for s in covers[n]}),
                evidence=evidence,
                suggested_options=suggested,
            )
        )
    return hits


def _build_suggestion(
    recipe: Recipe, segments: Sequence[Segment], edits: Sequence[Sequence[BuildEdit]]
) -> dict[str, str]:
    """A build edit recipe's options for the first segment with an edit it makes, cut to the options the
    catalog lists for it."""
    for seg, seg_edits in zip(segments, edits, strict=False):
        options = edit_options(recipe.id, seg.change.kind, seg_edits)
        if options:
            return declared_only(options, [o.name for o in recipe.options])
    return {}


def _generic_suggestion(recipe_id: str, segments: Sequence[Segment]) -> dict[str, str]:
    """A generic edit recipe's options for the first of its segments whose edit is one entry or one line."""
    for seg in segments:
        options = generic_options(recipe_id, seg.file, seg.change, seg.lines_above)
        if options:
            return options
    return {}


def suggest_options(ex: StoredExample, change: Change) -> dict[str, str]:
    """Option values for the recipe, read off the PR hunk where an example parameter lines up with it."""
    out: dict[str, str] = {}
    for name, value in ex.parameters.items():
        if len(value) < 2 or value in {"true", "false"}:
            continue
        found = corresponding_value(value, ex.change.added, change.added)
        if found is None:
            found = corresponding_value(value, ex.change.removed, change.removed)
        if found is not None:
            out[name] = found
    return out
