"""Writes the DOCX test fixture with python-docx, the way a word processor would lay it out:
core title, Title and Heading styles, style-based bullet and numbered lists, a table, tabs and
line breaks inside runs, and characters that XML must escape."""
import sys

from docx import Document

out = sys.argv[1]
doc = Document()
doc.core_properties.title = "Quarterly Safety Checklist"
doc.core_properties.author = "Facilities"

doc.add_paragraph("Safety Checklist", style="Title")
doc.add_heading("Fire exits", level=1)
doc.add_paragraph("Keep corridors clear & doors unlocked <always>.")
p = doc.add_paragraph("Extinguisher:")
p.add_run().add_tab()
p.add_run("checked monthly")
p.add_run().add_break()
p.add_run("tag signed by the warden")
doc.add_paragraph("Exit signs lit", style="List Bullet")
doc.add_paragraph("Fire doors close on their own", style="List Bullet")
doc.add_paragraph("Assembly point marked", style="List Bullet")
doc.add_heading("Drill schedule", level=2)
doc.add_paragraph("Announce the drill", style="List Number")
doc.add_paragraph("Time the evacuation", style="List Number")
table = doc.add_table(rows=3, cols=3)
for r, cells in enumerate([["Floor", "Warden", "Drill date"],
                           ["Ground", "A. Okafor", "12 March"],
                           ["First", "J. Lindqvist", "19 March"]]):
    for c, text in enumerate(cells):
        table.cell(r, c).text = text
doc.add_paragraph("")
doc.add_paragraph("End of checklist.")
doc.save(out)
