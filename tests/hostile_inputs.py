"""Inputs a class of students (or a curious one) will type into the sentence box, and URLs they will edit.

Every page must survive each of them: a friendly message or a normal render, no exception, nothing the user
typed ever interpreted as HTML, Markdown, LaTeX or script, and the server still answering afterwards.

    from tests.hostile_inputs import HOSTILE_INPUTS, URL_CASES       # (pytest runs with pythonpath = .)

HOSTILE_INPUTS: `Hostile(id, text, direction)`, ids are short and unique (use them as pytest ids).
URL_CASES: `UrlCase(id, query, expect_dir, expect_lang)`: a raw query string (already percent-encoded, as a
user would paste it) and the direction / language the app must fall back to.
SECOND_LANGUAGE_SUBSET: the ids run in the second interface language, in AppTest and in the browser (the full list
runs in the first).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote


@dataclass(frozen=True)
class Hostile:
    id: str
    text: str
    direction: str = "en2zh"

    @property
    def blank(self) -> bool:
        """True when the app should treat the text as empty (its friendly prompt instead of charts)."""
        return not "".join(
            ch
            for ch in self.text
            if ch.isprintable() and not ch.isspace() and ch not in "\u200b\u200c\u200d\u2060\ufeff"
        )


@dataclass(frozen=True)
class UrlCase:
    id: str
    query: str  # what follows "?" in the address bar
    expect_dir: str | None = "en2zh"  # None: any valid direction (e.g. repeated parameters)
    expect_lang: str | None = "en"


_LONG_SENTENCE = " ".join(["the cat sat on the mat and the dog ate an apple"] * 46)[:5000]

HOSTILE_INPUTS: tuple[Hostile, ...] = (
    # ---- nothing, or almost nothing
    Hostile("empty", ""),
    Hostile("spaces", "     "),
    Hostile("tabs_newlines", "\t\n\r\n\t"),
    Hostile("ideographic_space", "\u3000\u3000\u3000"),
    Hostile("zero_width_only", "\u200b\u200c\u200d\ufeff\u2060"),
    Hostile("punctuation_only", "?!.,;:…"),
    Hostile("single_char", "a"),
    # ---- size
    Hostile("len_5000", _LONG_SENTENCE),
    Hostile("word_500", "a" * 500),
    Hostile("chinese_500", "苹果" * 250, "zh2en"),
    Hostile("many_tokens", "a " * 600),
    # ---- the model's own special tokens, spelled out
    Hostile("tok_unk", "<unk>"),
    Hostile("tok_eos", "<eos>"),
    Hostile("tok_pad", "<pad>"),
    Hostile("tok_bos", "<bos>"),
    Hostile("tok_2zh", "<2zh>"),
    Hostile("tok_2en", "<2en>", "zh2en"),
    Hostile("tok_all", "<pad> <bos> <eos> <unk> <2zh> <2en> apple <eos> <eos>"),
    # ---- Unicode
    Hostile("emoji", "I love 🍎 and 🍊 😀👍🏽👨‍👩‍👧‍👦"),
    Hostile("combining", "ápple ñ Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐"),
    Hostile("zero_width_inside", "ap\u200bple and an or\u200dange\ufeff"),
    Hostile("control_chars", "apple\x01\x02\x07\x08\x1b[31mred\x1b[0m\x7f"),
    Hostile("nul", "apple\x00orange\x00"),
    Hostile("rtl_arabic", "مرحبا بالعالم apple"),
    Hostile("rtl_hebrew_override", "\u202eelppa na yub\u202c שלום"),
    Hostile("mixed_zh_en", "我想买一个 apple 和 orange phone", "zh2en"),
    Hostile("mixed_zh_en_en2zh", "please buy 苹果 and 橙子"),
    Hostile("fullwidth", "ｐｌｅａｓｅ　ｂｕｙ，ａｎ　ａｐｐｌｅ！？（）【】《》“”"),
    Hostile("zh_punctuation", "你好，世界！这是“测试”吗？……", "zh2en"),
    Hostile("surrogate_like", "\U0001d54f\U0001d552\U0001d55d \U00010348 \U000e0041"),
    # ---- markup that must stay text
    Hostile("html_img", "<img src=x onerror=alert(1)>"),
    Hostile("html_script", "<script>alert(1)</script>"),
    Hostile("html_svg", "<svg onload=alert(1)><b>bold</b></svg>"),
    Hostile("html_iframe", '<iframe src="javascript:alert(1)"></iframe>'),
    Hostile("html_entities", "&lt;b&gt; &amp; &#x3C;script&#x3E; &nbsp;"),
    Hostile("js_url", "javascript:alert(document.cookie)"),
    Hostile("markdown", "**x** _y_ # h1 [link](javascript:alert(1)) ![img](x) `code` > quote"),
    Hostile("markdown_colour", ":red[apple] :material/home: :smile: ---"),
    Hostile("latex_frac", r"$\frac{1}{0}$ $$\sqrt{-1}$$"),
    Hostile("latex_broken", r"$\begin{matrix} \end{x}$ \( \unknowncmd{"),
    Hostile("braces_format", "{0} {text} {{}} %s %d {__class__}"),
    # ---- injection-shaped text
    Hostile("sql", "'; DROP TABLE users; -- \" OR 1=1"),
    Hostile("shell", "$(rm -rf /) `reboot` ; | & && > /dev/null ${HOME}"),
    Hostile("path_traversal", "../../../../etc/passwd %2e%2e%2f"),
    Hostile("url_chars", "a&b=c?d#e%20f+g"),
    Hostile("backslashes", "\\ \\\\ \\n \\x00 \\u0000"),
    Hostile("quotes", "\"'`´‘’“”«»"),
    # ---- numbers and odd words
    Hostile("numbers", "1e308 -0 NaN inf 0x1F 3.14159"),
    Hostile("unknown_only", "qwzx blorf zzyzx"),
    Hostile("repeated_word", " ".join(["apple"] * 60)),
)

_BY_ID = {h.id: h for h in HOSTILE_INPUTS}
assert len(_BY_ID) == len(HOSTILE_INPUTS), "hostile input ids must be unique"


def hostile(id: str) -> Hostile:
    return _BY_ID[id]


# The second interface language runs this subset (one of each kind): what a language changes is the page's
# words around the input, not how the input is read.
SECOND_LANGUAGE_SUBSET = (
    "empty",
    "len_5000",
    "tok_all",
    "emoji",
    "nul",
    "rtl_hebrew_override",
    "fullwidth",
    "html_img",
    "html_script",
    "markdown",
    "latex_frac",
    "sql",
)

URL_CASES: tuple[UrlCase, ...] = (
    UrlCase("dir_xx", "text=hello&dir=xx"),
    UrlCase("dir_upper", "text=hello&dir=EN2ZH"),
    UrlCase("dir_empty", "text=hello&dir="),
    UrlCase("lang_fr", "text=hello&lang=fr"),
    UrlCase("lang_zh_ok", "text=hello&dir=zh2en&lang=zh", "zh2en", "zh"),
    UrlCase("text_nul", "text=%00"),
    UrlCase("text_nuls", "text=%00%00apple%00&dir=en2zh"),
    UrlCase("text_bad_utf8", "text=%FF%FE%80&dir=en2zh"),
    UrlCase("text_lone_percent", "text=100%&dir=%"),
    UrlCase("text_html", "text=" + quote("<img src=x onerror=alert(1)>") + "&dir=en2zh"),
    UrlCase("text_very_long", "text=" + "a%20" * 6000 + "&dir=en2zh"),
    UrlCase("query_very_long", "text=hi&junk=" + "x" * 8000),
    UrlCase("repeated_params", "text=one&text=two&dir=zh2en&dir=xx&lang=zh&lang=fr", None, None),
    UrlCase("unknown_params", "foo=bar&page=attention&__proto__=1&constructor=x"),
    UrlCase("no_value", "text&dir&lang"),
    UrlCase("plus_and_hash", "text=a+b%23c&dir=en2zh"),
)
assert len({c.id for c in URL_CASES}) == len(URL_CASES)
