#!/usr/bin/env bash
# Render an .xlsx workbook the way a user without the benchsheet add-in sees it:
# LibreOffice (headless) prints every visible sheet to one PDF with the sheets' own
# page setup, and pdftoppm turns each page into a PNG.
#
#   scripts/render_workbook.sh IN.xlsx OUTDIR        -> OUTDIR/IN.pdf, OUTDIR/IN-1.png, IN-2.png, ...
#
# LibreOffice does not know benchsheet's functions, so it must show the values
# cached in the file rather than recalculate (which would print #NAME?). The
# script runs LibreOffice with a private, throw-away profile whose "recalculation
# on file load" for Excel 2007+ files is "never" (OOXMLRecalcMode = 1, also
# LibreOffice's default), so neither a user's settings nor a running LibreOffice
# can change the result. Environment: DPI (default 110).
set -euo pipefail

if [[ $# -ne 2 || "$1" == -h || "$1" == --help ]]; then
    echo "usage: $0 IN.xlsx OUTDIR" >&2
    exit 2
fi
in=$1
outdir=$2
dpi=${DPI:-110}
for tool in soffice pdftoppm; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found (install LibreOffice and poppler-utils)" >&2; exit 2; }
done
[[ -f "$in" ]] || { echo "error: $in: no such file" >&2; exit 2; }
mkdir -p "$outdir"

profile=$(mktemp -d "${TMPDIR:-/tmp}/render-workbook.XXXXXX")
trap 'rm -rf "$profile"' EXIT
mkdir -p "$profile/user"
cat >"$profile/user/registrymodifications.xcu" <<'XCU'
<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>1</value></prop></item>
</oor:items>
XCU

base=$(basename "${in%.*}")
# (not "SinglePageSheets": LibreOffice 7.4 then prints hidden sheets too)
filter=pdf
soffice "-env:UserInstallation=file://$profile" --headless --norestore --nologo \
    --convert-to "$filter" --outdir "$outdir" "$in" >"$profile/soffice.log" 2>&1 || {
    cat "$profile/soffice.log" >&2
    echo "error: LibreOffice could not convert $in" >&2
    exit 1
}
pdf="$outdir/$base.pdf"
[[ -s "$pdf" ]] || { cat "$profile/soffice.log" >&2; echo "error: no PDF written for $in" >&2; exit 1; }
rm -f "$outdir/$base"-*.png
pdftoppm -png -r "$dpi" "$pdf" "$outdir/$base"
echo "$pdf"
ls "$outdir/$base"-*.png
