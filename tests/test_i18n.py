"""The two string catalogues: same keys, nothing empty, placeholders that match."""

import re

import pytest

from pages.parts import i18n

PLACEHOLDER = re.compile(r"(?<!\{)\{(\w*)\}(?!\})")


def test_catalogues_have_the_same_keys():
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh")
    assert set(en) == set(zh), sorted(set(en) ^ set(zh))


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_no_empty_strings(lang):
    assert [k for k, v in i18n.catalogue(lang).items() if not str(v).strip()] == []


def test_placeholders_match_between_languages():
    en, zh = i18n.catalogue("en"), i18n.catalogue("zh")
    for key in en:
        if key.endswith(("formula", "formula2", "formula3")):
            continue  # LaTeX braces, not placeholders
        assert set(PLACEHOLDER.findall(en[key])) == set(PLACEHOLDER.findall(zh[key])), key


def test_every_page_section_has_a_title_and_summary():
    from pages.parts.frame import PAGES

    for lang in i18n.LANGUAGES:
        for page in PAGES:
            assert f"{page.section}.title" in i18n.catalogue(lang)
            assert f"{page.section}.short" in i18n.catalogue(lang) or page.section == "home"


def test_fallbacks():
    assert i18n.normalise_language("xx") == "en"
    assert i18n.t("no.such.key", "zh") == "no.such.key"
    assert i18n.t("common.truncated", "zh", max=3, n=9).count("3") == 2
