"""Source of docs/boiler-warranty-certificate.docx (python-docx; see ../make.sh)."""
import sys

from docx import Document

doc = Document()
doc.core_properties.title = "Thermora Combi 30i: 7-Year Warranty Certificate"
doc.core_properties.author = "Thermora Heating UK"

doc.add_paragraph("Thermora Heating UK — Warranty Certificate", style="Title")
doc.add_paragraph(
    "Thank you for choosing Thermora. Your boiler has been registered for our extended warranty. "
    "Keep this certificate with the Benchmark commissioning checklist that your installer completed.")

doc.add_heading("Your registration", level=1)
table = doc.add_table(rows=7, cols=2)
table.style = "Table Grid"
for r, (a, b) in enumerate([
        ("Product", "Thermora Combi 30i combination boiler"),
        ("Serial number", "TC30-7781-4402"),
        ("Installation address", "14 Copperbeech Close, Kingsmere KM6 2RT"),
        ("Installed by", "Brookside Gas Services (Gas Safe 601177)"),
        ("Installation date", "14 June 2022"),
        ("Warranty period", "7 years parts and labour, to 13 June 2029"),
        ("Warranty reference", "TW-22-0615-3349")]):
    table.cell(r, 0).text = a
    table.cell(r, 1).text = b

doc.add_heading("What is covered", level=1)
doc.add_paragraph(
    "The warranty covers the repair or replacement of any part of the boiler that fails because of a "
    "manufacturing fault, including the labour of a Thermora engineer, for 7 years from the "
    "installation date. Thermora's own wireless room thermostat and other controls supplied with the "
    "boiler are covered for 2 years from the installation date only.")

doc.add_heading("Conditions", level=1)
doc.add_paragraph("The warranty remains valid only if all of these conditions are met:")
for line in [
        "The boiler is serviced every year by a Gas Safe registered engineer, no later than 12 months "
        "after the installation date and after each previous service. A service up to one month late is "
        "accepted once during the warranty period.",
        "Each service is recorded in the service record section of the Benchmark checklist.",
        "A magnetic system filter is fitted on the return pipe and cleaned at each service.",
        "The system is filled with inhibitor, which must be topped up after any draining.",
        "The boiler is used in a domestic home in the United Kingdom."]:
    doc.add_paragraph(line, style="List Bullet")

doc.add_heading("What is not covered", level=1)
doc.add_paragraph(
    "Faults caused by frost, by sludge or scale in the heating system, by low water pressure, by "
    "external controls not supplied by Thermora, or by work on the boiler by anyone who is not Gas "
    "Safe registered. Call-outs where no fault is found are charged at £120 plus VAT.")

doc.add_heading("How to make a claim", level=1)
for line in [
        "Check that the gas and electricity are on and that the system pressure is between 1 and 1.5 bar.",
        "Press and hold the reset button for 5 seconds and wait for the boiler to restart.",
        "If it still does not work, write down the fault code shown on the display.",
        "Call Thermora Customer Care on 0800 088 4512 (open 8am to 6pm, seven days a week).",
        "Give your serial number, your warranty reference and the date of the last service.",
        "An engineer will normally visit within 3 working days; someone over 18 must be at home."]:
    doc.add_paragraph(line, style="List Number")

doc.add_paragraph(
    "This warranty is in addition to your statutory rights. Issued 20 June 2022 by Thermora Heating UK "
    "Ltd, Unit 12, Severn Gate Business Park, Kingsmere KM9 4FJ.")
doc.save(sys.argv[1])
