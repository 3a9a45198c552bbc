"""Security of the report: whatever the dump holds is shown as text and runs nothing.

IR text, pass names, .log text and the dump's directory names carry `</script>`, HTML with
event handlers, `javascript:` URLs and `{{ }}` template syntax. In real Chromium each must
show literally, no script of theirs may run (nothing sets `window.__pwned`, no CSP violation
is even attempted) and no request may leave the file: a local HTTP server named in the
hostile text counts every hit. The Content-Security-Policy itself is shown to block every
kind of fetch a page can make.
"""

from __future__ import annotations

import html.parser
import http.server
import threading
from pathlib import Path

import pytest
from browser_support import PAINTED, expect
from conftest import FRONTEND, write_dump
from hostile_support import run

# Records what the page tried that a CSP stopped, and every script-visible trace of injection.
WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
"""


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 (http.server's naming)
        self.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(b"window.__pwned = 'fetched';")

    do_POST = do_GET

    def log_message(self, *_args):
        pass


@pytest.fixture(scope="module")
def server():
    """A real HTTP server on localhost: any request the report makes lands here."""
    handler = type("Counter", (_Counter,), {"hits": []})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler.hits
    httpd.shutdown()
    httpd.server_close()


def hostile_strings(url: str) -> list[str]:
    return [
        "</script><script>window.__pwned = 'script'</script>",
        "<img src=x onerror=\"window.__pwned = 'img'\">",
        f"<img src={url}/img>",
        "<svg onload=\"window.__pwned = 'svg'\"></svg>",
        "<a href=\"javascript:window.__pwned = 'a'\">click me</a>",
        "javascript:window.__pwned = 'url'",
        f'<iframe src="{url}/iframe"></iframe>',
        f"<link rel=stylesheet href={url}/link>",
        f"<style>body {{ background: url({url}/css) }}</style>",
        f'<meta http-equiv=refresh content="0; url={url}/meta">',
        "{{ 7*7 }} {% for x in range(3) %}{{ x }}{% endfor %} ${7*7} #{7*7}",
        "<!-- <script>window.__pwned = 'comment'</script> -->",
        "\u2028</ScRiPt >\u2029<script>window.__pwned = 'case'</script>",
    ]


# File and directory names cannot hold "/", so "</script>" in a path comes from two directories.
PASS_NAMES = [
    "<img src=x onerror=window.__pwned=1>",
    "{{ 7*7 }}",
    "javascript:window.__pwned=1",
    "<script>window.__pwned=1<\\script>",
]
TITLE = "<img src=x onerror=window.__pwned=2> {{ 7*7 }}"


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory, server) -> tuple[Path, list[str]]:
    url, _hits = server
    root = tmp_path_factory.mktemp("security")
    strings = hostile_strings(url)
    ir = FRONTEND + "".join(f'# {s}\nx_{i} = "{s}"\n' for i, s in enumerate(strings))
    texts = [FRONTEND, (PASS_NAMES[0], ir)]
    for k, name in enumerate(PASS_NAMES[1:], start=2):
        texts.append((name, ir.replace("x_0", f"x_0_{k}")))
    folder = root / "<" / "script>" / TITLE / "passes_dump"
    log = "\n".join(strings) + f"\n01_after_{PASS_NAMES[0]}.py:5: warning: {strings[1]} [{strings[4]}]\n"
    dump = write_dump(folder, texts, logs={1: log, 3: strings[0] + "\n"})
    report = root / "report.html"
    result = run(dump, "-o", report, "--no-cache")
    assert result.returncode == 0, result.stderr
    assert "</script>" in str(dump)
    return report, strings


class _Markup(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_hostile_text_adds_no_markup_to_the_page_source(hostile_report):
    """Before any browser: the HTML has only the template's own elements and no event handlers."""
    report, _strings = hostile_report
    page = report.read_text(encoding="utf-8")
    parser = _Markup()
    parser.feed(page)
    tags = [tag for tag, _attrs in parser.tags]
    assert tags.count("script") == 2  # the data element and the viewer
    for forbidden in ("img", "svg", "iframe", "a", "link", "style"):
        expected = 1 if forbidden in ("link", "style") else 0  # the template's data: icon and its styles
        assert tags.count(forbidden) == expected, forbidden
    assert not [(t, a) for t, a in parser.tags if any(name.startswith("on") for name in a)]
    assert [a.get("http-equiv") for t, a in parser.tags if t == "meta" and "http-equiv" in a] == [
        "Content-Security-Policy"
    ]
    assert "7*7" in page.split("</title>")[0]  # the title keeps the template syntax as text
    assert "window.__pwned=2" not in page.replace("window.__pwned=2&gt;", "")  # only escaped


def _flat(text: str) -> str:
    """Line and paragraph separators may be drawn as line breaks: compare without them."""
    return text.replace("\u2028", "").replace("\u2029", "")


def _open(browser, report: Path):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.add_init_script(WATCH)
    record = {"errors": [], "requests": [], "failed": {}}
    page.on("pageerror", lambda exc: record["errors"].append(str(exc)))
    page.on("console", lambda msg: record["errors"].append(msg.text) if msg.type == "error" else None)
    page.on("request", lambda req: record["requests"].append(req.url))
    page.on("requestfailed", lambda req: record["failed"].__setitem__(req.url, req.failure))
    page.goto(report.resolve().as_uri())
    page.wait_for_function(PAINTED)
    return context, page, record


def test_hostile_ir_names_logs_and_directories_show_literally_and_run_nothing(browser, hostile_report, server):
    report, strings = hostile_report
    _url, hits = server
    context, page, record = _open(browser, report)
    try:
        nav = page.get_by_role("navigation", name="Passes")
        assert page.title().startswith(TITLE)  # the directory name, as text
        assert page.locator("h1").inner_text() == TITLE
        for name in PASS_NAMES:
            assert name in nav.inner_text()
        for k in range(1, len(PASS_NAMES) + 1):
            nav.locator(f'button[data-k="{k}"]').click()
            page.get_by_role("button", name="Expand all").click()
            after = page.get_by_role("region", name="After snapshot").inner_text()
            for s in strings:  # every hostile line is there, as the characters it is made of
                assert _flat(s) in _flat(after)
            if k in (1, 3):
                warnings = page.get_by_role("region", name="Pass warnings")
                assert warnings.is_visible()
                log_text = warnings.text_content()
                assert strings[0] in log_text
                if k == 1:
                    assert all(s in log_text for s in strings)
        for layout in ("Stacked", "Side by side"):
            page.get_by_role("button", name=layout).click()
        injected = page.evaluate(
            """() => ({
                pwned: window.__pwned === undefined ? null : String(window.__pwned),
                violations: window.__violations,
                scripts: document.scripts.length,
                foreign: document.querySelectorAll(
                  'img, svg, iframe, object, embed, a[href], meta[http-equiv=refresh], body link, body style').length,
                handlers: [...document.querySelectorAll('*')]
                  .filter(n => [...n.attributes].some(a => a.name.startsWith('on'))).length,
                jsUrls: [...document.querySelectorAll('[href], [src], [action]')]
                  .filter(n => [...n.attributes].some(a => /^javascript:/i.test(a.value.trim()))).length,
            })"""
        )
        assert injected == {"pwned": None, "violations": [], "scripts": 2, "foreign": 0, "handlers": 0, "jsUrls": 0}
        assert record["errors"] == []
        assert [u for u in record["requests"] if not u.startswith(("file:", "data:"))] == []
        assert "49" not in page.locator("h1").inner_text()
    finally:
        context.close()
    assert hits == [], f"the report reached the network: {hits}"


def test_the_content_security_policy_blocks_every_kind_of_fetch(browser, hostile_report, server):
    """Try every way a page script can reach a server; the CSP must refuse each, the server see nothing."""
    report, _strings = hostile_report
    url, hits = server
    context, page, record = _open(browser, report)
    try:
        outcomes = page.evaluate(
            """async (url) => {
                // sendBeacon only queues (it returns true either way): the server and the violations judge it
                navigator.sendBeacon(url + '/beacon', 'x');
                const tries = {
                    fetch: () => fetch(url + '/fetch'),
                    xhr: () => new Promise((ok, fail) => {
                        const x = new XMLHttpRequest(); x.open('GET', url + '/xhr');
                        x.onload = ok; x.onerror = () => fail(new Error('xhr blocked')); x.send(); }),
                    websocket: () => new Promise((ok, fail) => {
                        const w = new WebSocket(url.replace('http', 'ws') + '/ws');
                        w.onopen = ok; w.onerror = () => fail(new Error('ws blocked')); }),
                    eventsource: () => new Promise((ok, fail) => {
                        const e = new EventSource(url + '/sse');
                        e.onopen = ok; e.onerror = () => fail(new Error('sse blocked')); }),
                    image: () => new Promise((ok, fail) => {
                        const i = new Image();
                        i.onload = ok; i.onerror = () => fail(new Error('img blocked')); i.src = url + '/img'; }),
                    script: () => new Promise((ok, fail) => {
                        const s = document.createElement('script'); s.src = url + '/script.js';
                        s.onload = ok; s.onerror = () => fail(new Error('script blocked')); document.head.append(s); }),
                    stylesheet: () => new Promise((ok, fail) => {
                        const l = document.createElement('link'); l.rel = 'stylesheet'; l.href = url + '/style.css';
                        l.onload = ok; l.onerror = () => fail(new Error('css blocked')); document.head.append(l); }),
                    import: () => import(url + '/module.js'),
                    inline: async () => {
                        const s = document.createElement('script'); s.textContent = "window.__pwned = 'inline'";
                        document.head.append(s); if (window.__pwned) return; throw new Error('inline blocked'); },
                    eval: async () => { eval("window.__pwned = 'eval'"); },
                };
                const out = {};
                for (const [name, attempt] of Object.entries(tries)) {
                    try { await attempt(); out[name] = 'allowed'; }
                    catch (e) { out[name] = 'blocked'; }
                }
                return out;
            }""",
            url,
        )
        assert outcomes == {name: "blocked" for name in outcomes}, outcomes
        assert page.evaluate("() => window.__pwned === undefined")
        violations = page.evaluate("() => window.__violations")
        for directive in ("connect-src", "img-src", "script-src", "style-src"):
            assert any(v.startswith(directive) for v in violations), (directive, violations)
        assert any(v.startswith("connect-src") and v.endswith("/beacon") for v in violations), violations
        csp = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
        for rule in ("default-src 'none'", "connect-src 'none'", "base-uri 'none'", "form-action 'none'"):
            assert rule in csp
        assert "unsafe-eval" not in csp and "script-src 'unsafe-inline'" not in csp
    finally:
        context.close()
    assert hits == [], f"the report reached the network: {hits}"
    outside = [u for u in record["requests"] if not u.startswith(("file:", "data:"))]
    assert outside, "the attempts above should have been seen by the browser"
    for u in outside:  # each one the browser refused before it left
        assert record["failed"].get(u) == "csp", (u, record["failed"].get(u))


def test_a_damaged_payload_or_disabled_scripts_say_why_the_page_is_empty(browser, tmp_path: Path):
    """The page stays hidden until the viewer fills it, so both ways it cannot start must be told."""
    dump = write_dump(tmp_path / "passes_dump", [FRONTEND, FRONTEND.replace("pl.add", "pl.sub")])
    report = tmp_path / "r.html"
    assert run(dump, "-o", report, "--no-cache", "-q").returncode == 0
    page_source = report.read_text(encoding="utf-8")
    start = page_source.index('id="ir-trace-data"')
    start = page_source.index(">", start) + 1
    damaged = tmp_path / "damaged.html"
    damaged.write_text(page_source[:start] + "H4sIAAAA" + page_source[page_source.index("</script>", start) :])
    for path, scripts, message in (
        (damaged, True, "This report could not be read"),
        (report, False, "This report is drawn by JavaScript, which has not run"),
    ):
        context = browser.new_context(java_script_enabled=scripts)
        try:
            page = context.new_page()
            page.goto(path.as_uri())
            expect(page.get_by_text(message)).to_be_visible()
        finally:
            context.close()
