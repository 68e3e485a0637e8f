#!/usr/bin/env python3
"""Yardstick for the scale benchmark: what a plain Python script pays to load
the same corpus with libyaml's C loader and count each tag field.

    python3 benches/yardstick.py ROOT

Prints the number of entries and records it read. It checks nothing and
renders nothing, so it is a floor for a Python tool, not a rival to `build`.
"""

import collections
import os
import sys

import yaml

try:
    Loader = yaml.CSafeLoader
except AttributeError:  # PyYAML without libyaml: say so, the figure differs
    print("note: PyYAML has no libyaml; using the pure-Python loader", file=sys.stderr)
    Loader = yaml.SafeLoader

TAGS = (
    "category",
    "is_rl",
    "reward_type",
    "credit_granularity",
    "orchestration_form",
    "scenario",
    "is_core",
    "verified",
)


def load_dir(path):
    docs = []
    for name in sorted(os.listdir(path)):
        if name.endswith(".yaml"):
            with open(os.path.join(path, name), "rb") as f:
                docs.append(yaml.load(f, Loader=Loader))
    return docs


def main():
    root = sys.argv[1]
    entries = load_dir(os.path.join(root, "corpus", "papers"))
    records = load_dir(os.path.join(root, "exclusions"))
    counts = {t: collections.Counter(str(e.get(t)) for e in entries) for t in TAGS}
    stages = collections.Counter(str(r.get("stage")) for r in records)
    print(f"{len(entries)} entries, {len(records)} records, {sum(stages.values())} staged, "
          f"{len(counts)} tag fields counted")


if __name__ == "__main__":
    main()
