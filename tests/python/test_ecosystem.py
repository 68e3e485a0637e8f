"""The corpus as the Python ecosystem reads it.

Run by .ci/run after `cargo test`, with the pinned packages of
tests/python/requirements.txt, as `python -m unittest discover tests/python`.
CORPUS_BIN names the built `corpus` binary (default target/debug/corpus).

- PyYAML (YAML 1.1) reads every entry and record to the values the tool
  reads, and entries pass corpus/entry.schema.json;
- yamllint, under the committed .yamllint.yaml, finds nothing;
- the Python snippet of docs/tooling.md runs as printed and keeps `NA` as text;
- pybtex's plain, alpha and unsrt styles print the protected title words
  with their capitals;
- so does BibTeX itself with the plain, alpha and ieeetr .bst files (from
  Debian's texlive-base, which .ci/run installs);
- BibTeX with plain and ieeetr resolves every key the survey's artifact
  cites (tests/fixtures/survey/papers-bib.tsv) with no warning, and prints
  no "et al." after a sole author.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import unittest

import jsonschema
import yaml
from pybtex.database import parse_string
from pybtex.plugin import find_plugin
from yamllint import linter
from yamllint.config import YamlLintConfig

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("CORPUS_BIN", ROOT / "target" / "debug" / "corpus"))


def corpus(*args):
    """Runs the corpus binary at the repository root and returns stdout."""
    run = subprocess.run(
        [str(BIN), "--root", str(ROOT), *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout


def data_files(folder):
    return sorted((ROOT / folder).glob("*.yaml"))


class YamlReaders(unittest.TestCase):
    def test_pyyaml_reads_what_the_tool_reads(self):
        exported = json.loads(corpus("export", "--format", "json"))
        by_key = {e["key"]: e for e in exported["entries"]}
        schema = json.loads((ROOT / "corpus" / "entry.schema.json").read_text())
        validator = jsonschema.Draft202012Validator(schema)
        files = data_files("corpus/papers")
        self.assertEqual(len(files), len(by_key))
        for path in files:
            entry = yaml.safe_load(path.read_text(encoding="utf-8"))
            errors = [e.message for e in validator.iter_errors(entry)]
            self.assertEqual(errors, [], path.name)
            tool = by_key[entry["key"]]
            for field in ("is_rl", "verified", "reward_type", "title", "first_author", "arxiv_id"):
                if field in entry:
                    self.assertEqual(entry[field], tool[field], f"{path.name}: {field}")

    def test_pyyaml_reads_every_record_value_as_text(self):
        files = data_files("exclusions")
        self.assertGreater(len(files), 0)
        for path in files:
            record = yaml.safe_load(path.read_text(encoding="utf-8"))
            for field, value in record.items():
                self.assertIsInstance(value, str, f"{path.name}: {field} = {value!r}")
            self.assertRegex(record["date_screened"], r"^\d{4}-\d{2}-\d{2}$")

    def test_yamllint_finds_nothing_under_the_committed_config(self):
        config = YamlLintConfig(file=str(ROOT / ".yamllint.yaml"))
        paths = data_files("corpus/papers") + data_files("exclusions")
        paths += [ROOT / "corpus" / "taxonomy.yaml", ROOT / "corpus" / "claims.yaml"]
        paths += sorted((ROOT / ".github" / "workflows").glob("*.yml"))
        paths += [ROOT / ".pre-commit-hooks.yaml", ROOT / ".yamllint.yaml"]
        problems = []
        for path in paths:
            for p in linter.run(path.read_text(encoding="utf-8"), config, str(path)):
                problems.append(f"{path.relative_to(ROOT)}:{p.line}: {p.message} ({p.rule})")
        self.assertEqual(problems, [])


class Pandas(unittest.TestCase):
    def test_the_documented_snippet_runs_and_keeps_na_as_text(self):
        doc = (ROOT / "docs" / "tooling.md").read_text(encoding="utf-8")
        section = doc.split("## From Python", 1)[1]
        snippet = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        stats = json.loads((ROOT / "stats" / "stats.json").read_text())
        with tempfile.TemporaryDirectory() as tmp:
            # The export commands the snippet's comments name, run as printed.
            for cmd in re.findall(r"# cargo run --release -- (export .*)", snippet):
                args = cmd.split()
                args[args.index("--out") + 1] = str(pathlib.Path(tmp) / args[args.index("--out") + 1])
                corpus(*args)
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                scope = {}
                exec(compile(snippet, "docs/tooling.md", "exec"), scope)
            finally:
                os.chdir(cwd)
        papers, entries, records = scope["papers"], scope["entries"], scope["records"]
        self.assertEqual(len(papers), stats["retained"])
        self.assertEqual(len(entries), stats["retained"])
        self.assertEqual(len(records), stats["excluded"])
        self.assertFalse(papers.isna().any().any(), "no cell became a missing value")
        for field in ("reward_type", "credit_granularity", "orchestration_form"):
            na = int((papers[field] == "NA").sum())
            self.assertEqual(na, stats["counts"][field].get("NA", 0), field)
            self.assertGreater(na, 0, f"{field}: the check would hold vacuously")
        ids = {k: v for k, v in zip(papers["key"], papers["arxiv_id"]) if v}
        yaml_ids = {
            e["key"]: e["arxiv_id"]
            for e in (yaml.safe_load(p.read_text(encoding="utf-8")) for p in data_files("corpus/papers"))
            if "arxiv_id" in e
        }
        self.assertEqual(ids, yaml_ids, "arXiv ids keep their trailing zeros")


class BibTeX(unittest.TestCase):
    CASES = {
        # cite key: words that must print with their capitals (rules of
        # the export, and the taxonomy's protected words)
        "anthropic-c-compiler2026": ["a C compiler", "Claudes"],
        "kimi-k2-5-2026": ["Kimi K2.5"],
        "kimi-k2-6-2026": ["Kimi K2.6"],
        "claude-code-subagents-2025": ["(Claude Code"],
        "dec-pomdp2002": ["of Markov"],
        "agent-lightning2025": ["Agent Lightning"],
        "mas-zero2025": ["MAS-Zero"],
    }

    def test_styles_keep_the_capitals_of_protected_words(self):
        bib = parse_string(corpus("export", "--format", "bibtex"), "bibtex")
        for key in self.CASES:
            self.assertIn(key, bib.entries)
        for style_name in ("plain", "alpha", "unsrt"):
            style = find_plugin("pybtex.style.formatting", style_name)()
            rendered = {
                e.key: e.text.render_as("text")
                for e in style.format_entries(bib.entries.values())
            }
            for key, words in self.CASES.items():
                for w in words:
                    self.assertIn(w, rendered[key], f"{style_name}: {key}")
                self.assertNotIn("{", rendered[key], f"{style_name}: {key}")
            # Names are UTF-8 in the data and come out as written.
            self.assertIn("Grégoire", rendered["gaia2023"])

    def test_bibtex_bst_styles_keep_the_capitals_of_protected_words(self):
        # The real program and the styles LaTeX users pick: these lower-case
        # every title word that is not protected by braces.
        bibtex = shutil.which("bibtex")
        self.assertIsNotNone(bibtex, "bibtex is not installed (Debian: texlive-base)")
        export = corpus("export", "--format", "bibtex")
        for style_name in ("plain", "alpha", "ieeetr"):
            with tempfile.TemporaryDirectory() as tmp:
                tmp = pathlib.Path(tmp)
                (tmp / "corpus.bib").write_text(export, encoding="utf-8")
                (tmp / "doc.aux").write_text(
                    "\\citation{*}\n\\bibdata{corpus}\n\\bibstyle{%s}\n" % style_name,
                    encoding="utf-8",
                )
                run = subprocess.run(
                    [bibtex, "doc"], cwd=tmp, capture_output=True, text=True
                )
                log = run.stdout + (tmp / "doc.blg").read_text(errors="replace")
                self.assertEqual(run.returncode, 0, f"{style_name}: {log}")
                self.assertNotIn("Warning--", log, f"{style_name}: {log}")
                bbl = (tmp / "doc.bbl").read_text(encoding="utf-8")
            items = {}
            for chunk in bbl.split("\\bibitem")[1:]:
                # `\bibitem[label]{key}`; alpha's labels may hold braces.
                key = re.match(r"\s*(?:\[[^\]]*\])?\{([^{}]+)\}", chunk).group(1)
                # The item as a reader sees it: no grouping braces, one space.
                items[key] = " ".join(chunk.replace("{", "").replace("}", "").split())
            for key, words in self.CASES.items():
                for w in words:
                    self.assertIn(w, items[key], f"{style_name}: {key}")
            # UTF-8 names pass through; ieeetr prints initials ("G. Mialon").
            name = "G.~Mialon" if style_name == "ieeetr" else "Grégoire Mialon"
            self.assertIn(name, items["gaia2023"], style_name)


    def test_bibtex_resolves_every_key_the_survey_cites_without_warning(self):
        # The survey's \cite commands use the keys of its artifact's
        # papers.bib (tests/fixtures/survey/papers-bib.tsv): a document
        # citing each of them must compile with the export and no warning.
        bibtex = shutil.which("bibtex")
        self.assertIsNotNone(bibtex, "bibtex is not installed (Debian: texlive-base)")
        rows = [
            line.split("\t")
            for line in (ROOT / "tests/fixtures/survey/papers-bib.tsv")
            .read_text(encoding="utf-8")
            .splitlines()
            if not line.startswith("#")
        ]
        self.assertEqual(len(rows), 84)
        keys = [r[0] for r in rows]
        sole = {r[0] for r in rows if " and " not in r[3]}
        self.assertIn("agentspawn2026", sole)
        export = corpus("export", "--format", "bibtex")
        for style_name in ("plain", "ieeetr"):
            with tempfile.TemporaryDirectory() as tmp:
                tmp = pathlib.Path(tmp)
                (tmp / "corpus.bib").write_text(export, encoding="utf-8")
                cites = "".join("\\citation{%s}\n" % k for k in keys)
                (tmp / "survey.aux").write_text(
                    cites + "\\bibdata{corpus}\n\\bibstyle{%s}\n" % style_name,
                    encoding="utf-8",
                )
                run = subprocess.run(
                    [bibtex, "survey"], cwd=tmp, capture_output=True, text=True
                )
                log = run.stdout + (tmp / "survey.blg").read_text(errors="replace")
                # Any warning fails: a missing key, an empty field, a
                # missing year or author.
                self.assertEqual(run.returncode, 0, f"{style_name}: {log}")
                self.assertNotIn("Warning", log, f"{style_name}: {log}")
                self.assertNotRegex(log, r"There w[a-z]+ \d+ warning", style_name)
                bbl = (tmp / "survey.bbl").read_text(encoding="utf-8")
            items = {}
            for chunk in bbl.split("\\bibitem")[1:]:
                key = re.match(r"\s*(?:\[[^\]]*\])?\{([^{}]+)\}", chunk).group(1)
                items[key] = chunk
            self.assertEqual(sorted(items), sorted(keys), style_name)
            for key in sole:
                self.assertNotIn("et~al", items[key], f"{style_name}: {key}")
            # A @misc shows its link where these styles print it.
            self.assertIn(
                "\\url{https://www.kimi.com/blog/kimi-k2-5.html}",
                items["kimi-k2-5-2026"],
                style_name,
            )


if __name__ == "__main__":
    unittest.main()
