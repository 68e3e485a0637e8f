"""`corpus agreement` against an independent implementation of
Krippendorff's alpha: the PyPI package `krippendorff` (pinned in
requirements.txt), on the generated datasets of alpha_datasets.py.

Run by .ci/run after `cargo test`; CORPUS_BIN names the built binary.
"""

import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

import alpha_datasets as ds

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Absolute, since the runs below start in a temporary folder.
BIN = pathlib.Path(os.environ.get("CORPUS_BIN", ROOT / "target" / "debug" / "corpus")).resolve()


def fixture_root(tmp):
    """A corpus root: the fixture entries u01..u30 and the shipped taxonomy."""
    root = tmp / "root"
    shutil.copytree(ds.FIXTURE / "corpus", root / "corpus")
    shutil.copy(ROOT / "corpus" / "taxonomy.yaml", root / "corpus" / "taxonomy.yaml")
    return root


def corpus_alphas(root, folder, files, with_corpus):
    args = [str(BIN), "--root", str(root), "agreement", *files, "--format", "json"]
    if not with_corpus:
        args.append("--no-corpus")
    run = subprocess.run(args, cwd=folder, capture_output=True, text=True, check=True)
    return {f["field"]: f["alpha"] for f in json.loads(run.stdout)["fields"]}


class KrippendorffPackage(unittest.TestCase):
    def assert_same(self, ours, theirs, name):
        self.assertEqual(sorted(ours), sorted(theirs), name)
        for field, expected in theirs.items():
            with self.subTest(dataset=name, field=field):
                if expected is None:
                    self.assertIsNone(ours[field])
                else:
                    self.assertAlmostEqual(ours[field], expected, places=9)

    def test_generated_datasets_give_the_packages_alpha(self):
        with tempfile.TemporaryDirectory() as t:
            tmp = pathlib.Path(t)
            root = fixture_root(tmp)
            for name, seed, n, units, blank, copy, with_corpus in ds.SPECS + ds.EXTRA:
                raters = ds.dataset(seed, n, units, blank, copy)
                folder = tmp / name
                folder.mkdir()
                files = ds.write_csvs(raters, folder, name)
                theirs = ds.package_alphas(raters, with_corpus)
                ours = corpus_alphas(root, folder, files, with_corpus)
                self.assert_same(ours, theirs, name)

    def test_the_committed_fixture_is_what_the_package_computes(self):
        # `cargo test` pins expected.json without Python; this keeps it true.
        committed = json.loads((ds.GENERATED / "expected.json").read_text())["datasets"]
        self.assertEqual(sorted(committed), sorted(s[0] for s in ds.SPECS))
        for name, seed, n, units, blank, copy, with_corpus in ds.SPECS:
            raters = ds.dataset(seed, n, units, blank, copy)
            with tempfile.TemporaryDirectory() as t:
                files = ds.write_csvs(raters, pathlib.Path(t), name)
                for f in files:
                    self.assertEqual((pathlib.Path(t) / f).read_text(), (ds.GENERATED / f).read_text(), f)
            theirs = ds.package_alphas(raters, with_corpus)
            for field, expected in theirs.items():
                self.assertAlmostEqual(committed[name]["alpha"][field], expected, places=12)


if __name__ == "__main__":
    unittest.main()
