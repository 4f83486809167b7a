"""The default lengths of an API comparison are the benchmark dataset's mean tokens as MLCommons publishes
them (issue 39, item 3), each with its source; where none is published, the user must give it.

The sources, read where they are published (the figures below are copied from them by hand, not from the
bundled file under test):
- mlcommons/inference_policies inference_rules.adoc, commit ac93e89c, the Datacenter benchmark table (the
  MLPerf Inference rules): llama2-70b "tokens_per_sample=294.45", llama3.1-405b "tokens_per_sample=684.68",
  mixtral-8x7b "tokens_per_sample=144.84": the reference's mean generated tokens per sample, which a
  submission's accuracy run must reach (90%, or 90% to 110%).
- mlcommons/inference language/deepseek-r1/README.md, commit b66003e1, "Reference Evals":
  "mean-output-tok-len": 3886.2274 (the submission checker's TOKENS_PER_SAMPLE bounds are 0.9 and 1.1 x it).
- mlcommons/inference compliance/TEST09/gpt-oss-120b/audit.config, commit b66003e1: "reference mean-OSL:
  1278.20" of the performance dataset.
- llama3.1-8b: the rules and language/llama3.1-8b/README.md publish gen_len = 8167644, the sum of len() of
  the decoded summaries (evaluation.py): characters, not tokens. No mean output tokens.
- No mean input length is published for any of them (searched: the READMEs, docs/index.md, TEST06/TEST09,
  the submission checker, the rules, mlcommons/endpoints, MLCommons' benchmark blog posts).
"""

from __future__ import annotations

import re

import pytest

from benchsheet.data.lengths import all_published_lengths, published_lengths
from benchsheet.udfs import functions as udf

PUBLISHED_OUTPUT = {
    "llama2-70b": 294.45,
    "llama3.1-405b": 684.68,
    "mixtral-8x7b": 144.84,
    "deepseek-r1": 3886.2274,
    "gpt-oss-120b": 1278.20,
}


def test_every_bundled_figure_is_the_published_one() -> None:
    known = all_published_lengths()
    assert {k: v.mean_output_tokens for k, v in known.items() if v.mean_output_tokens} == PUBLISHED_OUTPUT
    assert all(v.mean_input_tokens is None for v in known.values())  # MLCommons publishes no mean input
    assert known["llama3.1-8b"].mean_output_tokens is None and "characters" in known["llama3.1-8b"].what


@pytest.mark.parametrize("benchmark", sorted(PUBLISHED_OUTPUT))
def test_each_figure_stands_in_its_quote_and_names_its_source(benchmark: str) -> None:
    rec = published_lengths(benchmark)
    assert rec is not None
    # the quote holds the figure as the source writes it (1278.20 is 1278.2)
    assert PUBLISHED_OUTPUT[benchmark] in [float(n) for n in re.findall(r"\d+\.\d+", rec.quote)]
    assert re.fullmatch(r"mlcommons/inference(_policies)? \S+ \(commit [0-9a-f]{40}\)", rec.source)


@pytest.mark.parametrize(
    ("benchmark", "mean_output"),
    [
        ("llama2-70b-99", 294.45),
        ("llama2-70b-99.9", 294.45),
        ("Llama3.1-405B", 684.68),
        ("mixtral-8x7b", 144.84),
        ("deepseek-r1", 3886.2274),
        ("gpt-oss-120b", 1278.20),
    ],
)
def test_the_published_mean_output_stands_in(benchmark: str, mean_output: float) -> None:
    # 1,000 input tokens per request at $0.15/M, $0.60/M output: 0.60 + 1000 / mean output x 0.15
    by_hand = 0.60 + 1000 / mean_output * 0.15
    got = udf.APICOSTPERMTOK(0.6, 0.15, 1000, None, None, 0, benchmark)
    assert got == pytest.approx(by_hand, rel=1e-12)


@pytest.mark.parametrize(
    ("benchmark", "shown"),
    [("llama2-70b-99", "294.45"), ("deepseek-r1", "3,886.2274"), ("gpt-oss-120b", "1,278.2")],
)
def test_no_published_mean_input_asks_for_it(benchmark: str, shown: str) -> None:
    got = udf.APICOSTPERMTOK(0.6, 0.15, None, None, None, 0, benchmark)
    assert got.startswith(f"#N/A MLCommons publishes {benchmark}'s mean output ({shown} tokens) but no mean input")
    assert "give input_tokens" in got


def test_a_benchmark_without_published_lengths_says_so() -> None:
    got = udf.APICOSTPERMTOK(0.6, 0.15, 1000, None, None, 0, "llama3.1-8b")
    assert got.startswith("#N/A give input_tokens and output_tokens")
    assert "MLCommons publishes no mean lengths for llama3.1-8b" in got


@pytest.mark.parametrize(("benchmark", "mean_output"), sorted(PUBLISHED_OUTPUT.items()))
def test_meantokens_answers_the_published_figure(benchmark: str, mean_output: float) -> None:
    assert udf.MEANTOKENS(benchmark) == mean_output
    assert udf.MEANTOKENS(benchmark, "output") == mean_output
    assert udf.MEANTOKENS(benchmark, "input") == (
        f"#N/A MLCommons publishes no mean input length for {benchmark}: give your workload's"
    )


def test_meantokens_of_a_benchmark_without_one_says_why() -> None:
    got = udf.MEANTOKENS("llama3.1-8b")
    assert got.startswith("#N/A MLCommons publishes no mean output length for llama3.1-8b: give your workload's")
    assert "characters" in got  # its gen_len counts characters, not tokens
    assert udf.MEANTOKENS("llama2-70b-99", "both").startswith('#VALUE! which must be "input" or "output"')


def test_meantokenssource_cites_where() -> None:
    got = udf.MEANTOKENSSOURCE("llama2-70b-99.9")
    assert got.startswith("llama2-70b: mean output 294.45 tokens, no mean input published:"), got
    assert "mlcommons/inference_policies inference_rules.adoc (commit ac93e89c0c9a): " in got
    assert got.endswith(
        '"the generation length of the tokens per sample should be more than 90% of the reference '
        '(tokens_per_sample=294.45)"'
    )
    assert udf.MEANTOKENSSOURCE("resnet") == "#N/A MLCommons publishes no mean lengths for resnet"
    assert udf.MEANTOKENSSOURCE("llama3.1-8b").startswith("llama3.1-8b: no mean lengths in tokens published: ")
