#!/bin/sh
# The sample documents as LibreOffice prints them to PDF (run again after changing a sample;
# commit the PDFs): the pages Evals/ocr renders as scans and reads back by OCR, each PDF's own
# text (pdftotext) being the truth. Needs libreoffice-writer and -calc (not a test dependency).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
samples="$here/../../../Tests/Fixtures/samples"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in tenancy-agreement.docx lisbon-itinerary.html car-maintenance-log.txt meeting-notes-2024-03-12.md household-budget-2024.csv; do
  soffice --headless "-env:UserInstallation=file://$tmp/profile" --convert-to pdf --outdir "$here" "$samples/$f" >/dev/null
done
