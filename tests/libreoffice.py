"""Edit a workbook in LibreOffice itself (headless, through its UNO bridge) and save it as .xlsx.

The tests that need what LibreOffice writes, not a model of it, use this: the edits run as a
script in LibreOffice's own Python, with ``sheets`` (the document's sheets, unprotected while the
script runs) and ``cell(sheet_name, "B5", value)`` defined; the file is saved with the
"Calc MS Excel 2007 XML" filter, as File > Save As .xlsx does.
"""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
RENDERING = SOFFICE is not None and shutil.which("pdftoppm") is not None

_SCRIPT = """
import uno
from com.sun.star.beans import PropertyValue

def prop(name, value):
    p = PropertyValue(); p.Name = name; p.Value = value; return p

local = uno.getComponentContext()
resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
ctx = resolver.resolve("uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl({src!r}), "_blank", 0, (prop("Hidden", True),))
sheets = doc.Sheets
protected = [sheets.getByIndex(i) for i in range(sheets.getCount()) if sheets.getByIndex(i).isProtected()]
for sheet in protected:
    sheet.unprotect("")

def cell(sheet, ref, value):
    target = sheets.getByName(sheet).getCellRangeByName(ref)
    if isinstance(value, str):
        target.setString(value)
    else:
        target.setValue(value)

{edits}
for sheet in protected:
    sheet.protect("")
doc.storeToURL(uno.systemPathToFileUrl({out!r}), (prop("FilterName", "Calc MS Excel 2007 XML"),))
doc.close(True)
import os, sys
sys.stdout.flush()
sys.stderr.flush()
os._exit(0)  # saved and closed: skip pyuno's teardown at exit, which crashes now and then (SIGSEGV, 1 run in 10)
"""


def office_python() -> str:
    """The Python that can import LibreOffice's ``uno`` (the system one on Debian)."""
    for candidate in ("/usr/bin/python3", "/usr/lib/libreoffice/program/python"):
        if Path(candidate).exists():
            probe = subprocess.run([candidate, "-c", "import uno"], capture_output=True)
            if probe.returncode == 0:
                return candidate
    pytest.skip("no Python with LibreOffice's uno module")


def edit_in_libreoffice(src: Path, out: Path, edits: str, scratch: Path) -> None:
    """Open ``src`` in LibreOffice, run ``edits`` (Python, see the module's doc), save as ``out``."""
    if SOFFICE is None:
        pytest.skip("LibreOffice is not installed")
    pipe = f"benchsheet-{uuid.uuid4().hex}"  # never shared by two test runs (pytest names their folders alike)
    script = scratch / "edit.py"
    script.write_text(_SCRIPT.format(pipe=pipe, src=str(src), out=str(out), edits=edits), encoding="utf-8")
    office = subprocess.Popen(
        [
            SOFFICE,
            "--headless",
            "--invisible",
            "--norestore",
            "--nologo",
            f"-env:UserInstallation=file://{scratch / 'profile'}",
            f"--accept=pipe,name={pipe};urp;",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        python = office_python()
        for _ in range(60):  # until LibreOffice listens
            done = subprocess.run([python, str(script)], capture_output=True, text=True, timeout=120)
            if done.returncode == 0 or "NoConnectException" not in done.stderr:
                break
            time.sleep(1)
        assert done.returncode == 0, f"exit status {done.returncode}: {done.stderr}"
    finally:
        office.terminate()
        office.wait(timeout=30)
