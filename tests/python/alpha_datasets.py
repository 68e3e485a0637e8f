"""Generated annotation datasets for Krippendorff's alpha, computed by the
PyPI package `krippendorff` as an implementation independent of `corpus`.

test_agreement.py runs `corpus agreement` on these datasets and compares;
`python tests/python/alpha_datasets.py` rewrites the committed fixture
tests/fixtures/agreement-raters/generated/ (the CSV files and the package's
alphas in expected.json), which `cargo test` pins without Python.

Every dataset rates entries u01..u30 of tests/fixtures/agreement-raters:
`scenario` (nominal) and `subdecisions` (sets of tags, MASI distance), with
ratings left blank at random. Raters copy a unit's "true" value or pick
another one, so alpha lands anywhere between chance and agreement.
"""

import importlib.metadata
import json
import pathlib
import random

import krippendorff
import numpy as np
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "agreement-raters"
GENERATED = FIXTURE / "generated"
KEYS = [f"u{i:02d}" for i in range(1, 31)]
SCENARIO = ["coding", "web", "research", "math", "tool_use", "debate", "general"]
SUBDECISIONS = ["o1_spawn", "o2_delegate", "o3_communicate", "o4_aggregate", "o5_stop"]

# (name, seed, raters, units, chance of a blank, chance of copying the true value, with the corpus)
SPECS = [
    ("three-raters", 1, 3, 20, 0.1, 0.8, False),
    ("five-raters-sparse", 2, 5, 30, 0.4, 0.7, False),
    ("two-raters", 3, 2, 25, 0.0, 0.6, False),
    ("with-corpus", 4, 3, 30, 0.2, 0.75, True),
]
# More datasets for the live check only (not committed).
EXTRA = [(f"random-{s}", 100 + s, 2 + s % 5, 10 + 2 * s, 0.05 * (s % 6), 0.5 + 0.05 * (s % 8), s % 3 == 0) for s in range(8)]


def random_set(rng):
    return frozenset(t for t in SUBDECISIONS if rng.random() < 0.3)


def dataset(seed, raters, units, blank, copy):
    """A list of raters, each {key: (scenario or None, subdecisions set or None)}."""
    rng = random.Random(seed)
    keys = sorted(rng.sample(KEYS, units))
    truth = {k: (rng.choice(SCENARIO), random_set(rng)) for k in keys}
    out = []
    for _ in range(raters):
        rated = {}
        for k in keys:
            if rng.random() < blank and rng.random() < 0.5:
                continue  # the whole row left out
            s = truth[k][0] if rng.random() < copy else rng.choice(SCENARIO)
            d = truth[k][1] if rng.random() < copy else random_set(rng)
            rated[k] = (None if rng.random() < blank else s, None if rng.random() < blank else d)
        out.append(rated)
    return out


def cell(value):
    if value is None:
        return ""
    if isinstance(value, frozenset):
        return ";".join(sorted(value)) if value else "[]"
    return value


def write_csvs(raters, folder, name):
    """One CSV per rater; returns the file names."""
    names = []
    for i, rated in enumerate(raters):
        file = f"{name}-{chr(ord('a') + i)}.csv"
        lines = ["key,ann_scenario,ann_subdecisions"]
        lines += [f"{k},{cell(s)},{cell(d)}" for k, (s, d) in sorted(rated.items())]
        (folder / file).write_text("\n".join(lines) + "\n")
        names.append(file)
    return names


def corpus_ratings():
    """The fixture corpus's own scenario and subdecisions, as one more rater."""
    out = {}
    for k in KEYS:
        e = yaml.safe_load((FIXTURE / "corpus" / "papers" / f"{k}.yaml").read_text())
        subs = e.get("subdecisions")
        out[k] = (e["scenario"], None if subs is None else frozenset(subs))
    return out


def masi(a, b):
    if a == b:
        return 0.0
    inter, union = len(a & b), len(a | b)
    m = 2 / 3 if (a <= b or b <= a) else (1 / 3 if inter else 0.0)
    return 1.0 - inter / union * m


def package_alphas(raters, with_corpus):
    """Alpha per field from the `krippendorff` package (None when it refuses)."""
    if with_corpus:
        keys = sorted({k for r in raters for k in r})
        corpus = corpus_ratings()
        raters = [{k: corpus[k] for k in keys}] + raters
    units = sorted({k for r in raters for k in r})
    alphas = {}
    for f, field in enumerate(["scenario", "subdecisions"]):
        values = sorted({r[k][f] for r in raters for k in r if r[k][f] is not None}, key=cell)
        index = {v: i for i, v in enumerate(values)}
        data = [[index[r[k][f]] if k in r and r[k][f] is not None else np.nan for k in units] for r in raters]
        if field == "scenario":
            level = "nominal"
        else:
            table = np.array([[masi(a, b) for b in values] for a in values])

            def level(v1, v2, i1, i2, n_v, dtype=np.float64, table=table):
                return table[i1, i2].astype(dtype)

        try:
            alphas[field] = float(krippendorff.alpha(reliability_data=data, value_domain=list(range(len(values))), level_of_measurement=level))
        except ValueError:
            alphas[field] = None
    return alphas


def write_fixture():
    GENERATED.mkdir(exist_ok=True)
    for old in GENERATED.glob("*.csv"):
        old.unlink()
    expected = {}
    for name, seed, n, units, blank, copy, with_corpus in SPECS:
        raters = dataset(seed, n, units, blank, copy)
        files = write_csvs(raters, GENERATED, name)
        expected[name] = {
            "files": files,
            "with_corpus": with_corpus,
            "alpha": package_alphas(raters, with_corpus),
        }
    note = f"krippendorff {importlib.metadata.version('krippendorff')} (PyPI)"
    (GENERATED / "expected.json").write_text(json.dumps({"computed_by": note, "datasets": expected}, indent=2) + "\n")


if __name__ == "__main__":
    write_fixture()
