"""The retrieval harness end to end: real dev cases against the session catalog, and the reference
baseline (plus the CLI's JSON and summary files) on a small hand-built catalog so it stays fast."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import dev_text, shared_data_dir

from rewrite_assist.evaluation.cases import CaseFileError, RetrievalCase, load_cases
from rewrite_assist.evaluation.metrics import METRIC_NAMES
from rewrite_assist.evaluation.report import build_document, render_summary
from rewrite_assist.evaluation.retrieval import OURS, REFERENCE, evaluate, our_system

DEV_CASES = shared_data_dir() / "retrieval-dev" / "cases.jsonl"


def _dev_cases(n: int) -> list[RetrievalCase]:
    if not DEV_CASES.exists():
        pytest.skip(f"dev cases not found at {DEV_CASES}")
    cases = load_cases(DEV_CASES)
    # one case per kind first, so the by-kind breakdown has several groups
    by_kind: dict[str, RetrievalCase] = {}
    for case in cases:
        by_kind.setdefault(case.kind, case)
    picked = list(by_kind.values())
    picked += [c for c in cases if c not in picked][: max(0, n - len(picked))]
    return picked[:n]


def test_load_cases_rejects_malformed_lines(tmp_path: Path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "intent": "x", "relevant": {"r": 2}}\n\n{"id": "b", "intent": "y"}\n')
    with pytest.raises(CaseFileError, match=r"bad.jsonl:3"):
        load_cases(bad)
    with pytest.raises(CaseFileError, match="cannot read"):
        load_cases(tmp_path / "missing.jsonl")


def test_case_queries_and_halves():
    case = RetrievalCase(id="q007", intent="i", variations=["v1", "v2"], relevant={"r": 2})
    assert case.queries("multi") == ["i", "v1", "v2"]
    assert case.queries("single") == ["i"]
    assert case.half == "odd"
    assert RetrievalCase(id="q010", intent="i", relevant={"r": 1}).half == "even"


@pytest.mark.slow
def test_harness_on_dev_cases_against_the_real_catalog(catalog, embedder):
    cases = _dev_cases(5)
    runs = evaluate([our_system(catalog, embedder)], cases, mode="multi", limit=10)
    doc = build_document(
        runs, cases, test_set=str(DEV_CASES), mode="multi", limit=10, catalog={"recipes": 1}, generated_at="now"
    )
    ours = doc["systems"][OURS]
    overall = ours["overall"]
    assert set(METRIC_NAMES) <= set(overall)
    for name in METRIC_NAMES:
        assert 0.0 <= overall[name] <= 1.0, name
    # consistency: recall grows with k, a hit in the top 5 is implied by any recall there, RR ≤ Hit@... ≤ 1
    assert overall["recall@1"] <= overall["recall@3"] <= overall["recall@5"] <= overall["recall@10"]
    assert overall["hit@5"] >= overall["recall@5"] > 0
    assert overall["latency_p95_ms"] >= overall["latency_p50_ms"] > 0
    assert sum(g["cases"] for g in ours["by_kind"].values()) == len(cases)
    assert sum(g["cases"] for g in ours["by_category"].values()) == len(cases)
    for row in ours["cases"]:
        assert len(row["ranking"]) <= 10
        assert row["query_count"] >= 3  # multi mode: intent + variations
        assert row["metrics"]["hit@5"] >= row["metrics"]["recall@5"]
        if sum(row["missed_by_grade"].values()) == 0:
            assert row["metrics"]["recall@10"] == 1.0
        assert "queries" not in row and "missed" not in row  # the dev set's text and labels stay in ../shared
    assert not any(case.intent in json.dumps(doc) for case in cases)
    summary = render_summary(doc)
    assert "nDCG@10" in summary and "Worst" in summary and "Interpretation" in summary
    assert cases[0].id in summary or cases[-1].id in summary


# ------------------------------------------------------------------------------ small catalog + CLI
RECIPES = {
    "org.example.github.AddManualTrigger": (
        "Add manual workflow trigger",
        "Adds workflow_dispatch to GitHub workflows.",
    ),
    "org.example.maven.ExcludeDependency": ("Exclude Maven dependency", "Excludes a transitive dependency in pom.xml."),
    "org.example.yaml.ChangeKey": ("Change YAML key", "Renames a key of a YAML mapping."),
    "org.example.docker.AddUser": ("Add USER instruction", "Runs the Docker container as a non-root user."),
}


@pytest.fixture(scope="module")
def small_catalog(make_database, embedder):
    from rewrite_assist.ingestion.embedded_text import embedding_text, text_hash
    from rewrite_assist.server.catalog.models import Recipe
    from rewrite_assist.server.catalog.store import CatalogStore, now_iso
    from rewrite_assist.server.config import MODEL_KEY

    recipes = [Recipe(id=rid, display_name=n, description=d, tags=["t"]) for rid, (n, d) in RECIPES.items()]
    texts = [embedding_text(r, {}) for r in recipes]
    vectors = embedder.encode(texts)
    store = CatalogStore(make_database("evalsmall"))
    store.write_catalog(
        recipes=recipes,
        changed_ids={r.id for r in recipes},
        modules=[],
        embeddings={r.id: (text_hash(t), vectors[n]) for n, (r, t) in enumerate(zip(recipes, texts, strict=True))},
        model_key=MODEL_KEY,
        meta={"ingested_at": now_iso(), "source": "hand-built"},
    )
    return store


def test_reference_baseline_embeds_once_and_ranks_by_cosine(small_catalog, embedder):
    from rewrite_assist.evaluation.baseline import ensure_reference_embeddings, reference_search

    assert ensure_reference_embeddings(small_catalog, embedder) == len(RECIPES)
    assert ensure_reference_embeddings(small_catalog, embedder) == 0  # text hashes match: nothing re-embedded
    top = reference_search(small_catalog, embedder, [dev_text("q018", 1)], 2)
    assert top[0] == "org.example.maven.ExcludeDependency"
    assert len(top) <= 2
    # cosine below 0.5 is dropped per variation, so gibberish finds nothing
    assert reference_search(small_catalog, embedder, ["qwxz plorf"], 5) == []


def test_cli_writes_json_and_summary_with_baseline(small_catalog, embedder, tmp_path, monkeypatch):
    from rewrite_assist.__main__ import main
    from rewrite_assist.server import embedding

    monkeypatch.setenv("REWRITE_ASSIST_DATABASE_URL", small_catalog.db.url)
    monkeypatch.setattr(embedding, "_default", embedder)
    cases = tmp_path / "cases.jsonl"
    lines = [
        {
            "id": "s1",
            "intent": "let people start the CI workflow by hand",
            "variations": ["add workflow_dispatch"],
            "relevant": {"org.example.github.AddManualTrigger": 2},
            "category": "github-actions",
            "kind": "specific",
        },
        {
            "id": "s2",
            "intent": "container should not run as root",
            "variations": ["add USER to Dockerfile"],
            "relevant": {"org.example.docker.AddUser": 2, "org.example.yaml.ChangeKey": 1},
            "category": "docker",
            "kind": "generic",
        },
    ]
    cases.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "results" / "small.json"
    code = main(
        ["eval", "retrieval", "--test-set", str(cases), "--limit", "3", "--baseline", "reference", "--output", str(out)]
    )
    assert code == 0
    doc = json.loads(out.read_text())
    assert set(doc["systems"]) == {OURS, REFERENCE}
    assert doc["cases"] == 2 and doc["limit"] == 3 and doc["mode"] == "multi"
    for system in doc["systems"].values():
        assert [c["id"] for c in system["cases"]] == ["s1", "s2"]
        assert set(system["by_kind"]) == {"specific", "generic"}
        assert all(len(c["ranking"]) <= 3 for c in system["cases"])
    assert doc["systems"][OURS]["overall"]["hit@5"] == 1.0  # four recipes, an obvious match each
    assert set(doc["comparison"]) == set(METRIC_NAMES)
    summary = (tmp_path / "results" / "small_summary.txt").read_text()
    assert OURS in summary and REFERENCE in summary and "W/L/T" in summary


def test_cli_rejects_bad_arguments(tmp_path, capsys):
    from rewrite_assist.__main__ import main

    assert main(["eval", "retrieval", "--test-set", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read test set" in capsys.readouterr().err
    assert main(["eval", "retrieval", "--test-set", str(tmp_path / "none.jsonl"), "--limit", "0"]) == 2
