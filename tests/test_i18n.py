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


def test_every_key_the_pages_ask_for_by_name_is_in_the_catalogue():
    """A key written out in a page's `tr(...)` call, in either branch of a conditional (`tr("a" if x else "b")`),
    is in the catalogue: a missing one shows its name on the page (`beam.output_short` did, in presentation
    mode only)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    catalogue = i18n.catalogue("en")
    asked, missing = set(), []
    for path in sorted((root / "pages").rglob("*.py")):
        for argument in re.findall(r"\btr\(\s*([^,)]*)", path.read_text(encoding="utf-8")):
            for key in re.findall(r"(?<![{\w])[\"']([a-z_]+\.[a-z0-9_]+)[\"']", argument):
                asked.add(key)
                if key not in catalogue:
                    missing.append(f"{path.name}: {key}")
    assert len(asked) > 200  # the scan reads the pages' calls
    assert not missing, missing
