#!/bin/sh
# Re-makes Evals/household/docs from Evals/household/sources with the tools each kind of file
# really comes from: groff (-t -ms -Tpdf) for the PDFs, pdftoppm for the two scans, python-docx,
# openpyxl and odfpy for the office documents (pip install python-docx openpyxl odfpy), Python's
# csv and email packages for the statement and the e-mail; the plain-text, Markdown, HTML,
# iCalendar and vCard files are written by hand and copied as they are. See PROVENANCE.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src="$here/sources"
docs="$here/docs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$docs"

# PDFs (tbl tables, numbered procedures under headings).
for name in washer-dryer-manual car-handbook-excerpt home-insurance-schedule-2025 \
        energy-bill-2025-02 payslip-2025-03 boiler-service-record-2025; do
    groff -t -ms -Tpdf "$src/$name.ms" > "$docs/$name.pdf"
done

# Scans: a till receipt (PNG, the receipt's area of the page) and a posted letter (greyscale JPEG).
groff -t -ms -Tpdf "$src/receipt-halloran-hardware.ms" > "$tmp/receipt.pdf"
pdftoppm -r 200 -png -singlefile -x 130 -y 150 -W 880 -H 1000 "$tmp/receipt.pdf" "$tmp/receipt"
cp "$tmp/receipt.png" "$docs/receipt-halloran-hardware.png"
groff -t -ms -Tpdf "$src/council-tax-letter.ms" > "$tmp/letter.pdf"
pdftoppm -r 200 -gray -jpeg -jpegopt quality=80 -singlefile -f 1 -l 1 "$tmp/letter.pdf" "$tmp/letter"
cp "$tmp/letter.jpg" "$docs/council-tax-letter.jpg"

# Office documents, the statement and the e-mail.
python3 "$src/make_contract_docx.py" "$docs/employment-contract-fernhill.docx"
python3 "$src/make_warranty_docx.py" "$docs/boiler-warranty-certificate.docx"
python3 "$src/make_tenancy_odt.py" "$docs/tenancy-agreement-larchmere-road.odt"
python3 "$src/make_budget_xlsx.py" "$docs/household-budget-2025.xlsx"
python3 "$src/make_bank_csv.py" "$docs/bank-statement-2025-03.csv"
python3 "$src/make_eml.py" "$docs/email-okafor-quote.eml"

# Written by hand.
for name in copperbeech-residents-minutes-2025-02-20.md recipe-red-lentil-soup.md \
        lemon-drizzle-cake.txt ashcombe-primary-newsletter-2025-03.txt house-notes.txt \
        edinburgh-trip-itinerary.html family-calendar.ics contacts.vcf; do
    cp "$src/$name" "$docs/$name"
done

echo "make.sh: $(ls "$docs" | wc -l) documents in $docs"
