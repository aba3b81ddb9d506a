"""Boosted decision trees, as the rerank applies them: read from JSON, evaluated with numpy.

The rerank's features are weak alone and matter together, and some only in company: the recipe prior says more of
a recipe the pick placed low than of one it placed first, a generic edit's place counts differently in a large PR.
A sum of small trees learns such joint effects where one weight per feature cannot. The trees are grown by
``evaluation/diff_rerank_train.py`` (gradient boosting on the log-loss); this module only walks them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Tree:
    """One tree as parallel arrays over its nodes (node 0 is the root). An inner node sends a row left when its
    ``feature`` column is at most ``threshold``; a leaf has ``left`` -1 and adds its ``value``."""

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray

    def predict(self, rows: np.ndarray) -> np.ndarray:
        """Each row's leaf value."""
        node = np.zeros(len(rows), dtype=np.int64)
        at = np.arange(len(rows))
        while True:
            inner = self.left[node] >= 0
            if not inner.any():
                return np.asarray(self.value[node], dtype=np.float64)
            column = np.where(inner, self.feature[node], 0)
            goes_left = rows[at, column] <= self.threshold[node]
            node = np.where(inner, np.where(goes_left, self.left[node], self.right[node]), node)


@dataclass(frozen=True)
class Forest:
    """A boosted model: the log-odds are ``base`` plus every tree's leaf value, over the columns ``features``."""

    features: tuple[str, ...]
    base: float
    trees: tuple[Tree, ...]

    def logits(self, rows: np.ndarray) -> np.ndarray:
        out = np.full(len(rows), self.base, dtype=np.float64)
        for tree in self.trees:
            out += tree.predict(rows)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "base": round(self.base, 6),
            "trees": [
                {
                    "feature": [int(f) for f in t.feature],
                    "threshold": [round(float(x), 6) for x in t.threshold],
                    "left": [int(n) for n in t.left],
                    "right": [int(n) for n in t.right],
                    "value": [round(float(v), 6) for v in t.value],
                }
                for t in self.trees
            ],
        }


def from_dict(doc: Mapping[str, Any]) -> Forest:
    """A forest written by ``Forest.to_dict``; a tree whose arrays disagree in length, or that names a column the
    forest lacks, is refused (a hand edit or a truncated file)."""
    features = tuple(str(f) for f in doc["features"])
    trees = []
    for raw in doc["trees"]:
        tree = Tree(
            np.array(raw["feature"], dtype=np.int64),
            np.array(raw["threshold"], dtype=np.float64),
            np.array(raw["left"], dtype=np.int64),
            np.array(raw["right"], dtype=np.int64),
            np.array(raw["value"], dtype=np.float64),
        )
        if not _well_formed(tree, len(features)):
            raise ValueError("a tree of the rerank model is malformed; refit it with diff_rerank_train")
        trees.append(tree)
    return Forest(features, float(doc["base"]), tuple(trees))


def _well_formed(tree: Tree, columns: int) -> bool:
    """Arrays of one length, inner nodes reading a column the forest has, children after their parent (so a walk
    always ends at a leaf)."""
    n = len(tree.feature)
    if {len(tree.threshold), len(tree.left), len(tree.right), len(tree.value)} != {n} or n == 0:
        return False
    inner = np.flatnonzero(tree.left >= 0)
    if not len(inner):
        return True
    children = np.concatenate([tree.left[inner], tree.right[inner]])
    parents = np.concatenate([inner, inner])
    return bool(
        (tree.feature[inner] >= 0).all()
        and (tree.feature[inner] < columns).all()
        and (children > parents).all()
        and (children < n).all()
    )


def dumps(forests: dict[str, Forest]) -> str:
    """Named forests as JSON, one tree per line."""
    parts = []
    for name, forest in forests.items():
        doc = forest.to_dict()
        trees = ",\n".join("    " + json.dumps(t, separators=(",", ":")) for t in doc["trees"])
        head = json.dumps({"features": doc["features"], "base": doc["base"]})[:-1]
        parts.append(f'  {json.dumps(name)}: {head}, "trees": [\n{trees}\n  ]}}')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def loads(text: str) -> dict[str, Forest]:
    return {name: from_dict(doc) for name, doc in json.loads(text).items()}
