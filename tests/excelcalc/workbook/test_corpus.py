"""calc on workbooks Microsoft Excel saved, judged against the values Excel cached in them.

Every file of ``tests/corpus/files`` (listed with its source and licence in
``tests/corpus/SOURCES.toml``) is recomputed with ``calc``; every formula cell of the file calc
wrote is compared with Excel's own cached value (``tests/excel_corpus.py``). Every difference
is listed, with its reason, in ``tests/corpus/known_differences.toml``: a new difference fails,
and so does a listed one that no longer differs, so the list stays true. No difference may be a
number where Excel has another value: where benchsheet cannot compute a function as Excel does,
the cell answers an error naming the function.
"""

from __future__ import annotations

import tomllib

import pytest

from tests import excel_corpus as ec

MATCH_RATE = 0.997  # of all judged cells (a refused file's count as different); the target is 0.99
ELSEWHERE = """
CEILING.MATH CEILING.PRECISE CODE CONVERT DECIMAL EXPAND FIXED FLOOR.MATH FLOOR.PRECISE MAP MODE.MULT N NOW RAND
TEXTJOIN TODAY TYPE _XLFN.CEILING.MATH _XLFN.CEILING.PRECISE _XLFN.FLOOR.MATH _XLFN.FLOOR.PRECISE _XLFN.MODE.MULT
_XLFN.TEXTJOIN _XLFN.AGGREGATE
NORM.DIST NORM.INV NORM.S.DIST NORM.S.INV T.DIST T.DIST.2T T.DIST.RT T.INV T.INV.2T STDEV.S STDEV.P VAR.S VAR.P
MODE.SNGL RANK.EQ RANK.AVG PERCENTILE.INC PERCENTILE.EXC QUARTILE.INC QUARTILE.EXC CHISQ.DIST CHISQ.DIST.RT CHISQ.INV
CHISQ.INV.RT F.DIST F.DIST.RT F.INV F.INV.RT BINOM.DIST POISSON.DIST EXPON.DIST GAMMA.DIST LOGNORM.DIST CONFIDENCE.NORM
CONFIDENCE.T COVARIANCE.P COVARIANCE.S NORMDIST NORMINV NORMSDIST NORMSINV TDIST TINV CHIDIST CHIINV FDIST FINV
BINOMDIST EXPONDIST GAMMADIST LOGNORMDIST CONFIDENCE COVAR PERCENTILE QUARTILE ISERR ISO.CEILING
WORKDAY.INTL NETWORKDAYS NETWORKDAYS.INTL COMPLEX IMSUM IMPRODUCT IMSUB IMDIV IMPOWER IMABS IMREAL IMAGINARY IMARGUMENT
IMCONJUGATE IMSQRT IMEXP IMLN IMLOG10 IMLOG2 IMSIN IMCOS LINEST LOGEST TREND GROWTH QUOTIENT SERIESSUM
CORREL PEARSON SLOPE INTERCEPT RSQ STEYX FORECAST FORECAST.LINEAR STANDARDIZE GAMMALN GAMMALN.PRECISE SKEW SKEW.P KURT
BETA.DIST BETADIST BETA.INV BETAINV WEIBULL.DIST WEIBULL HYPGEOM.DIST HYPGEOMDIST NEGBINOM.DIST NEGBINOMDIST BINOM.INV
CRITBINOM GAMMA.INV GAMMAINV LOGNORM.INV LOGINV PERCENTRANK.INC PERCENTRANK T.TEST TTEST CHISQ.TEST CHITEST Z.TEST
ZTEST F.TEST FTEST FISHER FISHERINV PHI
PERCENTRANK.EXC GAMMA GAUSS
IPMT PPMT CUMIPMT CUMPRINC DB DDB SYD VDB EFFECT NOMINAL MIRR XNPV XIRR ACCRINT UNICODE _XLFN.UNICODE UNICHAR
_XLFN.UNICHAR FILTER _XLFN._XLWS.FILTER SORT _XLFN._XLWS.SORT SORTBY _XLFN.SORTBY UNIQUE _XLFN.UNIQUE SEQUENCE
_XLFN.SEQUENCE
IFS SWITCH IFNA XOR MINIFS MAXIFS FORMULATEXT _XLFN.FORMULATEXT DATEVALUE TIMEVALUE AVERAGEIF AVERAGEIFS
WEEKDAY WEEKNUM ISOWEEKNUM _XLFN.ISOWEEKNUM PDURATION _XLFN.PDURATION RRI _XLFN.RRI FVSCHEDULE ISPMT
DOLLARDE DOLLARFR PROPER NUMBERVALUE _XLFN.NUMBERVALUE ISEVEN ISODD STDEVA STDEVPA VARA VARPA
COT COTH CSC CSCH SEC SECH ACOT ACOTH PERMUT PERMUTATIONA COMBINA ROMAN ARABIC ERF ERFC ERF.PRECISE ERFC.PRECISE
TAKE DROP VSTACK HSTACK TOCOL TOROW CHOOSEROWS TEXTBEFORE TEXTAFTER GCD LCM TEXTSPLIT
REGEXTEST REGEXEXTRACT REGEXREPLACE
BYROW _XLFN.BYROW BYCOL _XLFN.BYCOL REDUCE _XLFN.REDUCE SCAN _XLFN.SCAN MAKEARRAY _XLFN.MAKEARRAY
"""
WRONG_VALUES_LEFT = 4  # listed cells where calc shows a value (not an error) other than Excel's: only fewer


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> list[ec.Judged]:
    out_dir = tmp_path_factory.mktemp("corpus")
    return [ec.run_calc(path, out_dir / f"{i}{path.suffix}") for i, path in enumerate(ec.corpus_files())]


def test_every_file_has_its_source() -> None:
    sources = tomllib.loads(ec.SOURCES.read_text(encoding="utf-8"))["file"]
    listed = {s["file"] for s in sources}
    present = {p.relative_to(ec.FILES).as_posix() for p in ec.corpus_files()}
    assert present == listed
    for s in sources:
        assert s["repo"] and len(s["commit"]) == 40 and s["path"] and s["licence"] in ("MIT", "Apache-2.0")
        assert s["saved_by"].startswith("Microsoft Excel")


def test_every_file_was_computed_by_excel() -> None:
    for path in ec.corpus_files():
        assert ec.excel_computed(path), path


@pytest.mark.slow
def test_every_file_computed_or_listed_as_refused(judged: list[ec.Judged]) -> None:
    refused = {j.file for j in judged if j.failure}
    assert refused == set(ec.refused_files())


@pytest.mark.slow
def test_differences_are_the_known_ones(judged: list[ec.Judged]) -> None:
    known = ec.known_differences()
    found = {(d.file, d.cell): d for j in judged for d in j.differences or ()}
    new = [f"{d.file} {d.cell}: Excel {d.excel}, calc {d.ours}" for k, d in found.items() if k not in known]
    gone = [f"{k[0]} {k[1]}" for k in known if k not in found]
    changed = [
        f"{k[0]} {k[1]}: listed calc {known[k]['ours']}, now {d.ours}"
        for k, d in found.items()
        if k in known and (known[k]["excel"], known[k]["ours"]) != (d.excel, d.ours)
    ]
    assert new == [], "differences from Excel that known_differences.toml does not list"
    assert gone == [], "listed in known_differences.toml but equal to Excel's now: remove them"
    assert changed == []
    assert all(entry["reason"].strip() for entry in known.values())


@pytest.mark.slow
def test_no_new_cell_gets_another_value(judged: list[ec.Judged]) -> None:
    """Where calc differs from Excel, it answers an error (naming what it does not compute); the
    cells that still get another value are listed, each with its reason, and may only become fewer."""
    wrong = [d for j in judged for d in j.differences or () if not d.ours.startswith("#")]
    assert len(wrong) <= WRONG_VALUES_LEFT, [f"{d.file} {d.cell}: Excel {d.excel}, calc {d.ours}" for d in wrong]


@pytest.mark.slow
def test_match_rate(judged: list[ec.Judged]) -> None:
    cells = sum(j.cells for j in judged)
    equal = sum(j.equal for j in judged)
    assert cells > 20000
    assert equal / cells >= MATCH_RATE, f"{equal}/{cells} = {equal / cells:.2%} of the judged cells equal Excel's"


def test_judge_tells_values_apart() -> None:
    """The judge itself: numbers to 1e-9 relative, text, booleans and errors exactly."""
    assert ec.same(1.0, 1.0 + 1e-12) and not ec.same(1.0, 1.0 + 1e-8)
    assert not ec.same(1.0, True) and not ec.same(True, 1.0) and ec.same(False, False)
    assert not ec.same("1", 1.0) and not ec.same("a", "A")
    assert ec.same(ec.Error("#N/A"), ec.Error("#N/A")) and not ec.same(ec.Error("#N/A"), ec.Error("#VALUE!"))
    assert not ec.same(0.0, ec.Error("#DIV/0!"))


def test_volatile_cells_are_not_judged() -> None:
    cells = [
        ec.ExcelCell("S", "A1", "NOW()", 1.0),
        ec.ExcelCell("S", "A2", "A1+1", 2.0),
        ec.ExcelCell("S", "A3", "SUM(S!A1:A2)", 3.0),
        ec.ExcelCell("S", "B1", "1+1", 2.0),
    ]
    assert ec.volatile_cells(cells) == {("S", "A1"), ("S", "A2"), ("S", "A3")}
    named = [ec.ExcelCell("S", "A1", "TODAY()", 1.0), ec.ExcelCell("S", "B2", "EDATE(DATE_CELL,2)", 2.0)]
    assert ec.volatile_cells(named, {"DATE_CELL": "S!$A$1"}) == {("S", "A1"), ("S", "B2")}  # POI's 56688_4.xlsx


@pytest.mark.slow
def test_checked_functions_follow_the_corpus(judged: list[ec.Judged]) -> None:
    """Each function benchsheet computes was seen equal to Excel in a corpus workbook, or is one
    of those listed here: checked by Apache POI's FormulaEvalTestData (in the corpus, refused as
    a whole while INDIRECT is not computed) or by the test suite against Microsoft's reference."""
    from excelcalc.lib import CHECKED

    elsewhere = set(ELSEWHERE.split())
    assert CHECKED - ec.functions_matching(judged) == elsewhere


def test_an_unchecked_function_answers_its_name() -> None:
    from benchsheet.catalogue.engine import evaluate
    from excelcalc.values import ReasonedError

    for formula, name in (("=BESSELJ(1.9,2)", "BESSELJ"), ("=_xlfn.FORECAST.ETS(1,{1,2},{1,2})", "FORECAST.ETS")):
        value = evaluate(formula)
        assert isinstance(value, ReasonedError) and value.text == f"#NAME? {name} is not computed by benchsheet"


def test_the_readme_says_what_calc_computes() -> None:
    """docs/calculator.md's account of what calc computes as Excel does, what not and why, is generated
    from CHECKED and the known-differences file: it fails here when either changed without it."""
    page = ec.PAGE.read_text(encoding="utf-8")
    assert page.count(ec.PAGE_BEGIN) == 1 and page.count(ec.PAGE_END) == 1
    block = page[page.index(ec.PAGE_BEGIN) : page.index(ec.PAGE_END) + len(ec.PAGE_END)]
    assert block == ec.page_block(), "run `python -m tests.excel_corpus --update-docs`"


def test_a_reason_names_the_function_it_is_about() -> None:
    entry = {"formula": "SUM(A1:A3)+COS(B1)", "reason": "implicit intersection of a range passed to COS (...)"}
    assert ec.reason_kind(entry) == ("implicit intersection of a range passed to F (...)", "COS")
    both = {"formula": "CUBEVALUE(CUBEMEMBER(1))", "reason": "CUBEVALUE/CUBEMEMBER read the data model"}
    assert ec.reason_kind(both) == ("CUBEVALUE/CUBEMEMBER read the data model", "")
    assert ec.reason_kind({"formula": "Table1[c]", "reason": "structured reference (Table[column])"})[1] == ""
