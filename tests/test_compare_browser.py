"""The ``bleucli compare`` report in a real browser: the system Chromium driven by Playwright.

Skipped where /usr/bin/chromium or the ``playwright`` package is missing
(``.ci/run`` installs both; Playwright never downloads a browser here).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import invoke
from datasets import EXAMPLES

CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,  # a browser start and a page of 100 sentences per test: ~3 s each
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no system Chromium (apt-get install chromium)"),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The report of the README's example (Online-B vs Lan-Bridge, 100 segments, 10 documents), and its JSON."""
    folder = tmp_path_factory.mktemp("report")
    for name in ("ref.de", "Online-B.de", "Lan-Bridge.de"):
        shutil.copy(EXAMPLES / name, folder / name)
    # ten documents of ten segments: the document view
    (folder / "docs.txt").write_text("".join(f"doc-{i // 10}\n" for i in range(100)), encoding="utf-8")
    args = ["compare", str(folder / "ref.de"), "-i", str(folder / "Online-B.de"), str(folder / "Lan-Bridge.de"),
            "--docids", str(folder / "docs.txt"),
            "--html", str(folder / "report.html"), "--json", str(folder / "report.json"), "-q"]
    assert invoke(args).exit_code == 0
    return folder / "report.html", json.loads((folder / "report.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def example_comparison(report: tuple[Path, dict]) -> object:
    """The same comparison from the library: the characters of each BLEU token."""
    from bleucli.options import RunOptions
    from bleucli.report.compare import compare

    folder = report[0].parent
    lines = {name: (folder / name).read_text(encoding="utf-8").splitlines()
             for name in ("ref.de", "Online-B.de", "Lan-Bridge.de")}
    return compare(RunOptions(), ["Online-B.de", "Lan-Bridge.de"], [lines["Online-B.de"], lines["Lan-Bridge.de"]],
                   ["ref.de"], [lines["ref.de"]])


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser, report):
    """The report opened from file://, with every request and console message recorded."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.requests, opened.messages = [], []
    opened.on("request", lambda request: opened.requests.append(request.url))
    opened.on("console", lambda message: opened.messages.append((message.type, message.text)))
    opened.on("pageerror", lambda error: opened.messages.append(("pageerror", str(error))))
    opened.goto(report[0].as_uri())
    yield opened
    context.close()


def visible_numbers(page) -> list[int]:
    return page.eval_on_selector_all("#sentences tbody tr:not([hidden])", "rows => rows.map(r => +r.dataset.n)")


def test_loads_from_file_with_no_other_request_and_no_console_message(page, report):
    page.wait_for_load_state("load")
    assert page.requests == [report[0].as_uri()]
    assert page.messages == []
    assert page.is_visible("#filters")
    assert page.text_content("#f-count") == "100 of 100 sentences shown"


def test_sorting_by_a_delta_column_orders_rows_and_sets_aria_sort(page, report):
    data = report[1]
    delta = {s["number"]: s["systems"][1]["sentence_bleu"] - s["systems"][0]["sentence_bleu"]
             for s in data["segments"]}
    header = page.locator("#sentences thead th", has=page.locator("button[data-key=d1]"))
    page.click("button[data-key=d1]")
    assert header.get_attribute("aria-sort") == "descending"
    order = visible_numbers(page)
    assert [delta[n] for n in order] == sorted(delta.values(), reverse=True)
    page.click("button[data-key=d1]")
    assert header.get_attribute("aria-sort") == "ascending"
    assert [delta[n] for n in visible_numbers(page)] == sorted(delta.values())
    assert page.get_attribute("#sentences thead th:first-child", "aria-sort") == "none"


def test_text_sign_and_threshold_filters(page, report):
    segments = {s["number"]: s for s in report[1]["segments"]}
    page.get_by_label("text contains").fill("Impf")
    shown = visible_numbers(page)
    assert shown and all("impf" in json.dumps(segments[n], ensure_ascii=False).lower() for n in shown)
    page.get_by_label("text contains").fill("")
    page.get_by_label("delta sign").select_option("worse")
    page.get_by_label("|delta| at least").fill("10")
    shown = visible_numbers(page)
    expected = [n for n, s in segments.items()
                if s["systems"][1]["sentence_bleu"] - s["systems"][0]["sentence_bleu"] <= -10]
    assert shown == expected and expected
    assert page.text_content("#f-count") == f"{len(expected)} of 100 sentences shown"


def test_permalink_reveals_a_filtered_row(page):
    page.get_by_label("text contains").fill("no sentence contains this")
    assert visible_numbers(page) == []
    page.evaluate("location.hash = '#s42'")
    page.wait_for_function("!document.getElementById('s42').hidden")
    assert page.evaluate("document.querySelector(':target').id") == "s42"
    assert len(visible_numbers(page)) == 100


def test_bucket_buttons_filter_the_sentences(page, report):
    bucket = report[1]["buckets"][0]
    button = "table.buckets[data-kind='reference length'] tbody th button.pick"
    page.click(button)
    assert page.get_attribute(button, "aria-pressed") == "true"
    assert visible_numbers(page) == bucket["segments"]


def test_highlighting_marks_exactly_the_tokens_bleu_counted(page, report, example_comparison):
    """Per row and system, the marked tokens are those inside a counted n-gram, by the longest order.

    Neighbouring tokens of one class share an element, so the page's marks are read as character
    ranges and each BLEU token (its characters, from the data model) is looked up in them.
    """
    for segment, model in zip(report[1]["segments"][:30], example_comparison.segments[:30]):
        for k, entry in enumerate(segment["systems"]):
            longest: dict[int, int] = {}
            for n, starts in enumerate(entry["matched_ngrams"], 1):
                for start in starts:
                    for i in range(start, start + n):
                        longest[i] = n
            text, marks = page.eval_on_selector(
                f"#s{segment['number']}", """(row, k) => { const t = row.querySelectorAll('td.out')[k]
                .querySelector('.t'); let at = 0; const marks = [];
                for (const node of t.childNodes) { const size = node.textContent.length;
                    if (node.nodeType === 1) marks.push([node.className, at, at + size]); at += size; }
                return [t.textContent, marks]; }""", k)
            hypothesis = model.systems[k]
            assert text == hypothesis.hypothesis
            marked = {}  # character -> its element's classes
            for classes, begin, stop in marks:
                assert text[begin:stop] == text[begin:stop].strip()  # a mark starts and ends on a token
                marked.update(dict.fromkeys(range(begin, stop), classes.split()))
            counts = [0] * 4
            for span in hypothesis.spans:
                classes = {tuple(marked.get(i, ())) for i in range(span.start, span.end)}
                assert len(classes) == 1  # a token is marked whole, by one element
                orders = [int(c[1]) for c in classes.pop() if c.startswith("m")]
                assert orders == ([min(span.order, 4)] if span.order else [])
                if orders:
                    counts[orders[0] - 1] += 1
            assert counts == [sum(1 for v in longest.values() if v == n) for n in range(1, 5)]


def test_copy_visible_rows_as_tsv(page):
    page.get_by_label("delta sign").select_option("better")
    shown = visible_numbers(page)
    page.click("#f-copy")
    lines = page.input_value("#tsv").rstrip("\n").split("\n")
    assert len(lines) == 1 + len(shown)
    assert [int(line.split("\t")[0]) for line in lines[1:]] == shown
    assert all(line.count("\t") == lines[0].count("\t") for line in lines)


def test_an_injected_inline_script_stays_blocked(page):
    page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.injected = 1'; document.body.appendChild(s); }""")
    assert page.evaluate("window.injected") is None
    assert any("Content Security Policy" in text for _, text in page.messages)


def test_controls_have_labels_and_headers_have_scopes(page):
    for label in ("text contains", "delta of", "delta sign", "|delta| at least"):
        assert page.get_by_label(label).count() == 1
    scopes = page.eval_on_selector_all("#sentences thead th", "ths => ths.map(t => t.getAttribute('scope'))")
    assert set(scopes) == {"col"}
    page.focus("button[data-key=b1]")
    page.keyboard.press("Enter")
    header = page.locator("#sentences thead th", has=page.locator("button[data-key=b1]"))
    assert header.get_attribute("aria-sort") == "descending"


def test_without_javascript_the_tables_are_all_there(browser, report):
    context = browser.new_context(java_script_enabled=False)
    opened = context.new_page()
    opened.goto(report[0].as_uri())
    assert opened.locator("#sentences tbody tr").count() == 100
    assert not opened.is_visible("#filters")
    assert opened.locator("#systems tbody tr").count() == 2
    context.close()


def page_data(page) -> dict:
    return json.loads(page.text_content("#bleucli-data"))


def test_every_bucket_ngram_and_chart_element_filters_the_sentences(page, report):
    """Each ``[data-pick]`` element, clicked, shows exactly its sentences; clicked again, all of them."""
    picks = page_data(page)["picks"]
    segments = {s["number"]: s for s in report[1]["segments"]}
    elements = page.eval_on_selector_all("[data-pick]", "els => els.map(e => +e.dataset.pick)")
    assert sorted(set(elements)) == list(range(len(picks)))
    # one round trip: click each pick, record what the table and the controls show, click it again
    seen = page.evaluate("""n => { const rows = () => Array.from(
            document.querySelectorAll('#sentences tbody tr:not([hidden])'), r => +r.dataset.n);
        const out = [];
        for (let i = 0; i < n; i++) {
            const el = document.querySelector(`[data-pick='${i}']`);
            el.dispatchEvent(new MouseEvent('click'));
            const pressed = Array.from(document.querySelectorAll(`[data-pick='${i}']`),
                                       e => e.getAttribute('aria-pressed'));
            const note = document.getElementById('f-bucket').textContent;
            const shown = rows();
            el.dispatchEvent(new MouseEvent('click'));
            out.push({shown, pressed, note, after: rows().length});
        }
        return out; }""", len(picks))
    for pick, result in zip(picks, seen):
        if "segments" in pick:
            assert result["shown"] == pick["segments"], pick["label"]
        else:
            k, sign = pick["system"], pick["sign"]
            deltas = {n: s["systems"][k]["sentence_bleu"] - s["systems"][0]["sentence_bleu"]
                      for n, s in segments.items()}
            expected = [n for n, d in deltas.items() if (d < 0 if sign == "worse" else d > 0)]
            assert result["shown"] == expected, pick["label"]
        assert set(result["pressed"]) == {"true"} and result["note"] == f"selected: {pick['label']}"
        assert result["after"] == 100


def test_the_picks_are_the_reports_buckets_and_ngrams(page, report):
    """What the page filters on is what the JSON report (the core's numbers) says."""
    picks = {p["label"]: p.get("segments") for p in page_data(page)["picks"]}
    for bucket in report[1]["buckets"]:
        assert picks[f"{bucket['kind']} {bucket['label']}"] == bucket["segments"]
        for k, members in enumerate(bucket.get("by_system", [])):
            assert picks[f"{bucket['kind']} {bucket['label']}: {report[1]['systems'][k]['system']}"] == members
    for side in ("better", "worse"):
        for item in report[1]["ngrams"][0][side]:
            assert picks[f"n-gram {item['ngram']}"] == item["segments"]


def test_chart_elements_respond_to_real_clicks_and_the_keyboard(page, report):
    bucket = report[1]["buckets"][0]
    group = page.locator("svg g.pick").first  # the first reference-length group of the bucket chart
    group.click()
    assert visible_numbers(page) == bucket["segments"]
    assert group.get_attribute("aria-pressed") == "true"
    group.focus()
    page.keyboard.press("Enter")
    assert len(visible_numbers(page)) == 100
    band = page.locator("svg.sorted g.pick").first  # the first tenth of the sorted-delta curve
    band.focus()
    page.keyboard.press(" ")
    deltas = sorted((s["systems"][1]["sentence_bleu"] - s["systems"][0]["sentence_bleu"], s["number"])
                    for s in report[1]["segments"])
    assert visible_numbers(page) == sorted(n for _, n in deltas[:10])
    page.click("#f-clear")
    assert len(visible_numbers(page)) == 100 and band.get_attribute("aria-pressed") == "false"
    page.locator("svg.bootstrap g.pick").last.click()  # the resamples where the candidate is better
    assert visible_numbers(page) == [n for d, n in sorted(deltas, key=lambda x: x[1]) if d > 0]


def test_a_pick_combines_with_the_other_filters_and_sorting(page, report):
    bucket = next(b for b in report[1]["buckets"] if b["kind"] == "reference length" and b["count"] > 10)
    page.click(f"table.buckets[data-kind='reference length'] button.pick[title='the segments of reference length "
               f"{bucket['label']}']")
    page.get_by_label("delta sign").select_option("worse")
    segments = {s["number"]: s for s in report[1]["segments"]}
    delta = {n: s["systems"][1]["sentence_bleu"] - s["systems"][0]["sentence_bleu"] for n, s in segments.items()}
    expected = [n for n in bucket["segments"] if delta[n] < 0]
    assert visible_numbers(page) == expected
    page.click("button[data-key=d1]")
    assert visible_numbers(page) == sorted(expected, key=lambda n: (-delta[n], n))


def test_the_document_view_filters_the_sentences_by_document(page, report):
    documents = [b for b in report[1]["buckets"] if b["kind"] == "document"]
    assert [b["label"] for b in documents] == [f"doc-{i}" for i in range(10)]
    page.click("section[aria-labelledby=h-documents] table button.pick[title='the segments of document doc-3']")
    assert visible_numbers(page) == list(range(31, 41))
    cells = page.eval_on_selector_all("#sentences tbody tr:not([hidden]) td.doc",
                                      "cells => cells.map(c => c.textContent)")
    assert cells == ["doc-3"] * 10
    header = page.eval_on_selector_all("section[aria-labelledby=h-documents] table thead th",
                                       "ths => ths.map(t => t.textContent)")
    assert header[:3] == ["document", "segments", f"BLEU {report[1]['systems'][0]['system']}"]


# -- a lazy page: rows rendered by the script as the reader scrolls ------------------------------
LAZY_SEGMENTS = 1000


@pytest.fixture(scope="module", params=["rows in the data", "rows in noscript"])
def lazy_report(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    """1,000 segments of wmt22-en-de: with the lazy threshold lowered to 500 rows (the rows travel in the
    page data), and as an ordinary page (the rows in a ``<noscript>`` the script cuts into rows). Both
    show a window of rows at a time with JavaScript on."""
    from bleucli.options import RunOptions
    from bleucli.report.compare import compare
    from bleucli.report.html import comparison_page
    from datasets import DATA, read

    folder = DATA / "wmt22-en-de"
    refs = [list(read(folder / "ref.de.gz")[:LAZY_SEGMENTS])]
    systems = [list(read(folder / "sys" / f"{name}.de.gz")[:LAZY_SEGMENTS]) for name in ("Online-A", "Online-B")]
    result = compare(RunOptions(), ["Online-A", "Online-B"], systems, ["ref"], refs)
    path = tmp_path_factory.mktemp("lazy") / "lazy.html"
    lazy_above = 500 if request.param == "rows in the data" else LAZY_SEGMENTS
    path.write_text(comparison_page(result, lazy_above=lazy_above), encoding="utf-8")
    return path, result


@pytest.fixture
def lazy_page(browser, lazy_report):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.messages = []
    opened.on("console", lambda message: opened.messages.append((message.type, message.text)))
    opened.on("pageerror", lambda error: opened.messages.append(("pageerror", str(error))))
    opened.goto(lazy_report[0].as_uri())
    yield opened
    context.close()


def rendered(page) -> list[int]:
    return page.eval_on_selector_all("#sentences tbody tr", "rows => rows.map(r => +r.dataset.n)")


def test_a_lazy_page_renders_a_window_and_more_as_the_reader_scrolls(lazy_page):
    assert lazy_page.messages == []
    first = rendered(lazy_page)
    assert first == list(range(1, len(first) + 1)) and 100 <= len(first) < LAZY_SEGMENTS
    assert lazy_page.text_content("#f-count") == f"{LAZY_SEGMENTS} of {LAZY_SEGMENTS} sentences shown"
    for _ in range(40):
        lazy_page.mouse.wheel(0, 20000)
        lazy_page.wait_for_timeout(50)
        if len(rendered(lazy_page)) == LAZY_SEGMENTS:
            break
    assert rendered(lazy_page) == list(range(1, LAZY_SEGMENTS + 1))


def test_a_lazy_page_sorts_and_filters_over_every_row(lazy_page, lazy_report):
    segments = lazy_report[1].segments
    delta = {s.number: s.systems[1].sentence_bleu - s.systems[0].sentence_bleu for s in segments}
    lazy_page.click("button[data-key=d1]")
    order = sorted(delta, key=lambda n: (-delta[n], n))
    shown = rendered(lazy_page)
    assert shown == order[:len(shown)] and len(shown) < LAZY_SEGMENTS
    lazy_page.get_by_label("delta sign").select_option("worse")
    expected = [n for n in order if delta[n] < 0]
    assert lazy_page.text_content("#f-count") == f"{len(expected)} of {LAZY_SEGMENTS} sentences shown"
    assert rendered(lazy_page) == expected[:len(rendered(lazy_page))]
    lazy_page.click("#f-copy")
    lines = lazy_page.input_value("#tsv").rstrip("\n").split("\n")
    assert [int(line.split("\t")[0]) for line in lines[1:]] == expected  # every matching row, rendered or not
    # a text that only a row far from the first window holds
    far = segments[-1].systems[0].hypothesis
    lazy_page.click("#f-clear")
    lazy_page.get_by_label("text contains").fill(far)
    assert lazy_page.text_content("#f-count").split(" of ")[0] != "0"
    assert LAZY_SEGMENTS in rendered(lazy_page)


def test_a_lazy_page_permalink_renders_and_shows_its_row(lazy_page):
    lazy_page.evaluate("location.hash = '#s987'")
    lazy_page.wait_for_selector("#s987")
    assert lazy_page.is_visible("#s987")
    assert lazy_page.evaluate("document.getElementById('s987').getBoundingClientRect().top") < 900
    lazy_page.evaluate("location.hash = '#s990'")
    lazy_page.wait_for_function("document.getElementById('s990') !== null")
    assert lazy_page.eval_on_selector_all("tr.target", "rows => rows.map(r => r.id)") == ["s990"]
    assert lazy_page.evaluate("document.querySelector(':target').id") == "s990"  # the row is :target too


def test_a_lazy_page_renders_every_row_before_printing(lazy_page):
    lazy_page.get_by_label("delta sign").select_option("worse")
    shown = int(lazy_page.text_content("#f-count").split(" of ")[0])
    assert len(rendered(lazy_page)) < shown
    lazy_page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert len(rendered(lazy_page)) == shown


def test_a_lazy_page_without_javascript_says_why_the_table_is_empty(browser, lazy_report):
    """With the rows in the page data: a note; with the rows in ``<noscript>``: every row."""
    context = browser.new_context(java_script_enabled=False)
    opened = context.new_page()
    opened.goto(lazy_report[0].as_uri())
    text = opened.text_content("section[aria-labelledby=h-sentences]")
    if opened.locator("#sentences tbody tr").count() == 0:
        assert "renders them as you scroll" in text
    else:
        assert opened.eval_on_selector_all("#sentences tbody tr", "rows => rows.map(r => +r.dataset.n)") == list(
            range(1, LAZY_SEGMENTS + 1))
        assert "renders them as you scroll" not in text
    context.close()


def test_the_text_filter_reads_escaped_text_as_displayed(browser, tmp_path):
    """The filter reads each row's HTML with the tags stripped and the entities undone: what the page shows."""
    from bleucli.options import RunOptions
    from bleucli.report.compare import compare
    from bleucli.report.html import comparison_page

    outputs = ['"><img src=x> & <b>bold</b>', "it's \"quoted\"", "plain words", "A &amp; B"]
    result = compare(RunOptions(), ["a", "b"], [outputs, list(reversed(outputs))], ["ref"],
                     [["plain words", "quoted", "bold", "A & B"]])
    path = tmp_path / "hostile.html"
    path.write_text(comparison_page(result), encoding="utf-8")
    context = browser.new_context()
    opened = context.new_page()
    opened.goto(path.as_uri())
    for needle, rows in (('"><img src=x> & <b>', [1, 4]), ("it's \"quoted\"", [2, 3]), ("a &amp; b", [1, 4]),
                         ("a & b", [4]), ("<b>bold</b>", [1, 4])):
        opened.get_by_label("text contains").fill(needle)
        assert visible_numbers(opened) == rows, needle
    context.close()


def test_a_ter_improvement_is_styled_as_an_improvement(browser, tmp_path):
    """TER is lower-is-better: the candidate's lower TER is drawn in the improvement colour, as its higher BLEU."""
    from datasets import DATA, read

    folder = DATA / "wmt22-en-de"
    reference = read(folder / "ref.de.gz")[:30]
    weak = read(folder / "sys" / "Online-A.de.gz")[:30]
    good = list(reference[:20]) + list(weak[20:])
    paths = {}
    for name, lines in (("ref", reference), ("weak", weak), ("good", good)):
        paths[name] = tmp_path / name
        paths[name].write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    html = tmp_path / "ter.html"
    args = ["compare", str(paths["ref"]), "-i", str(paths["weak"]), str(paths["good"]), "-m", "bleu", "ter",
            "-pbsn", "100", "--html", str(html), "-q"]
    assert invoke(args).exit_code == 0
    context = browser.new_context()
    opened = context.new_page()
    opened.goto(html.as_uri())
    colour = "el => getComputedStyle(el).color"
    improvement = opened.evaluate("""() => { const probe = document.createElement('span'); probe.className = 'pos';
        document.body.appendChild(probe); return getComputedStyle(probe).color; }""")
    loss = opened.evaluate("""() => { const probe = document.createElement('span'); probe.className = 'neg';
        document.body.appendChild(probe); return getComputedStyle(probe).color; }""")
    assert improvement != loss
    # BLEU (score, delta, p, human accuracy: BLEU has a published fit), TER (score, delta, p)
    cells = opened.locator("#systems tbody tr").nth(1).locator("td")
    assert cells.count() == 7
    assert cells.nth(1).evaluate(colour) == improvement  # BLEU went up
    assert cells.nth(5).evaluate(colour) == improvement  # TER went down: an improvement, not a loss
    # the first sentence: the candidate is the reference itself (TER 0), the baseline is not
    first = opened.locator("#sentences tbody tr").first.locator("td")
    assert first.last.evaluate(colour) == improvement
    context.close()


# -- a large page: the rows made by the script from the page data's compact table --------------------------
TABLE_SEGMENTS = 2000
STRANGE = ["</script><b>x</b> & 'q' \"dq\"", "emoji 😀 then words 😀😀 end &amp;", "  spaced   out  ", "",
           "tab\tand\u2028separator"]


@pytest.fixture(scope="module")
def table_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object, list[str]]:
    """2,000 segments: wmt22-en-de and strange lines (markup, astral characters, entities, empty), with a
    source, documents, two references and BLEU, chrF and TER, above a lowered lazy threshold: every row is
    made by the script from the compact table. Returns the page, the comparison and each row's HTML as the
    generator writes it for a small page."""
    from bleucli.options import RunOptions
    from bleucli.report.compare import compare
    from bleucli.report.html import _sentence_row, comparison_page
    from datasets import DATA, read

    folder = DATA / "wmt22-en-de"
    n = TABLE_SEGMENTS - len(STRANGE)
    refs = [list(read(folder / "ref.de.gz")[:n]) + STRANGE, list(read(folder / "ref2.de.gz")[:n])
            + list(reversed(STRANGE))]
    systems = [list(read(folder / "sys" / f"{name}.de.gz")[:n]) + STRANGE[::2] + STRANGE[1::2]
               for name in ("Online-A", "Online-B")]
    source = list(read(folder / "sys" / "Online-W.de.gz")[:n]) + STRANGE  # any text stands for a source
    documents = [f"doc <{i // 100}>" for i in range(TABLE_SEGMENTS)]
    options = RunOptions()
    options = options._replace(metrics=options.metrics._replace(requested=("bleu", "chrf", "ter")))
    result = compare(options, ["Online-A", "Online-B"], systems, ["ref", "ref2"], refs, source=source,
                     documents=documents)
    path = tmp_path_factory.mktemp("table") / "table.html"
    path.write_text(comparison_page(result, lazy_above=1500), encoding="utf-8")
    return path, result, [_sentence_row(result, segment) for segment in result.segments]


def test_a_large_page_makes_each_row_exactly_as_the_generator_writes_it(browser, table_report):
    from bleucli.report.html import highlight_runs

    path, result, rows = table_report
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    messages = []
    opened.on("pageerror", lambda error: messages.append(str(error)))
    opened.goto(path.as_uri())
    page = path.read_text(encoding="utf-8")
    assert '<tbody></tbody></table></section>' in page and '"table":{' in page  # every row comes from the table
    opened.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # every row in the DOM
    differing = opened.evaluate("""rows => {
        const made = document.querySelectorAll('#sentences tbody tr'), bad = [];
        const tpl = document.createElement('template');
        rows.forEach((html, i) => {
            tpl.innerHTML = '<table><tbody>' + html + '</tbody></table>';
            const want = tpl.content.querySelector('tr');
            if (!made[i] || made[i].outerHTML !== want.outerHTML) bad.push(i + 1);
        });
        return [made.length, bad.slice(0, 5)]; }""", rows)
    assert messages == []
    assert differing == [TABLE_SEGMENTS, []]
    # the highlighting of the astral line: the marked characters are the tokens BLEU counted
    strange = result.segments[TABLE_SEGMENTS - 4]
    marked = opened.eval_on_selector_all(f"#s{strange.number} td.out:nth-of-type(1) span.t span",
                                         "spans => spans.map(s => s.textContent)")
    assert marked == [strange.systems[0].hypothesis[a:b] for _, a, b in highlight_runs(strange.systems[0])]
    context.close()


def test_a_large_page_sorts_filters_and_picks_over_every_row(browser, table_report):
    path, result, _ = table_report
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.goto(path.as_uri())
    segments = result.segments
    delta = {s.number: s.systems[1].sentence_bleu - s.systems[0].sentence_bleu for s in segments}
    opened.click("button[data-key=d1]")
    order = sorted(delta, key=lambda n: (-delta[n], n))
    shown = rendered(opened)
    assert shown == order[:len(shown)] and 100 <= len(shown) < TABLE_SEGMENTS
    opened.get_by_label("delta sign").select_option("better")
    expected = [n for n in order if delta[n] > 0]
    assert opened.text_content("#f-count") == f"{len(expected)} of {TABLE_SEGMENTS} sentences shown"
    opened.click("#f-clear")
    opened.get_by_label("text contains").fill("😀😀")
    assert opened.text_content("#f-count").startswith("2 of ")
    opened.click("#f-clear")
    # a document pick (its segments travel as gaps in base 32)
    opened.click("section[aria-labelledby=h-documents] table button.pick[title='the segments of document doc <3>']")
    opened.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert sorted(rendered(opened)) == list(range(301, 401))  # in the order of the delta sort
    context.close()


def test_the_scripts_number_format_is_pythons(browser):
    """The script formats a large page's scores as Python's ``format(x, ".1f")`` does (ties to even, -0)."""
    import random

    from bleucli.report.html import _JS, _signed

    source = _JS[_JS.index("function fmt(x)"):_JS.index("function tone(")]
    rng = random.Random(3)
    values = [0.25, 0.75, 1.25, -0.25, -1.25, 12.25, 99.75, -0.04, -0.05, 0.0, -0.0, 2.45, 5.55, 100.0]
    values += [k / 4 for k in range(-400, 400)] + [k / 20 for k in range(-400, 400)]
    values += [rng.uniform(-100, 100) for _ in range(5000)]
    context = browser.new_context()
    opened = context.new_page()
    got = opened.evaluate(f"values => {{ {source}; return [values.map(fmt), values.map(signed)]; }}", values)
    context.close()
    assert got[0] == [format(v, ".1f") for v in values]
    assert got[1] == [_signed(v) for v in values]
