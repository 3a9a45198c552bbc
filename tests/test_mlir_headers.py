"""MLIR dump headers: both printing styles, Before/After/Failed, with and without the op part."""

from __future__ import annotations

import pytest

from ir_trace.inputs.mlir.headers import PassHeader, parse_header


def header(body: str) -> str:
    return f"// -----// IR Dump {body} //----- //"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "After CSE (cse) ('func.func' operation: @saxpy_2d)",
            PassHeader("after", "CSE", "cse", "", "func.func", "@saxpy_2d", False),
        ),
        (
            "After Inliner (inline) ('builtin.module' operation)",
            PassHeader("after", "Inliner", "inline", "", "builtin.module", "", False),
        ),
        ("After Canonicalizer (canonicalize)", PassHeader("after", "Canonicalizer", "canonicalize", "", "", "", False)),
        (
            "Before CSE (cse) ('func.func' operation: @f)",
            PassHeader("before", "CSE", "cse", "", "func.func", "@f", False),
        ),
        (
            "After (anonymous namespace)::TestFailurePass Failed (test-pass-failure) ('func.func' operation: @g)",
            PassHeader(
                "after", "(anonymous namespace)::TestFailurePass", "test-pass-failure", "", "func.func", "@g", True
            ),
        ),
        (
            "After CanonicalizerPass: canonicalize{max-iterations=10    top-down=true} ('builtin.module' operation)",
            PassHeader(
                "after",
                "CanonicalizerPass",
                "canonicalize",
                "{max-iterations=10    top-down=true}",
                "builtin.module",
                "",
                False,
            ),
        ),
        (
            "After mlir::iree_compiler::detail::OpPipelineAdaptorPass: iree-op-pipeline-adaptor"
            " ('util.func' operation: @__memoize_apply)",
            PassHeader(
                "after",
                "mlir::iree_compiler::detail::OpPipelineAdaptorPass",
                "iree-op-pipeline-adaptor",
                "",
                "util.func",
                "@__memoize_apply",
                False,
            ),
        ),
        (
            # options may hold quotes, parentheses and `('`: the op part is the last `('`
            "After P: p{pipeline=f('x') text=(a)} ('func.func' operation: @sp ace ünicode)",
            PassHeader("after", "P", "p", "{pipeline=f('x') text=(a)}", "func.func", "@sp ace ünicode", False),
        ),
        ("After CSE (cse) ('func.func' operation: @kernel/one)", None),
    ],
)
def test_header_parts(body, expected):
    parsed = parse_header(header(body) + "\n")
    if expected is None:  # `/` is a symbol character as far as the header goes
        assert parsed is not None and parsed.symbol == "@kernel/one" and parsed.target == "func.func @kernel/one"
    else:
        assert parsed == expected


def test_display_names():
    assert parse_header(header("After CSE (cse)")).display_name == "CSE (cse)"
    assert parse_header(header("Before CSE (cse)")).display_name == "Before CSE (cse)"
    failed = parse_header(header("After (anonymous namespace)::TestFailurePass Failed (test-pass-failure)"))
    assert failed.display_name == "TestFailurePass (test-pass-failure) failed"


@pytest.mark.parametrize(
    "line",
    [
        "",
        "module {",
        "// -----// IR Dump After CSE (cse)",  # no closing marker
        "// -----// IR Dump Around CSE (cse) //----- //",
        "// -----// IR Dump After  //----- //",
        "  // -----// IR Dump After CSE (cse) //----- //",
    ],
)
def test_not_headers(line):
    assert parse_header(line) is None


def test_round_trip():
    parsed = parse_header(header("After P: p{a=1} ('func.func' operation: @f)"))
    assert PassHeader.from_json(parsed.to_json()) == parsed


@pytest.mark.parametrize("filler", ["(", " ('", ": ", "{", "'", " (x)", "::"])
def test_hostile_headers_parse_in_linear_time(filler):
    # 200 000 repetitions of what the parser searches for: a quadratic scan would not finish
    line = header("After X" + filler * 200_000 + " (cse) ('func.func' operation: @f)")
    parsed = parse_header(line)
    assert parsed is not None and parsed.op == "func.func" and parsed.symbol == "@f"
