"""One tokenizer for both languages, over one shared vocabulary.

English is lower-cased and split into words and punctuation; contractions split as in the Penn Treebank
("didn't" -> "did" "n't", "it's" -> "it" "'s"), so "didn't" and "did not" share their words. Chinese is
written without spaces, so it is segmented by `jieba` (its own dictionary plus every vocabulary word, with
the HMM for new words off): jieba finds the word boundaries a reader would ("太阳/从/东方/升起"). A jieba word
that is not in the vocabulary is split further by greedy longest match over the vocabulary (一把 -> 一 把), and
only what is still left over is unknown. Text already split by spaces is accepted too.

Nothing is dropped silently: a span the vocabulary cannot cover becomes one `<unk>` token and is reported
by its own text, and input longer than the model accepts is cut and the cut is reported.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

PAD, BOS, EOS, UNK = "<pad>", "<bos>", "<eos>", "<unk>"
TO_ZH, TO_EN = "<2zh>", "<2en>"
SPECIAL_TOKENS = (PAD, BOS, EOS, UNK, TO_ZH, TO_EN)
DIRECTIONS = {"en2zh": ("en", "zh"), "zh2en": ("zh", "en")}
TARGET_TAG = {"zh": TO_ZH, "en": TO_EN}

# An English word may carry inner hyphens or apostrophes ("twenty-one", "o'clock"); a digit run is one token;
# any other visible character is a token of its own (punctuation, symbols, emoji).
_ENGLISH_TOKEN = re.compile(r"[a-z]+(?:['\-][a-z]+)*|[0-9]+|[^\sa-z0-9]")
# Contractions split off their clitic (Penn Treebank style): "didn't" -> "did" "n't", "can't" -> "ca" "n't",
# "won't" -> "wo" "n't", "it's" -> "it" "'s". Detokenizing glues them back.
_CONTRACTION = re.compile(r"^([a-z]+?)(n't|'s|'re|'m|'ll|'ve|'d)$")
CLITICS = ("n't", "'s", "'re", "'m", "'ll", "'ve", "'d")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")
# Full-width punctuation is folded to ASCII for English; Chinese text keeps (or gets) its own marks.
_FULLWIDTH_TO_ASCII = str.maketrans("，。！？：；（）“”‘’", ",.!?:;()\"\"''")
_ASCII_TO_FULLWIDTH = str.maketrans(",.!?:;()", "，。！？：；（）")
# NFKC would turn Chinese ，！？：；（） into ASCII; they are protected from it (。 is untouched anyway).
_CHINESE_MARKS = set("，！？：；（）")
_CHINESE_MARK_SPLIT = re.compile("([，！？：；（）])")
_CHINESE_PUNCTUATION = set("，。！？：；（）、“”‘’《》…")


def clean_text(text: str) -> str:
    """Normalise Unicode (NFKC) and drop control, format (zero-width) and unassigned characters.

    Such characters are invisible in the app, so a token made of them would only confuse a reader.
    Whitespace controls (tab, newline) become spaces.
    """
    text = "".join(
        part if part in _CHINESE_MARKS else unicodedata.normalize("NFKC", part)
        for part in _CHINESE_MARK_SPLIT.split(text)
    )
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch in "\t\n\r\x0b\x0c":
            kept.append(" ")
        elif category in ("Cc", "Cf", "Cn", "Cs", "Co") or category.startswith("M") and not kept:
            continue
        else:
            kept.append(ch)
    return "".join(kept)


def is_punctuation(token: str) -> bool:
    """A mark, not a word: no letter, digit or Chinese character (special tokens such as <eos> and [CLS]
    have letters, so they are not marks)."""
    return bool(token) and not any(ch.isalnum() for ch in token)


def contains_chinese(text: str) -> bool:
    return bool(_CJK.search(text))


_LATIN = re.compile(r"[A-Za-z]")


def token_language(token: str) -> str | None:
    """ "zh" for a token with Chinese characters or marks, "en" for one with Latin letters, None for a
    token both languages write (digits, ASCII marks, symbols, emoji) and for the special tokens."""
    if token in SPECIAL_TOKENS:
        return None
    if contains_chinese(token) or any(ch in _CHINESE_PUNCTUATION for ch in token):
        return "zh"
    return "en" if _LATIN.search(token) else None


@dataclass
class Tokenized:
    """The result of tokenizing one text, with everything the app must tell the user about it."""

    tokens: list[str]  # what the model sees, `<unk>` included
    ids: list[int]
    unknown_words: list[str] = field(default_factory=list)  # the spans that became `<unk>`, in order
    truncated: bool = False  # True when the text had more tokens than the model accepts
    original_length: int = 0  # number of word tokens before the cut (tag and <eos> excluded)

    @property
    def labels(self) -> list[str]:
        """The tokens as a reader should see them: an unknown word keeps its typed spelling ("zebra→<unk>")."""
        unknown = iter(self.unknown_words)
        return [f"{next(unknown, '?')}→{UNK}" if t == UNK else t for t in self.tokens]


class Tokenizer:
    """Maps text to ids and back. `vocab` lists tokens in id order; the special tokens come first."""

    def __init__(self, vocab: list[str], shared: Iterable[str] = ()):
        if list(vocab[: len(SPECIAL_TOKENS)]) != list(SPECIAL_TOKENS):
            raise ValueError(f"the vocabulary must start with {SPECIAL_TOKENS}")
        if len(set(vocab)) != len(vocab):
            raise ValueError("the vocabulary has duplicate tokens")
        self.vocab = list(vocab)
        self.token_to_id = {tok: i for i, tok in enumerate(self.vocab)}
        # Longest Chinese entry bounds the greedy search window.
        self._longest = max((len(t) for t in self.vocab if contains_chinese(t)), default=1)
        self._jieba = None  # built on first Chinese input (~0.7 s), then kept
        self._foreign: dict[int, list[int]] = {}
        # Latin tokens that Chinese text writes too (Transformer, BERT, softmax, read off the Chinese side of
        # the training pairs): an English → Chinese search may keep them, as the translation would.
        self.shared = sorted(set(shared) & set(self.token_to_id))

    # ---- construction and storage -------------------------------------------------------------------
    @classmethod
    def from_corpus(cls, token_lists: Iterable[Sequence[str]]) -> Tokenizer:
        """Vocabulary = special tokens + every token seen, sorted for a stable id order."""
        words = sorted({tok for tokens in token_lists for tok in tokens} - set(SPECIAL_TOKENS))
        return cls(list(SPECIAL_TOKENS) + words)

    def save(self, path: Path) -> None:
        Path(path).write_text(
            json.dumps(
                {"format": "attention-lab-vocab", "version": 1, "tokens": self.vocab, "shared": self.shared},
                ensure_ascii=False,
                indent=0,
            ),
            encoding="utf-8",
        )

    @classmethod
    def load(cls, path: Path) -> Tokenizer:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("format") != "attention-lab-vocab" or data.get("version") != 1:
            raise ValueError("not an Attention Lab vocabulary file (format/version mismatch)")
        return cls(data["tokens"], data.get("shared", ()))

    def __len__(self) -> int:
        return len(self.vocab)

    @property
    def pad_id(self) -> int:
        return self.token_to_id[PAD]

    @property
    def bos_id(self) -> int:
        return self.token_to_id[BOS]

    @property
    def eos_id(self) -> int:
        return self.token_to_id[EOS]

    @property
    def unk_id(self) -> int:
        return self.token_to_id[UNK]

    # ---- splitting text into tokens -----------------------------------------------------------------
    def split(self, text: str) -> tuple[list[str], list[str]]:
        """Split text into vocabulary tokens. Returns (tokens with `<unk>`, the unknown spans)."""
        tokens: list[str] = []
        unknown: list[str] = []
        text = clean_text(text)
        # Text with any Chinese in it is read as Chinese: its punctuation is Chinese even where typed in
        # ASCII or standing apart ("我 看见 了 。"); Latin words inside it still follow the English rules.
        chinese = contains_chinese(text)
        for chunk in text.split():
            if chinese:
                self._split_chinese(chunk.translate(_ASCII_TO_FULLWIDTH), tokens, unknown)
            else:
                self._split_english(chunk, tokens, unknown)
        # Special tokens typed by a user stay text (they are never in the lookup), so "<eos>" ends nothing.
        return tokens, unknown

    def _add(self, piece: str, tokens: list[str], unknown: list[str]) -> None:
        if piece in self.token_to_id and piece not in SPECIAL_TOKENS:
            tokens.append(piece)
        else:
            tokens.append(UNK)
            unknown.append(piece)

    def _split_english(self, chunk: str, tokens: list[str], unknown: list[str]) -> None:
        for piece in english_words(chunk):
            self._add(piece, tokens, unknown)

    def _segmenter(self):
        """jieba with its own dictionary and every Chinese vocabulary word, so it keeps the model's words
        whole (a word jieba does not know gets a frequency that lets it be cut out as one piece)."""
        if self._jieba is None:
            import jieba

            jieba.setLogLevel(logging.WARNING)
            segmenter = jieba.Tokenizer()
            segmenter.initialize()
            for word in self.vocab:
                if contains_chinese(word) and segmenter.FREQ.get(word, 0) < _NEW_WORD_FREQ:
                    segmenter.add_word(word, freq=_NEW_WORD_FREQ)
            self._jieba = segmenter
        return self._jieba

    def _split_chinese(self, chunk: str, tokens: list[str], unknown: list[str]) -> None:
        pending: list[str] = []
        for word in self._segmenter().lcut(chunk, HMM=False):
            if word in self.token_to_id and word not in SPECIAL_TOKENS:
                self._split_unknown_run(pending, tokens, unknown)
                pending = []
                tokens.append(word)
            else:
                pending.append(word)
        self._split_unknown_run(pending, tokens, unknown)

    def _split_unknown_run(self, words: list[str], tokens: list[str], unknown: list[str]) -> None:
        """Neighbouring jieba words the vocabulary lacks: first split together into vocabulary words
        (不想/要钱 -> 不 想要 钱); failing that, each word alone, and a word still not covered is one unknown
        word under its own text (太阳 stays 太阳, not 太 + 阳)."""
        if not words:
            return
        together: tuple[list[str], list[str]] = ([], [])
        self._split_by_vocabulary("".join(words), *together)
        if not together[1]:
            tokens.extend(together[0])
            return
        for word in words:
            alone: tuple[list[str], list[str]] = ([], [])
            self._split_by_vocabulary(word, *alone)
            if alone[1] and len(alone[0]) > 1 and all(_is_chinese_char(c) for c in word):
                tokens.append(UNK)
                unknown.append(word)
            else:
                tokens.extend(alone[0])
                unknown.extend(alone[1])

    def _split_by_vocabulary(self, chunk: str, tokens: list[str], unknown: list[str]) -> None:
        """Greedy longest match over the vocabulary; characters no entry covers form one unknown span."""
        i = 0
        last_was_unknown = False
        while i < len(chunk):
            if _is_foreign(chunk[i]):
                # A non-Chinese run inside Chinese text (Latin letters, digits, emoji): English rules.
                j = i
                while j < len(chunk) and _is_foreign(chunk[j]):
                    j += 1
                self._split_english(chunk[i:j], tokens, unknown)
                i, last_was_unknown = j, False
                continue
            for size in range(min(self._longest, len(chunk) - i), 0, -1):
                piece = chunk[i : i + size]
                if piece in self.token_to_id and piece not in SPECIAL_TOKENS:
                    tokens.append(piece)
                    i += size
                    last_was_unknown = False
                    break
            else:
                # No entry starts here: this character joins the current unknown span.
                if last_was_unknown:
                    unknown[-1] += chunk[i]
                else:
                    tokens.append(UNK)
                    unknown.append(chunk[i])
                i += 1
                last_was_unknown = True

    # ---- model input -----------------------------------------------------------------------------
    def encode_source(self, text: str, target_language: str, max_tokens: int) -> Tokenized:
        """Encoder input: [<2xx>] + tokens + [<eos>], cut to `max_tokens` in total."""
        words, unknown = self.split(text)
        original_length = len(words)
        room = max_tokens - 2
        truncated = original_length > room
        if truncated:
            words = words[:room]
            unknown = unknown[: words.count(UNK)]  # report only the unknown words that survived the cut
        tokens = [TARGET_TAG[target_language]] + words + [EOS]
        return Tokenized(tokens, self.ids(tokens), unknown, truncated, original_length)

    def ids(self, tokens: list[str]) -> list[int]:
        return [self.token_to_id.get(t, self.unk_id) for t in tokens]

    def tokens(self, ids: Iterable[int]) -> list[str]:
        return [self.vocab[int(i)] for i in ids]

    def foreign_ids(self, tag_id: int) -> list[int]:
        """Ids of the tokens of the language the direction tag does not ask for (English words when the
        source starts with <2zh>, Chinese words and marks with <2en>); [] for any other first token. The
        `shared` tokens are nobody's foreign words.

        One shared table means the decoder can score every word of both languages; a search that may write
        these would mix the source language into the output ("the狗"), so the searches skip them."""
        if tag_id not in self._foreign:
            target = {self.token_to_id[tag]: lang for lang, tag in TARGET_TAG.items()}.get(tag_id)
            shared = set(self.shared)
            self._foreign[tag_id] = (
                []
                if target is None
                else [
                    i
                    for i, tok in enumerate(self.vocab)
                    if token_language(tok) not in (None, target) and tok not in shared
                ]
            )
        return self._foreign[tag_id]


# The least frequency a vocabulary word gets in jieba's dictionary: enough to be cut out whole (jieba's
# median word frequency is ~3, its total ~6e7), so 在逃 stays one word in 一名在逃的罪犯.
_NEW_WORD_FREQ = 2000


def english_words(text: str) -> list[str]:
    """English text to lower-case word tokens, contractions split ("Didn't" -> "did", "n't")."""
    out = []
    for piece in _ENGLISH_TOKEN.findall(text.lower().translate(_FULLWIDTH_TO_ASCII)):
        match = _CONTRACTION.match(piece)
        out.extend(match.groups() if match else (piece,))
    return out


def without_clitic(word: str) -> str:
    """The word the tokenizer keeps before a clitic, case kept ("Tom's" -> "Tom", "Didn't" -> "Did")."""
    match = _CONTRACTION.match(word.lower())
    return word[: len(match.group(1))] if match else word


def _is_chinese_char(ch: str) -> bool:
    return bool(_CJK.match(ch))


def _is_foreign(ch: str) -> bool:
    """Neither a Chinese character nor a Chinese punctuation mark."""
    return not _CJK.match(ch) and ch not in _CHINESE_PUNCTUATION
