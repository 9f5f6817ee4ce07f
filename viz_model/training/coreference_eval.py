"""Who "it", "he" and "she" are after "because": the coreference figures of `evaluate`.

Both take `translate`, English text → the model's Chinese tokens, so they measure any model the same way.
- `evaluate_coreference_by_kind`: the generator's held-out split (nouns and deciding words never in coreference
  training). Is the referent after 因为 the reference's, and is the main clause right?
- `evaluate_pronouns`: sentences written apart from the generator (`assets/eval/pronouns.tsv`). Does "he" /
  "she" stay 他 / 她, and does an "it" that is the object stay the object's noun?
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sacrebleu

from viz_model.corpus import coreference
from viz_model.corpus.evalset import PRONOUNS_FILE, load_pronoun_checks
from viz_model.model.detokenize import detokenize

Translate = Callable[[str], list[str]]  # English text → Chinese tokens


def named_referent(zh_tokens: list[str]) -> str:
    """What stands after 因为 in a coreference sentence: 它 (the subject, "it was too tired") or the noun the
    Chinese names ("it was too wide" → 马路); "" when the sentence has no 因为 clause."""
    return zh_tokens[zh_tokens.index("因为") + 1] if "因为" in zh_tokens[:-1] else ""


def evaluate_coreference_by_kind(translate: Translate, log=print) -> dict:
    """The referent and main-clause figures are over the pairs whose subject is an animal, where only the
    deciding word says who "it" is; the person figure is over the pairs whose subject is a person, where the
    pronoun says it ("he was too sleepy" → 他, "it was too sour" → the object's noun)."""
    pairs = coreference.held_out_pairs()
    decided = [p for p in pairs if not p.of_a_person]
    referent = main = 0
    by_word: dict[str, list[bool]] = {}  # which deciding words are read right: where a next recipe should look
    person: list[bool] = []
    for p in pairs:
        out = translate(detokenize(list(p.phrase.en), "en"))
        right = named_referent(out) == p.referent
        if p.of_a_person:
            person.append(right)
            continue
        referent += right
        by_word.setdefault(f"{p.word} ({p.reading})", []).append(right)
        clause = "".join(out[: out.index("，")]) if "，" in out else ""
        main += clause in coreference.main_clause_variants(p.main_clause)
    result = {
        "coreference_by_kind_referent_accuracy": round(referent / len(decided), 4),
        "coreference_by_kind_main_clause_accuracy": round(main / len(decided), 4),
        "coreference_by_kind_sentences": len(decided),
        "coreference_by_kind_person_accuracy": round(sum(person) / max(1, len(person)), 4),
        "coreference_by_kind_person_sentences": len(person),
        "coreference_by_kind_referent_by_word": {w: f"{sum(r)}/{len(r)}" for w, r in sorted(by_word.items())},
    }
    log(
        f"coreference by kind (held out, {len(decided)}): referent {referent / len(decided):.0%}, "
        f"main clause {main / len(decided):.0%}; of a person ({len(person)}): {sum(person) / max(1, len(person)):.0%}"
    )
    return result


def pronoun_right(output: str, referent: str, reading: str) -> bool:
    """Is the referent after 因为 the check's? A person: the clause starts with 他 / 她 as the reference does. An
    object: the clause names the object (its noun, perhaps after a measure word: 因为那部电影…), not a pronoun."""
    if "因为" not in output:
        return False
    clause = output.split("因为", 1)[1]
    if reading == "person":
        return clause.startswith(referent)
    return referent in clause and not clause.startswith(("他", "她", "它"))


# Lifting is carrying's kind of action: 搬不动 is a right way to say "couldn't lift the chair".
_LIKE_THE_FRAMES_VERBS = ("lift",)


def frame_verb_leaked(english: str, output: str) -> bool:
    """Does the Chinese say one of the generator's "can't" verbs (搬不动, 追不上, …) where the English does none of
    the frames' actions ("Mary couldn't see the blackboard" → 玛丽追不上黑板)?"""
    verbs = coreference.frame_verbs()
    words = f" {re.sub(r'[^a-z ]', ' ', english.lower())} "
    if any(f" {en} " in words for en in (*verbs.values(), *_LIKE_THE_FRAMES_VERBS)):
        return False
    return any(zh in output for zh in verbs)


def evaluate_pronouns(translate: Translate, path=PRONOUNS_FILE, log=print) -> dict:
    """Also the set's chrF against its references, and how many sentences came out with a generator verb their
    English does not have: a continuation that bends every "couldn't …" toward the generator's verbs (追不上,
    搬不动) loses both even where the pronoun is right."""
    checks = load_pronoun_checks(path)
    right: dict[str, list[bool]] = {"person": [], "object": []}
    outputs, misses, leaks = [], [], []
    for c in checks:
        out = detokenize(translate(c.en), "zh")
        ok = pronoun_right(out, c.referent, c.reading)
        right[c.reading].append(ok)
        outputs.append(out)
        if not ok:
            misses.append(f"{c.en} → {out}")
        if frame_verb_leaked(c.en, out):
            leaks.append(f"{c.en} → {out}")
    result = {f"pronoun_{reading}_right": f"{sum(r)}/{len(r)}" for reading, r in right.items()}
    result["pronoun_set_chrf"] = round(sacrebleu.corpus_chrf(outputs, [[c.zh for c in checks]]).score, 2)
    result["pronoun_misses"] = misses
    result["pronoun_frame_verb_leaks"] = leaks
    log(f"pronouns off the generator's frames: he/she {result['pronoun_person_right']}, "
        f"it as the object {result['pronoun_object_right']}, chrF {result['pronoun_set_chrf']}, "
        f"a generator verb not in the English {len(leaks)}/{len(checks)}")  # fmt: skip
    return result
