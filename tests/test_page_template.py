"""The pages' template filler (report/page_template.py) against Jinja2, which renders what it refuses."""

from __future__ import annotations

import jinja2
import pytest

from ir_trace.report import render as render_module
from ir_trace.report.page_template import MissingValue, UnsupportedTemplate, escaped, render_template
from ir_trace.report.render import REPORT_SCRIPTS, content_security_policy, render_page, templates_dir

AWKWARD = "a <b> & \"c\" 'd' \u202e </script> {{ x }} {% if %} \u00b7"


def _jinja(template: str, **values: object) -> str:
    """The page as the renderer before this one made it (render.py's Jinja environment)."""
    return render_module._environment().get_template(template).render(**values)


@pytest.mark.parametrize("fingerprint", [None, "", "0" * 64, AWKWARD])
def test_report_page_is_jinjas(fingerprint):
    values = dict(css=AWKWARD, js=AWKWARD, csp=AWKWARD, title=AWKWARD, payload_data="H4sI+/=")
    if fingerprint is not None:
        values["fingerprint"] = fingerprint
    ours = render_template(templates_dir() / "report.html.j2", **values)
    assert ours == _jinja("report.html.j2", **values)
    assert ('name="ir-trace-fingerprint"' in ours) == bool(fingerprint)


def test_index_page_is_jinjas():
    values = dict(css="b{}", js=AWKWARD, csp="x", title=AWKWARD, payload_json='{"a":"\\u003c"}')
    assert render_template(templates_dir() / "index.html.j2", **values) == _jinja("index.html.j2", **values)


def test_whole_report_page_is_jinjas():
    """render_page with the real scripts and styles, as a report is written."""
    page = render_page("report.html.j2", REPORT_SCRIPTS, "viewer.css", title="t<", payload_data="QUJD", fingerprint="f")
    folder = templates_dir()
    script = page.split("<script>", 1)[1].rsplit("</script>", 1)[0]
    css = (folder / "viewer.css").read_text(encoding="utf-8")
    csp = content_security_policy(script)
    expected = _jinja("report.html.j2", css=css, js=script, csp=csp, title="t<", payload_data="QUJD", fingerprint="f")
    assert page == expected


def test_escaped_is_markupsafes():
    import markupsafe

    for text in [AWKWARD, "", "&&<<>>", "plain", 12]:
        assert escaped(text) == str(markupsafe.escape(text))


def test_a_value_the_page_needs_must_be_given(tmp_path):
    template = tmp_path / "t.j2"
    template.write_text("<p>{{ title }}</p>\n")
    with pytest.raises(MissingValue, match="title"):
        render_template(template)
    assert render_template(template, title="x") == "<p>x</p>\n"


@pytest.mark.parametrize(
    "text",
    [
        "{{ title|upper }}",
        "{% for x in y %}{% endfor %}",
        "{# note #}",
        "{% if a %}x",
        "x{% endif %}",
        "{{ a.b }}",
        "{%- if a | default('') %}{% endif %}",
    ],
)
def test_what_it_does_not_understand_is_refused(tmp_path, text):
    template = tmp_path / "t.j2"
    template.write_text(text)
    with pytest.raises(UnsupportedTemplate):
        render_template(template, title="t", a="a", y=[])


def test_nested_conditions(tmp_path):
    template = tmp_path / "t.j2"
    template.write_text('{% if a | default("") %}A{% if b | default("") %}B{{ b }}{% endif %}.{% endif %}!')
    cases = [dict(), dict(a="1"), dict(a="1", b="<"), dict(b="1")]
    environment = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    for values in cases:
        assert render_template(template, **values) == environment.from_string(template.read_text()).render(**values)


def test_a_template_it_does_not_understand_is_rendered_by_jinja(tmp_path, monkeypatch):
    (tmp_path / "page.html.j2").write_text(
        "{% for n in [1, 2] %}{{ n }}{% endfor %}|{{ title|upper }}|{{ css|length }}\n"
    )
    (tmp_path / "s.css").write_text("abc")
    (tmp_path / "s.js").write_text("")
    monkeypatch.setattr(render_module, "templates_dir", lambda: tmp_path)
    render_module._environment.cache_clear()
    try:
        assert render_page("page.html.j2", ("s.js",), "s.css", title="t") == "12|T|3\n"
    finally:
        render_module._environment.cache_clear()
