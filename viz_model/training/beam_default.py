"""Choose the Beam search page's default sentence for the shipped model and store it with the checkpoint's
hash (viz_model.lessons.search_views.DEFAULT_FILE): run after training, since the page opens on a sentence
where beam search finds a more probable translation than greedy search.

    python -m viz_model.training.beam_default
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from viz_model.lessons.search_views import DEFAULT_FILE, pick_default
from viz_model.model.translator import Translator


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Choose the Beam search page's default sentence.")
    parser.parse_args(argv)
    pick = pick_default(Translator.load())
    DEFAULT_FILE.write_text(json.dumps(asdict(pick), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"{pick.text} ({pick.direction})\n  greedy: {' '.join(pick.greedy)}\n  beam:   {' '.join(pick.beam)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
