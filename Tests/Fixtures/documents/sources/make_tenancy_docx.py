"""Source of Tests/Fixtures/samples/tenancy-agreement.docx (python-docx; see ../make-fixtures.sh)."""
import sys

from docx import Document

doc = Document()
doc.core_properties.title = "Assured Shorthold Tenancy Agreement: Flat 3, 41 Harrow Lane"
doc.core_properties.author = "Marlow & Reed Lettings"

doc.add_paragraph("Assured Shorthold Tenancy Agreement", style="Title")
doc.add_paragraph(
    "This agreement is made on 14 August 2023 between the landlord, Ms Helen Marlow of "
    "Marlow & Reed Lettings, 9 Station Parade, and the tenants, Mr Daniel Osei and "
    "Ms Priya Raman, who are jointly and severally liable for all obligations below.")

doc.add_heading("1. The property", level=1)
doc.add_paragraph(
    "The property is Flat 3, 41 Harrow Lane, a two-bedroom first-floor flat, let furnished "
    "together with the use of the shared garden, the bicycle store and parking space number 7. "
    "The inventory signed by both parties on the first day of the tenancy forms part of this agreement.")

doc.add_heading("2. Term", level=1)
doc.add_paragraph(
    "The tenancy is for a fixed term of 12 months starting on 1 September 2023 and ending on "
    "31 August 2024. Either party may end the tenancy after the first 6 months under the break "
    "clause, by giving at least 2 months' notice in writing. After the fixed term the tenancy "
    "continues from month to month until ended by notice: the tenants must give one month's "
    "notice ending on the last day of a rental period, and the landlord two months' notice.")

doc.add_heading("3. Rent and deposit", level=1)
doc.add_paragraph(
    "The rent is £1,150 per calendar month, payable in advance on the 1st day of each month by "
    "standing order to the account named in Schedule A. Rent paid more than 14 days late carries "
    "interest at 3% above the Bank of England base rate, as allowed by the Tenant Fees Act 2019.")
doc.add_paragraph(
    "The tenants have paid a deposit of £1,325, equal to five weeks' rent. It is protected with "
    "the Deposit Protection Service within 30 days of receipt, under certificate DPS-7731-0452, "
    "and will be returned within 10 days of agreeing the deductions at the end of the tenancy.")
table = doc.add_table(rows=5, cols=3)
for r, cells in enumerate([
        ["Payment", "Amount", "Due"],
        ["Holding deposit", "£265", "Paid 2 August 2023, credited to the first month's rent"],
        ["Tenancy deposit", "£1,325", "Before keys are released"],
        ["Monthly rent", "£1,150", "1st of each month"],
        ["Replacement key or fob", "£35 per item", "Within 14 days of request"]]):
    for c, text in enumerate(cells):
        table.cell(r, c).text = text

doc.add_heading("4. Tenants' obligations", level=1)
doc.add_paragraph("The tenants agree:")
for line in [
        "to pay the rent, council tax, water, gas, electricity, broadband and TV licence for the flat;",
        "to keep the flat clean and ventilated, and to open windows or use the extractor fans when cooking, drying laundry or showering, so that condensation does not cause mould;",
        "to test the smoke alarms and the carbon monoxide alarm once a month and replace their batteries;",
        "to report any repair that is needed promptly, and any leak or loss of heating or hot water at once;",
        "not to keep pets without the landlord's written consent, which will not be unreasonably withheld;",
        "not to smoke or vape inside the flat or in the communal hallway;",
        "not to sublet or take in lodgers;",
        "to allow the landlord or a contractor access for inspections and repairs on at least 24 hours' written notice, except in an emergency."]:
    doc.add_paragraph(line, style="List Bullet")

doc.add_heading("5. Landlord's obligations", level=1)
doc.add_paragraph("The landlord agrees:")
for line in [
        "to keep the structure and exterior in repair, including drains, gutters and external pipes;",
        "to keep the installations for water, gas, electricity, sanitation and heating in repair and proper working order;",
        "to have the gas appliances checked every year by a Gas Safe registered engineer and give the tenants a copy of the certificate within 28 days;",
        "to have the electrical installation inspected at least every 5 years;",
        "to carry out urgent repairs (no heating or hot water, a serious leak, an unsafe electrical fault) within 24 hours of being told, and other repairs within 14 days."]:
    doc.add_paragraph(line, style="List Number")

doc.add_heading("6. Ending the tenancy", level=1)
doc.add_paragraph(
    "At the end of the tenancy the tenants must return all 4 keys and 2 fobs, leave the flat in "
    "the same condition as recorded in the inventory (fair wear and tear excepted) and have the "
    "carpets professionally cleaned only if they were professionally cleaned at the start. "
    "Any deductions from the deposit will be itemised in writing; disputes go to the free "
    "alternative dispute resolution service of the Deposit Protection Service.")

doc.add_heading("7. Contacts", level=1)
doc.add_paragraph(
    "Repairs and emergencies: Marlow & Reed Lettings, 01632 960 418 (24 hours), "
    "repairs@marlowreed.example. Notices to the landlord must be sent to 9 Station Parade or by "
    "email to helen@marlowreed.example.")
doc.save(sys.argv[1])
