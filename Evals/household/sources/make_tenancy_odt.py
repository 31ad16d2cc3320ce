"""Source of docs/tenancy-agreement-larchmere-road.odt (odfpy; see ../make.sh)."""
import sys

from odf.opendocument import OpenDocumentText
from odf.style import Style, TextProperties, ParagraphProperties
from odf.table import Table, TableColumn, TableRow, TableCell
from odf.text import H, P, List, ListItem
from odf import dc

doc = OpenDocumentText()
doc.meta.addElement(dc.Title(text="Assured Shorthold Tenancy Agreement: Flat 2, 47 Larchmere Road"))
title = Style(name="Title", family="paragraph")
title.addElement(TextProperties(fontsize="18pt", fontweight="bold"))
title.addElement(ParagraphProperties(textalign="center"))
doc.styles.addElement(title)
h1 = Style(name="Heading 1", family="paragraph")
h1.addElement(TextProperties(fontsize="14pt", fontweight="bold"))
doc.styles.addElement(h1)


def heading(text):
    doc.text.addElement(H(outlinelevel=1, stylename=h1, text=text))


def para(text):
    doc.text.addElement(P(text=text))


def bullets(lines):
    lst = List()
    for line in lines:
        item = ListItem()
        item.addElement(P(text=line))
        lst.addElement(item)
    doc.text.addElement(lst)


doc.text.addElement(P(stylename=title, text="Assured Shorthold Tenancy Agreement"))
para("This agreement is dated 18 August 2023. It is made between the landlord, Mr Gideon "
     "Ashworth-Pryce, c/o Kestrel Lettings, 5 Abbey Parade, Kingsmere KM1 2PE (\"the Landlord\"), and "
     "the tenants, Ms Eleanor Whitcombe and Mr Tomasz Brandt (\"the Tenants\"), who are jointly and "
     "severally responsible for everything the Tenants agree to below.")

heading("1. The property")
para("The property is Flat 2, 47 Larchmere Road, Kingsmere KM4 7QX: a two-bedroom ground-floor flat, "
     "let unfurnished, with the use of the rear garden and one allocated parking space (bay 4). The "
     "check-in inventory signed on the first day of the tenancy forms part of this agreement.")

heading("2. Term")
para("The tenancy is for a fixed term of 12 months, beginning on 1 September 2023 and ending on "
     "31 August 2024.")
para("Break clause: the Tenants may end the tenancy at any time after the first 6 months by giving "
     "the Landlord at least one month's written notice, ending on the last day of a rental period.")
para("The Landlord may end the tenancy only by giving the Tenants at least two months' written notice "
     "in the form required by law, which cannot expire before the end of the fixed term.")

heading("3. Rent")
para("The rent is £1,275 per calendar month, payable in advance on or before the 1st day of each "
     "month by standing order to Kestrel Lettings client account, sort code 40-11-62, account 73019558, "
     "quoting reference LAR47-2. If rent is more than 14 days late, interest is charged at 3% a year "
     "above the Bank of England base rate from the date it was due.")
para("The rent may be reviewed once a year, on the anniversary of the start of the tenancy, with at "
     "least one month's written notice of the new rent.")

heading("4. Deposit")
para("The Tenants have paid a deposit of £1,471, equal to five weeks' rent. The Landlord's agent will "
     "protect it with the Deposit Protection Service within 30 days of receiving it and give the "
     "Tenants the prescribed information. At the end of the tenancy the deposit will be returned "
     "within 10 days of the Landlord and the Tenants agreeing any deductions.")

table = Table(name="Payments")
table.addElement(TableColumn(numbercolumnsrepeated=3))
for cells in [["Payment", "Amount", "When"],
              ["Holding deposit", "£294", "Paid 9 August 2023, counted towards the first month's rent"],
              ["Tenancy deposit", "£1,471", "Before the keys are handed over"],
              ["Monthly rent", "£1,275", "On or before the 1st of each month"],
              ["Lost key or fob", "£40 per item", "Within 14 days of the request"]]:
    row = TableRow()
    for text in cells:
        cell = TableCell(valuetype="string")
        cell.addElement(P(text=text))
        row.addElement(cell)
    table.addElement(row)
doc.text.addElement(table)

heading("5. The Tenants agree")
bullets([
    "to pay the council tax, water and sewerage, gas, electricity, broadband and TV licence;",
    "to keep the flat clean and well aired, and to report damp or mould in writing within 7 days;",
    "to test the smoke alarms and the carbon monoxide alarm monthly;",
    "to report a leak, or a loss of heating or hot water, immediately;",
    "to keep the rear garden tidy and the lawn cut between April and October;",
    "not to keep any pet without the Landlord's written consent, except one indoor cat, which is "
    "permitted;",
    "not to smoke or vape anywhere in the flat;",
    "not to sublet or take in a lodger;",
    "to give the Landlord or his contractors access for inspections and repairs on at least 24 hours' "
    "written notice, or at any time in an emergency."])

heading("6. The Landlord agrees")
bullets([
    "to keep the structure, exterior, drains, gutters and pipes in repair;",
    "to keep the installations for water, gas, electricity, heating and hot water in repair and working;",
    "to arrange a gas safety check every 12 months by a Gas Safe registered engineer and give the "
    "Tenants a copy of the record within 28 days;",
    "to have the electrical installation inspected at least every 5 years and give the Tenants a copy "
    "of the report;",
    "to insure the building (the Tenants insure their own belongings)."])

heading("7. End of the tenancy")
para("At the end of the tenancy the Tenants must return all keys (2 sets of front door and flat keys, "
     "1 bin store fob) to Kestrel Lettings by 12 noon on the last day, leave the flat clean and in the "
     "same condition as at the start, apart from fair wear and tear, and give a forwarding address.")

para("Signed: G. Ashworth-Pryce (by his agent, Rhiannon Pugh, Kestrel Lettings); E. Whitcombe; T. Brandt.")
doc.save(sys.argv[1])
