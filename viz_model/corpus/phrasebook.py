"""Hand-written everyday sentence pairs (`assets/corpus/phrasebook/*.tsv`: en, zh, topic).

The grammar writes sentences by pattern; people say many things no small pattern set covers ("Nice to meet
you", "What's the weather like?"). These pairs, written by hand by topic, teach the model set phrases and
natural word order. They are training data only: pairs whose either side matches an evaluation sentence
(after `evalset.normalise`) are left out, and a test checks it.
"""

from __future__ import annotations

import csv
from pathlib import Path

PHRASEBOOK_DIR = Path(__file__).resolve().parents[2] / "assets" / "corpus" / "phrasebook"


def load_phrasebook(directory: Path = PHRASEBOOK_DIR) -> list[tuple[str, str, str]]:
    """(english, chinese, topic) rows of every phrasebook file, in file order."""
    rows = []
    for path in sorted(Path(directory).glob("*.tsv")):
        with open(path, encoding="utf-8", newline="") as handle:
            for r in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                en, zh = (r.get("en") or "").strip(), (r.get("zh") or "").strip()
                if en and zh:
                    rows.append((en, zh, (r.get("topic") or "phrasebook").strip()))
    return rows
