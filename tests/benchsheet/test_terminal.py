"""What benchsheet prints never acts on the terminal (issue 42 item 6, the shells' part): every control
character of text from outside (ESC, BEL, a newline inside a name, U+202E) is printed escaped, by every
command, once where the command line writes (``benchsheet.console``); and ``lite --wheel-url`` refuses the
user-name trick ``https://evil.com\\@good.com/`` as refresh does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchsheet.addin import manage
from benchsheet.cli import main
from benchsheet.lite import WHEEL

RAW = ("\x1b", "\x07", "\u202e")


def _clean(text: str) -> None:
    assert not any(c in text for c in RAW), repr(text)


def test_addin_uninstall_prints_a_config_line_with_esc_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    conf = tmp_path / "xlwings.conf"
    conf.write_text('"INTERPRETER_WIN","C:\\py\x1b[2J\x07\u202eexe.nohtyp"\n')
    monkeypatch.setattr(manage, "try_python", lambda python, timeout=300: manage.Tried(True, "not tried here"))
    monkeypatch.setattr(manage, "this_platform", lambda: "win32")  # the Windows install path, without Excel
    assert main(["addin", "install", "--config-only", "--use-this-python", "--config", str(conf)]) == 0
    out = capsys.readouterr().out
    _clean(out)  # the Windows install path shows the line it takes out
    assert "\\x1b[2J\\x07\\u202eexe.nohtyp" in out
    assert main(["addin", "uninstall", "--config-only", "--config", str(conf)]) == 0
    out = capsys.readouterr().out
    _clean(out)
    assert '  + "INTERPRETER_WIN","C:\\py\\x1b[2J\\x07\\u202eexe.nohtyp"' in out
    assert conf.read_text() == '"INTERPRETER_WIN","C:\\py\x1b[2J\x07\u202eexe.nohtyp"\n'  # the file as it was


def test_a_function_name_with_a_newline_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["functions", "PER\nGPU\x1b[31m"]) == 2
    err = capsys.readouterr().err
    _clean(err)
    assert err.count("\n") == 1 and "PER\\nGPU\\x1b[31m" in err, err


def test_calc_lists_a_reason_quoting_esc_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A reason that quotes the cell's text (an unknown entry named with CHAR(27)) reached stderr raw."""
    import xlsxwriter

    src, out = tmp_path / "in.xlsx", tmp_path / "out.xlsx"
    book = xlsxwriter.Workbook(str(src))
    sheet = book.add_worksheet("S")
    sheet.write_formula("A1", '=PERGPU("6.1-9999"&CHAR(27)&"[2J","gpt-oss-120b","Server")')
    book.close()
    assert main(["template", "calc", str(src), "--out", str(out)]) == 1
    captured = capsys.readouterr()
    _clean(captured.out + captured.err)
    assert "6.1-9999\\x1b[2J" in captured.err, captured.err


@pytest.mark.parametrize(
    "url", ["https://evil.com\\@example.org/", "https://evil.com@example.org/", "https://u:p@example.org/"]
)
def test_lite_refuses_a_wheel_url_with_a_user_name(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lite", "requirements.txt", "--wheel-url", url]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "user name" in err or "backslash" in err, err


def test_lite_still_takes_a_plain_wheel_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lite", "requirements.txt", "--wheel-url", "https://example.org/w/"]) == 0
    assert capsys.readouterr().out == f"https://example.org/w/{WHEEL}\n"
    assert sys.stdout is sys.__stdout__ or not hasattr(sys.stdout, "inner")  # the command's stream put back
