#!/bin/sh
# Makes the office and mail fixtures with real tools (run again after changing a source; commit both):
#   letter.odt            letter.html imported by LibreOffice Writer and saved as OpenDocument text;
#   budget.xlsx, .ods     budget.fods (two sheets, dates, a formula) saved by LibreOffice Calc;
#   deck.pptx             deck.fodp (three slides with speaker notes) saved by LibreOffice Impress;
#   repair-quote.eml      written by Python's email package, with quote.pdf (quote.ms, groff) attached;
#   club.mbox             three messages written by Python's mailbox package (mail.py says which);
#   locked/letter.odt     letter.odt's parts zipped again by zip with a password (ZIP encryption);
#   locked/manual.pdf     the sample dishwasher manual encrypted by qpdf with a user password;
#   locked/letter-password.odt  letter.odt saved with a password by LibreOffice (protect.py, through
#                         python3-uno): OpenDocument's own encryption of its parts.
# Needs libreoffice-writer, -calc and -impress, python3-uno, qpdf and zip (not test dependencies: the outputs
# are committed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
office() { soffice --headless "-env:UserInstallation=file://$tmp/profile" "$@" --outdir "$here" >/dev/null; }
office --infilter="HTML (StarWriter)" --convert-to odt "$here/letter.html"
office --convert-to xlsx "$here/budget.fods"
office --convert-to ods "$here/budget.fods"
office --convert-to pptx "$here/deck.fodp"
groff -ms -Tpdf -K utf8 "$here/quote.ms" >"$tmp/quote.pdf"
rm -f "$here/club.mbox"
python3 "$here/mail.py" "$here" "$tmp/quote.pdf"
mkdir -p "$tmp/parts" "$here/locked"
(cd "$tmp/parts" && unzip -q "$here/letter.odt" && rm -f "$here/locked/letter.odt" && zip -q -P secret -r "$here/locked/letter.odt" mimetype .)
qpdf --encrypt secret owner 256 -- "$here/../samples/dishwasher-manual.pdf" "$here/locked/manual.pdf"
soffice --headless "-env:UserInstallation=file://$tmp/profile" --accept='socket,host=localhost,port=2002;urp;' >/dev/null 2>&1 &
office_pid=$!
/usr/bin/python3 "$here/protect.py" "$here/letter.odt" "$here/locked/letter-password.odt" writer8
kill $office_pid
