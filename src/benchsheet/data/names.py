"""Names: benchmark and scenario spellings, accelerator families and vendors.

Pure functions, no I/O. Rows store the official MLPerf names (``llama3.1-8b``,
``Offline``); look-ups go through ``benchmark_key`` / ``scenario_key`` so that
the spellings files also use (``llama3_1-8b``, ``offline``) match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from benchsheet.data.values import escaped

THROUGHPUT_UNITS = frozenset({"Tokens/s", "Samples/s", "Queries/s", "Tasks/s"})
"""Units that are a rate and may be divided by an accelerator count."""

SCENARIOS = ("Server", "Offline", "Interactive", "SingleStream", "MultiStream")
_SCENARIO_BY_KEY = {s.lower(): s for s in SCENARIOS}

AVAILABILITIES = ("available", "preview", "rdi")


_KEYS: dict[str, str] = {}
_SCENARIO_KEYS: dict[str, str] = {}

BENCHMARK_ALIASES: dict[str, tuple[str, ...]] = {
    # v6.1's new benchmarks, by the names people use for them. The first alias of
    # each is the category the official summary.json gives in its MlperfModel field.
    "qwen3.6-27b": ("agentic edge", "edge agentic", "agentic"),
    "e2e-rag-db": ("end to end vector-database", "vector database", "rag db"),
    "e2e-rag-qna": ("end to end question-answering", "question answering", "rag qna"),
}
"""Official benchmark name -> other names accepted wherever a benchmark is asked for."""


def _loose(name: str) -> str:
    return " ".join(re.split(r"[\s_\-]+", name.strip().lower())).strip()


_ALIAS_KEYS = {_loose(alias): official for official, aliases in BENCHMARK_ALIASES.items() for alias in aliases}


def benchmark_key(name: str) -> str:
    """Case- and punctuation-insensitive key of a benchmark name.

    ``llama3_1-8b`` and ``Llama3.1-8B`` both give ``llama3.1-8b``; an alias in
    ``BENCHMARK_ALIASES`` ("agentic edge") gives its benchmark ("qwen3.6-27b").
    Memoized: a sheet asks for the same few names thousands of times.
    """
    key = _KEYS.get(name)
    if key is None:
        key = _ALIAS_KEYS.get(_loose(name)) or name.strip().lower().replace("_", ".")
        if len(_KEYS) < 4096:
            _KEYS[name] = key
    return key


PIPELINE_BENCHMARKS = frozenset({"e2e-rag-db", "e2e-rag-qna"})
"""Benchmarks that time a whole pipeline with CPU stages: no per-accelerator value."""


def is_pipeline(benchmark: str) -> bool:
    return benchmark_key(benchmark) in PIPELINE_BENCHMARKS


_ENTRY_KEYS: dict[str, str] = {}


def entry_key(entry: str) -> str:
    """Key of an entry ID: ``v4.1-0046``, ``4.1-0046`` and `` 4.1-0046 `` are one entry. Memoized."""
    key = _ENTRY_KEYS.get(entry)
    if key is None:
        key = entry.strip().lower()
        key = key[1:] if key[:1] == "v" and key[1:2].isdigit() else key
        if len(_ENTRY_KEYS) < 65536:
            _ENTRY_KEYS[entry] = key
    return key


def submitter_key(name: str) -> str:
    """A submitter's first-named part, case ignored: ``Lambda_SIT`` -> ``lambda``, ``Dell_AMD`` -> ``dell``."""
    return name.strip().split("_")[0].casefold()


def same_submitter(old: str, new: str, old_names: set[str], new_names: set[str]) -> bool:
    """Whether two rounds' submitter names are one submitter (GAINS' pairing rule).

    Names equal but for case are one submitter (``ORACLE``, ``Oracle``). A joint
    submission ``A_B`` counts as its first-named submitter ``A`` only when one of
    the two names does not appear in the other round at all (``*_names`` hold
    each round's names, case-folded): v6.0's ``Lambda_SIT`` is v6.1's ``Lambda``,
    but ``Dell_MangoBoost`` and ``Dell``, which both submit in both rounds, stay apart.
    """
    o, n = old.strip().casefold(), new.strip().casefold()
    if o == n:
        return True
    return submitter_key(old) == submitter_key(new) and (o not in new_names or n not in old_names)


_MULTI_GPU_CARD = re.compile(r"(?<![A-Za-z0-9])(dual|quad)(?![A-Za-z0-9])", re.IGNORECASE)
_GPUS_PER_CARD = {"dual": 2, "quad": 4}


def gpus_per_card(accelerator: str) -> int:
    """GPUs on one card of an accelerator whose name states a multi-GPU card ("B60 Dual"), else 1.

    Results files count cards (``a#``); a dual-GPU card is two GPUs.
    """
    m = _MULTI_GPU_CARD.search(accelerator)
    return _GPUS_PER_CARD[m.group(1).lower()] if m else 1


_ACCURACY_SUFFIX = re.compile(r"-99(\.9)?$")


def benchmark_keys(name: str) -> tuple[str, str]:
    """The benchmark's key, and the key without its accuracy target (llama2-70b-99.9 -> llama2-70b):
    where a rule is set per model, not per accuracy target (latency bounds)."""
    key = benchmark_key(name)
    return key, _ACCURACY_SUFFIX.sub("", key)


def scenario_key(name: str) -> str:
    key = _SCENARIO_KEYS.get(name)
    if key is None:
        key = name.strip().lower().replace(" ", "")
        if len(_SCENARIO_KEYS) < 4096:
            _SCENARIO_KEYS[name] = key
    return key


def canonical_scenario(name: str) -> str | None:
    """``offline`` -> ``Offline``; None when the text is no known scenario."""
    return _SCENARIO_BY_KEY.get(scenario_key(name))


def is_throughput(units: str) -> bool:
    return units in THROUGHPUT_UNITS


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    vendor: str
    pattern: str  # regular expression, matched case-insensitively


# Order matters only for readability: every pattern is anchored so that a name
# never matches inside another (B300 never matches GB300, H200 never GH200).
_NB = r"(?<![A-Za-z0-9])"  # not preceded by a letter or digit
_ARC = r"Arc(?:\(TM\))?[ _-]?"  # "Arc", "Arc(TM)"
FAMILIES: tuple[Family, ...] = (
    Family("GB300", "NVIDIA", _NB + r"GB300"),
    Family("GB200", "NVIDIA", _NB + r"GB200"),
    Family("GB10", "NVIDIA", _NB + r"GB10(?![0-9])"),
    Family("GH200", "NVIDIA", _NB + r"GH200"),
    Family("Vera Rubin", "NVIDIA", r"Vera[ _-]?Rubin|" + _NB + r"VR200"),
    Family("B300", "NVIDIA", _NB + r"B300"),
    Family("B200", "NVIDIA", _NB + r"B200"),
    Family("H200", "NVIDIA", _NB + r"H200"),
    Family("H100", "NVIDIA", _NB + r"H100"),
    Family("RTX PRO 6000", "NVIDIA", r"RTX[ _-]?PRO[ _-]?6000"),
    Family("RTX PRO 4500", "NVIDIA", r"RTX[ _-]?PRO[ _-]?4500"),
    Family("RTX 4090", "NVIDIA", r"RTX[ _-]?4090"),
    Family("RTX 4000 Ada", "NVIDIA", r"RTX[ _-]?4000[ _-]?Ada"),
    Family("RTX 2000E Ada", "NVIDIA", r"RTX[ _-]?2000E"),
    Family("GTX 1650 Ti", "NVIDIA", r"GTX[ _-]?1650"),
    Family("L40S", "NVIDIA", _NB + r"L40S"),
    Family("L4", "NVIDIA", _NB + r"L4(?![0-9A-Za-z])"),
    Family("Jetson Thor", "NVIDIA", r"Jetson[ _-]?AGX[ _-]?Thor|Jetson[ _-]?Thor"),
    Family("MI355X", "AMD", _NB + r"MI355X"),
    Family("MI350X", "AMD", _NB + r"MI350X"),
    Family("MI350P", "AMD", _NB + r"MI350P"),
    Family("MI325X", "AMD", _NB + r"MI325X"),
    Family("MI300X", "AMD", _NB + r"MI300X"),
    Family("Radeon 8060S", "AMD", r"Radeon[ _-]?8060S"),
    Family("Arc Pro B60", "Intel", _ARC + r"Pro(?:\(R\))?[ _-]?B60"),
    Family("Arc Pro B70", "Intel", _ARC + r"Pro(?:\(R\))?[ _-]?B70"),
    Family("Arc Pro B50", "Intel", _ARC + r"Pro(?:\(R\))?[ _-]?B50"),
    Family("Arc 140T", "Intel", _ARC + r"140T"),
)
FAMILY_GROUPS: dict[str, tuple[str, ...]] = {
    "Blackwell": ("B200", "B300", "GB200", "GB300", "GB10", "RTX PRO 6000", "RTX PRO 4500", "Jetson Thor"),
    "Hopper": ("H100", "H200", "GH200"),
    "CDNA 3": ("MI300X", "MI325X"),
    "CDNA 4": ("MI350X", "MI350P", "MI355X"),
    "Rubin": ("Vera Rubin",),
}
"""Family groups people name in claims ("8 to 36 percent on Blackwell"): the architecture of each family
above. Accepted wherever a family is; a group selects the rows of every family in it."""


@cache
def _family_patterns() -> tuple[tuple[Family, re.Pattern[str]], ...]:
    """``FAMILIES`` compiled, on first use: only importing official files classifies accelerator names,
    and compiling the patterns cost every process (calc, eval, info) a few milliseconds of its start."""
    return tuple((f, re.compile(f.pattern, re.IGNORECASE)) for f in FAMILIES)


@dataclass(frozen=True, slots=True)
class AcceleratorInfo:
    """What an accelerator name says: its family (or families) and vendor."""

    family: str  # "" for CPU-only rows; "H200 + MI350X" for a mixed system
    vendor: str
    heterogeneous: bool


@lru_cache(maxsize=512)
def classify_accelerator(name: str | None) -> AcceleratorInfo:
    """Family and vendor of an accelerator name as written in a results file.

    A name that mentions two different families describes a heterogeneous
    system; it has a combined label and no per-accelerator value. A name that
    matches no known family keeps its own text as family, so nothing is lost.
    """
    text = (name or "").strip()
    if not text:
        return AcceleratorInfo("", "", False)
    found: list[tuple[int, Family]] = []
    for fam, rx in _family_patterns():
        m = rx.search(text)
        if m and all(f.name != fam.name for _, f in found):
            found.append((m.start(), fam))
    if not found:
        return AcceleratorInfo(text, text.split()[0], False)
    found.sort(key=lambda p: p[0])
    fams = [f for _, f in found]
    vendors = sorted({f.vendor for f in fams})
    return AcceleratorInfo(" + ".join(f.name for f in fams), " + ".join(vendors), len(fams) > 1)


def family_key(name: str) -> str:
    """Key for matching a family name typed by a user ("rtx pro 6000", "b200")."""
    return name.strip().lower().replace(" ", "").replace("-", "")


GROUP_MEMBERS: dict[str, frozenset[str]] = {
    family_key(g): frozenset(family_key(f) for f in fams) for g, fams in FAMILY_GROUPS.items()
}


def family_keys(name: str) -> frozenset[str]:
    """The family keys a family or group name selects: a group's members, or the family itself."""
    key = family_key(name)
    return GROUP_MEMBERS.get(key) or frozenset({key})


def _spelling(name: str) -> str:
    """A name as typed, for comparing spellings: case, spaces, "_", "-" and "." ignored as separators."""
    return re.sub(r"[\s_.\-]+", "-", name.strip().lower()).strip("-")


def close_to(text: str, choices: Iterable[str], n: int = 3, *, lookalike_only: bool = False) -> list[str]:
    """The choices ``text`` is probably a misspelling of ("Sever" -> Server; "llama2-70b" -> the
    llama2-70b-99 and -99.9 it starts), through ``difflib``; none when nothing is close. A choice that
    ``text`` is once case and letters typed for the digits they look like are set aside ("GB3OO", "gb3oo"
    for GB300; "6.1-OO52" for 6.1-0052) is the one answer; ``lookalike_only`` looks for that one alone (for
    names of digits, where any other is merely near: 6.1-0999 is no misspelling of 6.1-9999)."""
    import difflib  # here, not at the top: only a misspelt name needs it, and every start paid its import

    by_spelling = {_spelling(c): c for c in choices}
    typed = _spelling(text)
    if not typed:
        return []
    folded: dict[str, list[str]] = {}
    for k, c in by_spelling.items():
        folded.setdefault(k.translate(_LOOKALIKE), []).append(c)
    same = folded.get(typed.translate(_LOOKALIKE), [])
    if same or lookalike_only:
        return same[:n]
    starts = sorted(c for k, c in by_spelling.items() if k.startswith(typed) and k != typed)
    if len(typed) >= 3 and 0 < len(starts) <= n:
        return starts
    close = [by_spelling[k] for k in difflib.get_close_matches(typed, list(by_spelling), n=n, cutoff=0.75)]
    if close:
        return close
    # letters typed for the digits they look like ("GB3O0" for GB300, "H2O"): compared with them folded
    near = difflib.get_close_matches(typed.translate(_LOOKALIKE), list(folded), n=n, cutoff=0.75)
    return [c for k in near for c in folded[k]][:n]


_LOOKALIKE = str.maketrans("oil", "011")
"""Letters read as the digits they look like, for ``close_to``."""


def unknown_name(what: str, typed: str, choices: Sequence[str], role: str = "", *, where: str = "") -> str:
    """Why ``typed`` is no known ``what``, the words to act on first (a narrow cell shows only a reason's
    start): "Did you mean GB300? No family 'GB30'. Known: ..." for a close misspelling (``close_to``), else
    "No family 'TPU9': use one of ...". With ``where``, for names too many to list (entry IDs), the reason
    says where none is instead ("No entry '6.1-9999' in the loaded results"), and suggests only the name a
    lookalike letter stands for. The one place such a reason is written."""
    name = typed.strip()
    shown = escaped(repr(name if len(name) <= 60 else name[:59] + "…")) + (f" ({role})" if role else "")
    close = close_to(typed, choices, lookalike_only=bool(where))
    ask = f"Did you mean {either(close)}? " if close else ""
    if where:
        return f"{ask}No {what} {shown} {where}"
    listed = ", ".join(choices)
    return f"{ask}No {what} {shown}. Known: {listed}" if close else f"No {what} {shown}: use one of {listed}"


def suggestion_only(reason: str) -> str:
    """A reason of ``unknown_name`` without its list of known names, where the suggestion is what a row
    needs ("Did you mean GB300? No family 'GB30'."); any other reason as it is."""
    return reason.split(" Known: ")[0] if reason.startswith("Did you mean ") else reason


def either(names: Sequence[str]) -> str:
    """ "A", "A or B", "A, B or C" """
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
